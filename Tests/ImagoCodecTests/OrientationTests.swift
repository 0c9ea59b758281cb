import Foundation
import Imago
import TestSupport
import Testing

/// The orientation fixtures all show the same 48x32 picture once their EXIF orientation is
/// applied: red top-left, green top-right, blue bottom-left, yellow bottom-right.
@Suite struct OrientationTests {
  static func expectQuadrants(_ image: PixelBuffer, tolerance: Int, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(image.width == 48 && image.height == 32, sourceLocation: sourceLocation)
    guard image.width == 48 && image.height == 32 else { return }
    let rgb = image.converted(to: .rgb8)
    let expectations: [(x: Int, y: Int, colour: [Int])] = [
      (12, 8, [255, 0, 0]), (36, 8, [0, 255, 0]), (12, 24, [0, 0, 255]), (36, 24, [255, 255, 0]),
    ]
    for (x, y, colour) in expectations {
      let actual = rgb[pixel: x, y].map(Int.init)
      let close = zip(actual, colour).allSatisfy { abs($0 - $1) <= tolerance }
      #expect(close, "pixel (\(x), \(y)) is \(actual), expected \(colour)", sourceLocation: sourceLocation)
    }
  }

  @Test(arguments: 1...8)
  func jpegOrientationIsApplied(value: Int) throws {
    let data = try TestFiles.fixture("orientation-\(value).jpg")
    let image = try CoderRegistry.default.decode(data)
    #expect(image.info.orientation.rawValue == value)
    Self.expectQuadrants(image.pixels, tolerance: 12)
  }

  @Test(arguments: ["orientation-6.png", "orientation-6.webp"])
  func pngAndWebPOrientationIsApplied(name: String) throws {
    let image = try CoderRegistry.default.decode(try TestFiles.fixture(name))
    #expect(image.info.orientation == .right)
    #expect(image.info.width == 32 && image.info.height == 48)
    Self.expectQuadrants(image.pixels, tolerance: 0)
  }

  @Test func orientationCanBeLeftAlone() throws {
    let data = try TestFiles.fixture("orientation-6.jpg")
    let image = try CoderRegistry.default.decode(data, options: DecodingOptions(appliesOrientation: false))
    #expect(image.pixels.width == 32 && image.pixels.height == 48)
  }

  @Test func targetSizeIsInDisplayedOrientation() throws {
    // Stored 32x48, displayed 48x32: asking for 24x16 displayed means 16x24 stored, a half.
    let image = try CoderRegistry.default.decode(
      try TestFiles.fixture("orientation-6.jpg"), options: DecodingOptions(targetSize: PixelSize(width: 24, height: 16))
    )
    #expect(image.pixels.width == 24 && image.pixels.height == 16)
  }

  @Test func everyOrientationMatchesItsDefinition() throws {
    // A 3x2 gray image whose values are their own indices: 0 1 2 / 3 4 5.
    let stored = try PixelBuffer(width: 3, height: 2, format: .gray8, bytes: [0, 1, 2, 3, 4, 5])
    let expected: [ImageOrientation: (Int, Int, [UInt8])] = [
      .up: (3, 2, [0, 1, 2, 3, 4, 5]),
      .upMirrored: (3, 2, [2, 1, 0, 5, 4, 3]),
      .down: (3, 2, [5, 4, 3, 2, 1, 0]),
      .downMirrored: (3, 2, [3, 4, 5, 0, 1, 2]),
      .leftMirrored: (2, 3, [0, 3, 1, 4, 2, 5]),
      .right: (2, 3, [3, 0, 4, 1, 5, 2]),
      .rightMirrored: (2, 3, [5, 2, 4, 1, 3, 0]),
      .left: (2, 3, [2, 5, 1, 4, 0, 3]),
    ]
    for orientation in ImageOrientation.allCases {
      let result = stored.oriented(orientation)
      let (width, height, bytes) = expected[orientation]!
      #expect(result.width == width && result.height == height && result.bytes == bytes, "\(orientation)")
    }
  }

  @Test func malformedEXIFIsIgnored() throws {
    // An APP1 "Exif" marker whose IFD offset points far outside the data.
    var jpeg = [UInt8](try TestFiles.fixture("wizard.jpg"))
    let exif: [UInt8] = Array("Exif".utf8) + [0, 0] + [0x49, 0x49, 42, 0, 0xFF, 0xFF, 0xFF, 0x7F]
    let length = exif.count + 2
    jpeg.insert(contentsOf: [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + exif, at: 2)
    let info = try CoderRegistry.default.info(for: Data(jpeg))
    #expect(info.orientation == .up)
  }
}
