import Foundation
import Imago
import TestSupport
import Testing

@Suite struct EncoderRoundTripTests {
  static let source = TestImages.gradient(width: 96, height: 64)

  @Test(arguments: [PixelFormat.gray8, .grayAlpha8, .rgb8, .rgba8])
  func pngIsLossless(format: PixelFormat) throws {
    let image = TestImages.gradient(width: 37, height: 23, format: format)
    for level in [0, 6, 9] {
      let data = try PNGEncoder().encode(image, options: EncodingOptions(compressionLevel: level))
      let decoded = try CoderRegistry.default.decode(data)
      #expect(decoded.info.format == .png)
      #expect(decoded.pixels == image)
    }
  }

  @Test func pngFromPremultipliedAlphaStoresStraightAlpha() throws {
    let straight = try PixelBuffer(width: 1, height: 1, format: .rgba8, bytes: [200, 100, 50, 128])
    let data = try PNGEncoder().encode(straight.premultiplied(), options: .default)
    let decoded = try CoderRegistry.default.decode(data).pixels
    #expect(decoded.format == .rgba8)
    #expect(zip(decoded.bytes, straight.bytes).allSatisfy { abs(Int($0) - Int($1)) <= 1 })
  }

  @Test(arguments: [false, true])
  func jpegRoundTripsCloselyAndHonoursProgressive(progressive: Bool) throws {
    let data = try JPEGEncoder().encode(Self.source, options: EncodingOptions(quality: 95, progressive: progressive))
    let decoded = try CoderRegistry.default.decode(data)
    #expect(decoded.info.isProgressive == progressive)
    // The source has sharp blue stripes, which 4:2:0 chroma subsampling blurs.
    #expect(decoded.pixels.psnr(against: Self.source) > 28)
    let fullChroma = try JPEGEncoder().encode(
      Self.source, options: EncodingOptions(quality: 95, progressive: progressive, fullChroma: true))
    #expect(try CoderRegistry.default.decode(fullChroma).pixels.psnr(against: Self.source) > 38)
  }

  @Test func jpegQualityTradesSizeForFidelity() throws {
    let low = try JPEGEncoder().encode(Self.source, options: EncodingOptions(quality: 20))
    let high = try JPEGEncoder().encode(Self.source, options: EncodingOptions(quality: 95))
    #expect(low.count < high.count)
    let lowPSNR = try CoderRegistry.default.decode(low).pixels.psnr(against: Self.source)
    let highPSNR = try CoderRegistry.default.decode(high).pixels.psnr(against: Self.source)
    #expect(lowPSNR < highPSNR)
  }

  @Test func jpegBlendsAlphaOntoTheBackground() throws {
    let transparent = PixelBuffer(width: 16, height: 16, format: .rgba8, repeating: [0, 0, 0, 0])
    let white = try CoderRegistry.default.decode(try JPEGEncoder().encode(transparent, options: .default)).pixels
    #expect(white[pixel: 8, 8].allSatisfy { $0 > 250 })
    let black = try CoderRegistry.default.decode(
      try JPEGEncoder().encode(transparent, options: EncodingOptions(background: .black))
    ).pixels
    #expect(black[pixel: 8, 8].allSatisfy { $0 < 5 })
  }

  @Test func grayJPEGStaysGray() throws {
    let gray = TestImages.gradient(width: 32, height: 32, format: .gray8)
    let decoded = try CoderRegistry.default.decode(try JPEGEncoder().encode(gray, options: .default))
    #expect(decoded.pixels.format == .gray8)
  }

  @Test func webpLosslessIsExact() throws {
    let opaque = TestImages.gradient(width: 50, height: 30)
    let data = try WebPEncoder().encode(opaque, options: EncodingOptions(lossless: true))
    #expect(try CoderRegistry.default.decode(data).pixels == opaque)
    // With alpha (never 0, where libwebp may drop the invisible colour).
    var bytes = [UInt8]()
    for (index, value) in opaque.converted(to: .rgba8).bytes.enumerated() {
      bytes.append(index % 4 == 3 ? UInt8(10 + (index / 4) % 240) : value)
    }
    let translucent = try PixelBuffer(width: 50, height: 30, format: .rgba8, bytes: bytes)
    let alphaData = try WebPEncoder().encode(translucent, options: EncodingOptions(lossless: true))
    #expect(try CoderRegistry.default.decode(alphaData).pixels == translucent)
  }

  @Test func opaqueRGBAComesBackAsRGB() throws {
    let opaque = TestImages.gradient(width: 20, height: 20, format: .rgba8)
    let decoded = try CoderRegistry.default.decode(
      try WebPEncoder().encode(opaque, options: EncodingOptions(lossless: true)))
    #expect(decoded.pixels == opaque.converted(to: .rgb8))
  }

  @Test func webpLossyIsClose() throws {
    let data = try WebPEncoder().encode(Self.source, options: EncodingOptions(quality: 90))
    let decoded = try CoderRegistry.default.decode(data)
    #expect(decoded.info.format == .webp)
    // Lossy WebP is 4:2:0 too, so the sharp blue stripes cost some fidelity.
    #expect(decoded.pixels.psnr(against: Self.source) > 28)
  }

  @Test func grayToWebPBecomesRGB() throws {
    let gray = TestImages.gradient(width: 20, height: 20, format: .gray8)
    let decoded = try CoderRegistry.default.decode(
      try WebPEncoder().encode(gray, options: EncodingOptions(lossless: true)))
    #expect(decoded.pixels == gray.converted(to: .rgb8))
  }

  @Test func invalidEncoderParametersAreTypedErrors() throws {
    #expect(throws: ImagoError.invalidArgument("quality 0 is not in 1...100")) {
      try JPEGEncoder().encode(Self.source, options: EncodingOptions(quality: 0))
    }
    #expect(throws: ImagoError.invalidArgument("PNG compression level 12 is not in 0...9")) {
      try PNGEncoder().encode(Self.source, options: EncodingOptions(compressionLevel: 12))
    }
    let wide = PixelBuffer(width: 17_000, height: 1, format: .gray8, repeating: [0])
    #expect(throws: ImagoError.self) { try WebPEncoder().encode(wide, options: .default) }
  }
}
