import Imago
import Testing

@Suite struct ProcessorIdentifierTests {
  static let all: [any ImageProcessing] = [
    ImageProcessors.Resize(width: 400), ImageProcessors.Resize(width: 400, height: 300),
    ImageProcessors.Resize(width: 400, height: 300, mode: .fill()),
    ImageProcessors.Resize(width: 400, height: 300, mode: .fill(.top)),
    ImageProcessors.Resize(width: 400, height: 300, mode: .stretch),
    ImageProcessors.Resize(width: 400, filter: .mitchell), ImageProcessors.Resize(width: 400, allowsUpscaling: true),
    ImageProcessors.Crop(x: 1, y: 2, width: 3, height: 4), ImageProcessors.Crop(width: 3, height: 4),
    ImageProcessors.Crop(width: 3, height: 4, anchor: .bottomRight), ImageProcessors.RoundCorner(radius: 12),
    ImageProcessors.RoundCorner(radius: 12, corners: [.topLeft]), ImageProcessors.GaussianBlur(sigma: 2),
    ImageProcessors.GaussianBlur(sigma: 2.5), ImageProcessors.Sharpen(), ImageProcessors.Sharpen(amount: 2),
    ImageProcessors.Tint(colour: .black, fraction: 0.5), ImageProcessors.Tint(colour: .white, fraction: 0.5),
    ImageProcessors.ColorControls(brightness: 0.1), ImageProcessors.ColorControls(contrast: 1.1),
    ImageProcessors.ColorControls(saturation: 0), ImageProcessors.Grayscale(), ImageProcessors.Border(width: 2),
    ImageProcessors.Border(width: 2, colour: .white), ImageProcessors.Rotate(.degrees90),
    ImageProcessors.Rotate(.degrees270), ImageProcessors.Flip(.horizontal), ImageProcessors.Flip(.vertical),
    ImageProcessors.Orientation(.right), DownsamplingImageProcessor(size: PixelSize(width: 10, height: 10)),
    DefaultImageProcessor(),
  ]

  @Test func differentParametersGiveDifferentIdentifiers() {
    let identifiers = Self.all.map(\.identifier)
    #expect(Set(identifiers).count == identifiers.count, "\(identifiers)")
  }

  @Test func equalParametersGiveEqualIdentifiers() {
    #expect(ImageProcessors.GaussianBlur(sigma: 2).identifier == ImageProcessors.GaussianBlur(sigma: 2.0).identifier)
    #expect(
      ImageProcessors.GaussianBlur(sigma: 2).identifier == ImageProcessors.GaussianBlur(sigma: 2.000001).identifier)
    #expect(
      ImageProcessors.GaussianBlur(sigma: 0.1 + 0.2).identifier == ImageProcessors.GaussianBlur(sigma: 0.3).identifier)
    #expect(ImageProcessors.Resize(width: 10).identifier == ImageProcessors.Resize(width: 10, mode: .fit).identifier)
  }

  @Test func identifiersAreVersionedAndReadable() {
    #expect(ImageProcessors.GaussianBlur(sigma: 2.5).identifier == "imago.blur.v1(sigma=2.5)")
    #expect(
      ImageProcessors.Resize(width: 400, height: 300, mode: .fill(.top)).identifier
        == "imago.resize.v1(w=400,h=300,mode=fill:0.5:0,filter=lanczos3,upscale=0)")
    #expect(ImageProcessors.ColorControls(brightness: -0.25).identifier.contains("brightness=-0.25"))
    for processor in Self.all where !(processor is DefaultImageProcessor) {
      #expect(processor.identifier.hasPrefix("imago.") && processor.identifier.contains(".v1("))
    }
  }

  @Test func chainIdentifiersJoinMembers() {
    let chain = ImageProcessors.Resize(width: 400) |> ImageProcessors.GaussianBlur(sigma: 2)
    #expect(chain.identifier == "\(ImageProcessors.Resize(width: 400).identifier)|>imago.blur.v1(sigma=2)")
    let longer = chain.appending(ImageProcessors.Grayscale())
    #expect(longer.identifier == chain.identifier + "|>" + ImageProcessors.Grayscale().identifier)
    // Nesting does not change the identifier.
    let nested =
      ImageProcessors.Resize(width: 400) |> (ImageProcessors.GaussianBlur(sigma: 2) |> ImageProcessors.Grayscale())
    #expect(nested.identifier == longer.identifier)
    #expect(DefaultImageProcessor().identifier == "")
  }

  @Test func shorthandBuildsTheSameProcessors() {
    let chain: ImageProcessorChain = .resize(width: 400, height: 300, mode: .fill()) |> .roundCorner(radius: 12)
    #expect(
      chain.identifier
        == (ImageProcessors.Resize(width: 400, height: 300, mode: .fill()) |> ImageProcessors.RoundCorner(radius: 12))
        .identifier)
  }
}
