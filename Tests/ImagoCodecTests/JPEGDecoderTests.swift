import Foundation
import Imago
import TestSupport
import Testing

@Suite struct JPEGDecoderTests {
  /// A 5120x2880 JPEG made by our own encoder from a smooth gradient.
  static let large: Data = try! JPEGEncoder().encode(
    TestImages.gradient(width: 5120, height: 2880), options: EncodingOptions(quality: 80))

  @Test func thumbnailOfA5KPhotoDecodesAtOneEighth() throws {
    let image = try JPEGDecoder().decode(
      Self.large, options: DecodingOptions(targetSize: PixelSize(width: 400, height: 225)))
    #expect(image.pixels.width == 640)
    #expect(image.pixels.height == 360)
    #expect(image.info.width == 5120 && image.info.height == 2880)
  }

  @Test(arguments: [(640, 640, 360), (700, 1280, 720), (6000, 5120, 2880)])
  func maxPixelSizeBoundsTheLongerSide(bound: (Int, Int, Int)) throws {
    let image = try JPEGDecoder().decode(Self.large, options: DecodingOptions(maxPixelSize: bound.0))
    #expect(image.pixels.width == bound.1 && image.pixels.height == bound.2)
  }

  static let medium: Data = try! JPEGEncoder().encode(
    TestImages.gradient(width: 2560, height: 1440), options: .default)

  /// (target width, target height, expected width, expected height) for a 2560x1440 JPEG.
  @Test(arguments: [
    (1300, 700, 2560, 1440),  // more than a half: full size
    (1280, 720, 1280, 720),  // exactly a half
    (650, 350, 1280, 720),  // more than a quarter: a half
    (640, 360, 640, 360),  // exactly a quarter
    (350, 150, 640, 360),
    (320, 180, 320, 180),  // an eighth, the smallest scale
    (5, 5, 320, 180),
  ])
  func choosesTheSmallestScaleThatCovers(target: (Int, Int, Int, Int)) throws {
    let image = try JPEGDecoder().decode(
      Self.medium, options: DecodingOptions(targetSize: PixelSize(width: target.0, height: target.1)))
    #expect(image.pixels.width == target.2)
    #expect(image.pixels.height == target.3)
  }

  @Test func fullDecodeWithoutTarget() throws {
    let image = try JPEGDecoder().decode(try TestFiles.fixture("wizard.jpg"), options: .default)
    #expect(image.pixels.width == 640 && image.pixels.height == 480)
    #expect(image.pixels.format == .rgb8)
    #expect(image.info.isProgressive == false)
  }

  @Test func progressiveJPEGMatchesBaseline() throws {
    let progressive = try JPEGDecoder().decode(try TestFiles.fixture("progressive.jpg"), options: .default)
    #expect(progressive.info.isProgressive)
    let gray = try JPEGDecoder().decode(try TestFiles.fixture("gray.jpg"), options: .default)
    #expect(gray.pixels.format == .gray8)
    // Same picture, same quality: the luma of the colour file is close to the gray file.
    let luma = progressive.pixels.converted(to: .gray8)
    #expect(luma.psnr(against: gray.pixels) > 30)
  }

  @Test func cmykJPEGComesOutAsRGB() throws {
    let image = try JPEGDecoder().decode(try TestFiles.fixture("cmyk.jpg"), options: .default)
    #expect(image.pixels.format == .rgb8)
    OrientationTests.expectQuadrants(image.pixels, tolerance: 24)
  }

  @Test func progressiveScanLimitIsEnforced() throws {
    let progressive = try TestFiles.fixture("progressive.jpg")
    var limits = DecodingLimits.default
    limits.maxProgressiveScans = 3
    #expect {
      try JPEGDecoder().decode(progressive, options: DecodingOptions(limits: limits))
    } throws: { error in
      guard case ImagoError.limitExceeded(.jpeg, let message) = error else { return false }
      return message.contains("more than 3 scans")
    }
  }

  @Test func truncatedJPEGIsAnErrorAtEveryCut() throws {
    let data = try TestFiles.fixture("wizard.jpg")
    for sixteenth in 1..<16 {
      let cut = data.prefix(data.count * sixteenth / 16)
      #expect(throws: ImagoError.self, "cut at \(sixteenth)/16") {
        try CoderRegistry.default.decode(Data(cut))
      }
    }
  }

  @Test func truncatedJPEGSaysTruncated() throws {
    let data = try TestFiles.fixture("wizard.jpg")
    #expect {
      try CoderRegistry.default.decode(Data(data.prefix(data.count / 2)))
    } throws: { error in
      if case ImagoError.truncatedData(.jpeg, _) = error { return true }
      return false
    }
  }

  @Test func pixelLimitIsCheckedBeforeDecoding() throws {
    var limits = DecodingLimits.default
    limits.maxPixels = 1_000_000
    #expect(throws: ImagoError.tooLarge(width: 5120, height: 2880, limit: "the limit of 1000000 pixels")) {
      try JPEGDecoder().decode(
        Self.large, options: DecodingOptions(targetSize: PixelSize(width: 10, height: 10), limits: limits))
    }
  }
}
