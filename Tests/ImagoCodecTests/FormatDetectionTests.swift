import Foundation
import Imago
import Testing

@Suite struct FormatDetectionTests {
  static let samples: [(String, [UInt8], ImageFormat)] = [
    ("jpeg", [0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10], .jpeg),
    ("png", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0], .png),
    ("webp", Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBPVP8 ".utf8), .webp),
    ("gif", Array("GIF89a".utf8) + [1, 0, 1, 0], .gif),
    ("bmp", Array("BM".utf8) + [UInt8](repeating: 0, count: 20), .bmp),
    ("tiff", [0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0], .tiff),
    ("heif", [0, 0, 0, 0x18] + Array("ftypheic".utf8) + [0, 0, 0, 0], .heif),
    ("avif", [0, 0, 0, 0x1C] + Array("ftypavif".utf8) + [0, 0, 0, 0], .avif),
  ]

  @Test(arguments: samples.map(\.0))
  func recognisesMagicBytes(name: String) {
    let sample = Self.samples.first { $0.0 == name }!
    #expect(ImageFormat.detect(in: sample.1) == sample.2)
  }

  @Test(arguments: ["gif", "bmp", "tiff", "heif", "avif"])
  func unsupportedFormatsSayWhichFormat(name: String) {
    let sample = Self.samples.first { $0.0 == name }!
    #expect(throws: ImagoError.unsupportedFormat(sample.2)) { try CoderRegistry.default.decode(Data(sample.1)) }
    #expect(ImagoError.unsupportedFormat(sample.2).description == "unsupported format: \(name)")
  }

  @Test func unknownAndEmptyData() {
    #expect(ImageFormat.detect(in: Array("hello, world".utf8)) == nil)
    #expect(throws: ImagoError.unknownFormat) { try CoderRegistry.default.decode(Data("hello, world".utf8)) }
    #expect(throws: ImagoError.emptyData) { try CoderRegistry.default.decode(Data()) }
    #expect(throws: ImagoError.emptyData) { try CoderRegistry.default.info(for: Data()) }
  }

  @Test func fileExtensions() {
    #expect(ImageFormat(fileExtension: "JPG") == .jpeg)
    #expect(ImageFormat(fileExtension: "webp") == .webp)
    #expect(ImageFormat(fileExtension: "txt") == nil)
    #expect(ImageFormat.jpeg.fileExtension == "jpg")
  }
}
