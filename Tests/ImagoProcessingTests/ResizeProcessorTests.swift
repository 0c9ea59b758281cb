import Foundation
import Imago
import TestSupport
import Testing

@Suite struct ResizeProcessorTests {
  static let context = ImageProcessingContext.default

  /// A 300x200 image: a 100x100 red square in the middle of a blue field.
  static let target: PixelBuffer = {
    var bytes = [UInt8]()
    for y in 0..<200 {
      for x in 0..<300 { bytes += (100..<200).contains(x) && (50..<150).contains(y) ? [255, 0, 0] : [0, 0, 255] }
    }
    return try! PixelBuffer(width: 300, height: 200, format: .rgb8, bytes: bytes)
  }()

  func run(_ processor: some ImageProcessing, _ image: PixelBuffer = target) throws -> PixelBuffer {
    try processor.process(.image(image), context: Self.context)
  }

  @Test func fitNeverExceedsTheBox() throws {
    for (w, h) in [(100, 100), (150, 30), (299, 199), (17, 300), (1, 1)] {
      let result = try run(ImageProcessors.Resize(width: w, height: h))
      #expect(result.width <= w && result.height <= h)
      #expect(result.width == w || result.height == h, "one side meets the box at \(w)x\(h)")
    }
  }

  @Test func widthOrHeightAloneKeepsTheAspectRatio() throws {
    let wide = try run(ImageProcessors.Resize(width: 150))
    #expect(wide.width == 150 && wide.height == 100)
    let tall = try run(ImageProcessors.Resize(height: 50))
    #expect(tall.width == 75 && tall.height == 50)
  }

  @Test func fillCoversTheBoxAndKeepsTheCentre() throws {
    // A 100x100 fill of a 300x200 image keeps the middle 200x200, scaled by half: the red square
    // (the middle 100x100) becomes the middle 50x50 of the output.
    let square = try run(ImageProcessors.Resize(width: 100, height: 100, mode: .fill()))
    #expect(square.width == 100 && square.height == 100)
    #expect(square[pixel: 50, 50] == [255, 0, 0])
    #expect(square[pixel: 5, 50] == [0, 0, 255])
    #expect(square[pixel: 30, 50] == [255, 0, 0])
  }

  @Test func fillAnchorChoosesWhatIsKept() throws {
    // Anchored left, the kept 200x200 starts at x=0: the red square spans x 100..<200 -> 50..<100.
    let left = try run(ImageProcessors.Resize(width: 100, height: 100, mode: .fill(.left)))
    #expect(left[pixel: 10, 50] == [0, 0, 255])
    #expect(left[pixel: 75, 50] == [255, 0, 0])
  }

  @Test func stretchGivesExactlyTheBox() throws {
    let result = try run(ImageProcessors.Resize(width: 90, height: 120, mode: .stretch))
    #expect(result.width == 90 && result.height == 120)
  }

  @Test func neverUpscalesUnlessAsked() throws {
    #expect(try run(ImageProcessors.Resize(width: 600)).width == 300)
    #expect(try run(ImageProcessors.Resize(width: 600, height: 600, mode: .stretch)).height == 200)
    // Fill without enlarging: the box's 400x100 is cut to the 300 px the image has, at scale 1.
    let fill = try run(ImageProcessors.Resize(width: 400, height: 100, mode: .fill()))
    #expect(fill.width == 300 && fill.height == 100)
    #expect(fill[pixel: 150, 50] == [255, 0, 0])
    let up = try run(ImageProcessors.Resize(width: 600, allowsUpscaling: true))
    #expect(up.width == 600 && up.height == 400)
  }

  @Test(arguments: ResamplingFilter.allCases)
  func solidColourStaysSolidInEveryMode(filter: ResamplingFilter) throws {
    let solid = PixelBuffer(width: 123, height: 77, format: .rgb8, repeating: [200, 30, 90])
    let modes: [ImageProcessors.Resize.ContentMode] = [.fit, .fill(), .fill(.bottomRight), .stretch]
    for mode in modes {
      let result = try run(ImageProcessors.Resize(width: 50, height: 40, mode: mode, filter: filter), solid)
      #expect(
        Set(stride(from: 0, to: result.bytes.count, by: 3).map { Array(result.bytes[$0..<$0 + 3]) }) == [[200, 30, 90]])
    }
  }

  @Test func fromDataShrinksOnLoadAndGivesTheSameSizeAsFromPixels() throws {
    let jpeg = try JPEGEncoder().encode(TestImages.gradient(width: 2000, height: 1000), options: .default)
    let resize = ImageProcessors.Resize(width: 333)
    let fromData = try resize.process(.data(jpeg), context: Self.context)
    let fromPixels = try resize.process(.image(try CoderRegistry.default.decode(jpeg).pixels), context: Self.context)
    #expect(fromData.width == 333 && fromData.height == 167)
    #expect(fromPixels.width == 333 && fromPixels.height == 167)
    #expect(fromData.psnr(against: fromPixels) > 35)
    // It asked the decoder for 1/4 scale (500x250 covers 333x167).
    #expect(resize.decodingTarget(for: PixelSize(width: 2000, height: 1000)) == PixelSize(width: 333, height: 167))
  }

  @Test func fillFromDataMapsTheCropOntoTheShrunkImage() throws {
    let png = try PNGEncoder().encode(Self.target, options: .default)
    let resize = ImageProcessors.Resize(width: 50, height: 50, mode: .fill())
    let result = try resize.process(.data(png), context: Self.context)
    #expect(result.width == 50 && result.height == 50)
    #expect(result[pixel: 25, 25] == [255, 0, 0])
    #expect(result[pixel: 2, 25] == [0, 0, 255])
  }

  @Test func upscalingCannotExceedThePixelLimit() {
    // A hostile op string must not make the server allocate gigabytes.
    #expect(throws: ImagoError.tooLarge(width: 20_000, height: 20_000, limit: "the limit of 100000000 pixels")) {
      try run(ImageProcessors.Resize(width: 20_000, height: 20_000, mode: .stretch, allowsUpscaling: true))
    }
    var limits = DecodingLimits.default
    limits.maxPixels = 10_000
    let context = ImageProcessingContext(decodingOptions: DecodingOptions(limits: limits))
    #expect(throws: ImagoError.self) {
      try ImageProcessors.Resize(width: 200, height: 200, mode: .stretch, allowsUpscaling: true)
        .process(.image(Self.target), context: context)
    }
  }

  @Test func invalidParametersAreTypedErrors() {
    #expect(throws: ImagoError.self) { try run(ImageProcessors.Resize()) }
    #expect(throws: ImagoError.self) { try run(ImageProcessors.Resize(width: 0)) }
    #expect(throws: ImagoError.self) { try run(ImageProcessors.Resize(width: -5, height: 3)) }
  }
}
