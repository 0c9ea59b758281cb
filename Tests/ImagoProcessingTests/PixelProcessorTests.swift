import Foundation
import Imago
import TestSupport
import Testing

@Suite struct PixelProcessorTests {
  static let context = ImageProcessingContext.default

  func run(_ processor: some ImageProcessing, _ image: PixelBuffer) throws -> PixelBuffer {
    try processor.process(.image(image), context: Self.context)
  }

  static let gradient = TestImages.gradient(width: 120, height: 80)

  @Test func cropByRectAndByAnchor() throws {
    let rect = try run(ImageProcessors.Crop(x: 10, y: 20, width: 30, height: 40), Self.gradient)
    #expect(rect.width == 30 && rect.height == 40)
    #expect(rect[pixel: 0, 0] == Self.gradient[pixel: 10, 20])
    #expect(rect[pixel: 29, 39] == Self.gradient[pixel: 39, 59])
    let centre = try run(ImageProcessors.Crop(width: 20, height: 20), Self.gradient)
    #expect(centre[pixel: 0, 0] == Self.gradient[pixel: 50, 30])
    let corner = try run(ImageProcessors.Crop(width: 20, height: 20, anchor: .bottomRight), Self.gradient)
    #expect(corner[pixel: 19, 19] == Self.gradient[pixel: 119, 79])
    // Clipped to the image; entirely outside is an error.
    let clipped = try run(ImageProcessors.Crop(x: 100, y: 70, width: 50, height: 50), Self.gradient)
    #expect(clipped.width == 20 && clipped.height == 10)
    #expect(throws: ImagoError.self) { try run(ImageProcessors.Crop(x: 500, y: 0, width: 5, height: 5), Self.gradient) }
  }

  @Test func roundCornersAreTransparentAndTheMiddleOpaque() throws {
    let image = PixelBuffer(width: 100, height: 60, format: .rgb8, repeating: [10, 200, 30])
    let round = try run(ImageProcessors.RoundCorner(radius: 20), image)
    #expect(round.format == .rgba8)
    for (x, y) in [(0, 0), (99, 0), (0, 59), (99, 59), (2, 2)] { #expect(round[pixel: x, y][3] == 0, "(\(x), \(y))") }
    for (x, y) in [(50, 30), (50, 0), (0, 30), (20, 20)] { #expect(round[pixel: x, y][3] == 255, "(\(x), \(y))") }
    // The edge is antialiased: some partially covered pixels along the arc.
    let partial = (0..<20).flatMap { y in (0..<20).map { round[pixel: $0, y][3] } }.filter { $0 > 0 && $0 < 255 }
    #expect(partial.count >= 10)
    #expect(round[pixel: 50, 30].prefix(3) == [10, 200, 30])
    // Only the chosen corners.
    let one = try run(ImageProcessors.RoundCorner(radius: 20, corners: [.topLeft]), image)
    #expect(one[pixel: 0, 0][3] == 0 && one[pixel: 99, 0][3] == 255 && one[pixel: 99, 59][3] == 255)
  }

  @Test(arguments: [0.8, 3, 12, 40])
  func blurPreservesTheMean(sigma: Double) throws {
    let blurred = try run(ImageProcessors.GaussianBlur(sigma: sigma), Self.gradient)
    for (before, after) in zip(Self.gradient.channelMeans(), blurred.channelMeans()) {
      #expect(abs(before - after) < 0.5, "sigma \(sigma)")
    }
    // And it blurs: the sharp diagonal stripes lose contrast.
    #expect(blurred.psnr(against: Self.gradient) < 40)
  }

  @Test func blurOfASolidImageIsThatSolidImage() throws {
    let solid = PixelBuffer(width: 50, height: 50, format: .rgba8, repeating: [90, 80, 70, 255])
    for sigma in [1.0, 20.0] { #expect(try run(ImageProcessors.GaussianBlur(sigma: sigma), solid) == solid) }
  }

  @Test func largeSigmaApproximationIsCloseToTheExactKernel() throws {
    // Sigma 8 is exact, 8.01 takes the box path: the two must look nearly the same.
    let exact = try run(ImageProcessors.GaussianBlur(sigma: 8), Self.gradient)
    let boxes = try run(ImageProcessors.GaussianBlur(sigma: 8.01), Self.gradient)
    #expect(exact.psnr(against: boxes) > 35)
  }

  @Test func sharpenRaisesEdgeContrastAndLeavesFlatAreas() throws {
    var bytes = [UInt8]()
    for _ in 0..<20 { for x in 0..<40 { bytes.append(x < 20 ? 100 : 150) } }
    let edge = try PixelBuffer(width: 40, height: 20, format: .gray8, bytes: bytes)
    let sharp = try run(ImageProcessors.Sharpen(amount: 1, sigma: 1), edge)
    #expect(sharp[pixel: 19, 10][0] < 100)
    #expect(sharp[pixel: 20, 10][0] > 150)
    #expect(sharp[pixel: 5, 10][0] == 100 && sharp[pixel: 35, 10][0] == 150)
    // Differences under the threshold are left alone.
    let gentle = try run(ImageProcessors.Sharpen(amount: 1, sigma: 1, threshold: 60), edge)
    #expect(gentle == edge)
  }

  @Test func tintBlendsTowardTheColour() throws {
    let gray = PixelBuffer(width: 4, height: 4, format: .gray8, repeating: [100])
    let full = try run(ImageProcessors.Tint(colour: RGBAColor(red: 255, green: 0, blue: 0), fraction: 1), gray)
    #expect(full.format == .rgb8 && full[pixel: 1, 1] == [255, 0, 0])
    let half = try run(ImageProcessors.Tint(colour: RGBAColor(red: 200, green: 0, blue: 0), fraction: 0.5), gray)
    #expect(half[pixel: 1, 1].map(Int.init).enumerated().allSatisfy { abs($1 - [150, 50, 50][$0]) <= 1 })
    let alpha = PixelBuffer(width: 2, height: 2, format: .rgba8, repeating: [0, 0, 0, 77])
    #expect(try run(ImageProcessors.Tint(colour: .white, fraction: 1), alpha)[pixel: 0, 0] == [255, 255, 255, 77])
  }

  @Test func colorControls() throws {
    let colour = PixelBuffer(width: 3, height: 3, format: .rgb8, repeating: [200, 100, 50])
    let gray = try run(ImageProcessors.ColorControls(saturation: 0), colour)[pixel: 1, 1]
    #expect(gray[0] == gray[1] && gray[1] == gray[2])
    #expect(gray[0] == PixelMathProbe.luma(200, 100, 50))
    #expect(try run(ImageProcessors.ColorControls(brightness: 0.2), colour)[pixel: 0, 0] == [251, 151, 101])
    #expect(try run(ImageProcessors.ColorControls(contrast: 0), colour)[pixel: 0, 0] == [128, 128, 128])
    #expect(try run(ImageProcessors.ColorControls(), colour) == colour)
  }

  @Test func grayscaleKeepsAlpha() throws {
    #expect(try run(ImageProcessors.Grayscale(), Self.gradient).format == .gray8)
    let rgba = PixelBuffer(width: 2, height: 2, format: .rgba8, repeating: [255, 0, 0, 100])
    let result = try run(ImageProcessors.Grayscale(), rgba)
    #expect(result.format == .grayAlpha8 && result[pixel: 0, 0] == [PixelMathProbe.luma(255, 0, 0), 100])
  }

  @Test func borderPaintsTheEdgesOnly() throws {
    let image = PixelBuffer(width: 20, height: 10, format: .rgb8, repeating: [0, 0, 255])
    let bordered = try run(ImageProcessors.Border(width: 2, colour: RGBAColor(red: 255, green: 255, blue: 0)), image)
    #expect(bordered.width == 20 && bordered.height == 10)
    for (x, y) in [(0, 0), (1, 5), (19, 9), (10, 8)] { #expect(bordered[pixel: x, y] == [255, 255, 0]) }
    for (x, y) in [(2, 2), (10, 5), (17, 7)] { #expect(bordered[pixel: x, y] == [0, 0, 255]) }
    let translucent = try run(
      ImageProcessors.Border(width: 1, colour: RGBAColor(red: 255, green: 0, blue: 0, alpha: 128)), image)
    #expect(translucent[pixel: 0, 0].map(Int.init).enumerated().allSatisfy { abs($1 - [128, 0, 127][$0]) <= 1 })
  }

  @Test func rotateAndFlipAreExact() throws {
    let image = try PixelBuffer(width: 3, height: 2, format: .gray8, bytes: [0, 1, 2, 3, 4, 5])
    #expect(try run(ImageProcessors.Rotate(.degrees90), image).bytes == [3, 0, 4, 1, 5, 2])
    #expect(try run(ImageProcessors.Rotate(.degrees180), image).bytes == [5, 4, 3, 2, 1, 0])
    #expect(try run(ImageProcessors.Rotate(.degrees270), image).bytes == [2, 5, 1, 4, 0, 3])
    #expect(try run(ImageProcessors.Flip(.horizontal), image).bytes == [2, 1, 0, 5, 4, 3])
    #expect(try run(ImageProcessors.Flip(.vertical), image).bytes == [3, 4, 5, 0, 1, 2])
    #expect(try run(ImageProcessors.Orientation(.leftMirrored), image).bytes == [0, 3, 1, 4, 2, 5])
    let fourTurns =
      ImageProcessors.Rotate(.degrees90) |> ImageProcessors.Rotate(.degrees90)
      |> ImageProcessors.Rotate(.degrees180)
    #expect(try run(fourTurns, image) == image)
  }

  @Test func chainsRunInOrder() throws {
    let cropThenResize = ImageProcessors.Crop(x: 0, y: 0, width: 60, height: 40) |> ImageProcessors.Resize(width: 30)
    let resizeThenCrop = ImageProcessors.Resize(width: 30) |> ImageProcessors.Crop(x: 0, y: 0, width: 60, height: 40)
    let a = try run(cropThenResize, Self.gradient)
    let b = try run(resizeThenCrop, Self.gradient)
    #expect(a.width == 30 && a.height == 20)
    #expect(b.width == 30 && b.height == 20)
    #expect(a != b)
    // The chain equals applying its members one after another.
    let manual = try run(
      ImageProcessors.Resize(width: 30), try run(ImageProcessors.Crop(x: 0, y: 0, width: 60, height: 40), Self.gradient)
    )
    #expect(a == manual)
  }

  @Test func onlyTheFirstProcessorSeesData() throws {
    let jpeg = try JPEGEncoder().encode(TestImages.gradient(width: 800, height: 800), options: .default)
    let chain = DownsamplingImageProcessor(size: PixelSize(width: 100, height: 100)) |> ImageProcessors.Grayscale()
    let result = try chain.process(.data(jpeg), context: Self.context)
    // Decoded at 1/8 (100x100), then made gray.
    #expect(result.width == 100 && result.height == 100 && result.format == .gray8)
    #expect(try DefaultImageProcessor().process(.data(jpeg), context: Self.context).width == 800)
  }
}

/// The BT.601 luma Imago uses, restated here so the test checks a number, not the code itself.
enum PixelMathProbe {
  static func luma(_ r: Int, _ g: Int, _ b: Int) -> UInt8 { UInt8((77 * r + 150 * g + 29 * b + 128) >> 8) }
}
