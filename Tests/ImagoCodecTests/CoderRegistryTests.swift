import Foundation
import Imago
import TestSupport
import Testing

/// A decoder for a made-up format ("IMGO" + width + height + gray bytes), to show custom coders.
struct TinyGrayDecoder: ImageDecoding {
  static let magic = Array("IMGO".utf8)
  func canDecode(_ data: Data) -> Bool { data.starts(with: Self.magic) }
  func info(for data: Data, limits: DecodingLimits) throws -> ImageInfo {
    ImageInfo(format: "imgo", width: Int(data[4]), height: Int(data[5]), hasAlpha: false)
  }
  func decode(_ data: Data, options: DecodingOptions) throws -> DecodedImage {
    let info = try info(for: data, limits: options.limits)
    let pixels = try PixelBuffer(
      width: info.width, height: info.height, format: .gray8, bytes: Array(data.dropFirst(6)))
    return DecodedImage(pixels: pixels, info: info)
  }
}

/// Claims JPEG data ahead of the built-in decoder, to show registration order wins.
struct ClaimsJPEGDecoder: ImageDecoding {
  func canDecode(_ data: Data) -> Bool { ImageFormat.detect(in: data) == .jpeg }
  func info(for data: Data, limits: DecodingLimits) throws -> ImageInfo {
    ImageInfo(format: .jpeg, width: 1, height: 1, hasAlpha: false)
  }
  func decode(_ data: Data, options: DecodingOptions) throws -> DecodedImage {
    DecodedImage(
      pixels: PixelBuffer(width: 1, height: 1, format: .gray8, repeating: [7]),
      info: try info(for: data, limits: options.limits))
  }
}

@Suite struct CoderRegistryTests {
  @Test func customDecoderIsUsedForItsFormat() throws {
    let registry = CoderRegistry.default.registering(decoder: TinyGrayDecoder())
    let data = Data(TinyGrayDecoder.magic + [2, 1, 10, 20])
    let image = try registry.decode(data)
    #expect(image.info.format == "imgo")
    #expect(image.pixels.bytes == [10, 20])
    #expect(throws: ImagoError.unknownFormat) { try CoderRegistry.default.decode(data) }
    // The built-ins still work behind it.
    #expect(try registry.decode(try TestFiles.fixture("wizard.png")).info.format == .png)
  }

  @Test func registeredDecoderGoesAheadOfTheBuiltIns() throws {
    let registry = CoderRegistry.default.registering(decoder: ClaimsJPEGDecoder())
    let image = try registry.decode(try TestFiles.fixture("wizard.jpg"))
    #expect(image.pixels.bytes == [7])
  }

  @Test func encodersAreFoundByFormat() throws {
    #expect(try CoderRegistry.default.encoder(for: .webp).format == .webp)
    #expect(throws: ImagoError.unsupportedFormat(.gif)) { try CoderRegistry.default.encoder(for: .gif) }
    let pixels = TestImages.gradient(width: 8, height: 8)
    for format in [ImageFormat.jpeg, .png, .webp] {
      let data = try CoderRegistry.default.encode(pixels, as: format)
      #expect(ImageFormat.detect(in: data) == format)
    }
  }

  @Test func inputLargerThanTheLimitIsRefused() throws {
    var limits = DecodingLimits.default
    limits.maxInputBytes = 1000
    #expect {
      try CoderRegistry.default.decode(try TestFiles.fixture("wizard.jpg"), options: DecodingOptions(limits: limits))
    } throws: { error in
      if case ImagoError.limitExceeded(.jpeg, _) = error { return true }
      return false
    }
  }
}
