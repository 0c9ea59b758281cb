import Foundation
import Imago
import TestSupport
import Testing

@Suite struct PNGDecoderTests {
  @Test func aPNGClaiming100000PixelsSquareIsRefusedBeforeAllocating() throws {
    let data = TestImages.png(width: 100_000, height: 100_000, idat: [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])
    #expect(throws: ImagoError.tooLarge(width: 100_000, height: 100_000, limit: "the maximum side of 65535 pixels")) {
      try CoderRegistry.default.decode(data)
    }
    // The header alone can still be read.
    let info = try CoderRegistry.default.info(for: data)
    #expect(info.width == 100_000 && info.height == 100_000)
  }

  @Test func pixelLimitWithinTheSideLimit() throws {
    let data = TestImages.png(width: 20_000, height: 20_000, idat: [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])
    #expect(throws: ImagoError.tooLarge(width: 20_000, height: 20_000, limit: "the limit of 100000000 pixels")) {
      try CoderRegistry.default.decode(data)
    }
  }

  @Test func reducesRowsWhileReadingForATarget() throws {
    let source = TestImages.gradient(width: 1000, height: 600, format: .rgba8)
    let png = try PNGEncoder().encode(source, options: EncodingOptions(compressionLevel: 1))
    let image = try PNGDecoder().decode(png, options: DecodingOptions(targetSize: PixelSize(width: 200, height: 100)))
    // Factor 5 is the largest that still covers 200x100 (6 would give 167 columns).
    #expect(image.pixels.width == 200 && image.pixels.height == 120)
    let reference = try source.resized(to: PixelSize(width: 200, height: 120), filter: .bilinear)
    #expect(image.pixels.psnr(against: reference) > 30)
  }

  @Test func boxReductionWeighsColourByAlpha() throws {
    // Alternating opaque red and fully transparent black pixels: the average is half-transparent
    // pure red, not a dark red.
    var bytes = [UInt8]()
    for y in 0..<64 {
      for x in 0..<64 { bytes += (x + y) % 2 == 0 ? [255, 0, 0, 255] : [0, 0, 0, 0] }
    }
    let source = try PixelBuffer(width: 64, height: 64, format: .rgba8, bytes: bytes)
    let png = try PNGEncoder().encode(source, options: .default)
    let image = try PNGDecoder().decode(png, options: DecodingOptions(targetSize: PixelSize(width: 8, height: 8)))
    #expect(image.pixels.width == 8)
    #expect(image.pixels[pixel: 3, 3] == [255, 0, 0, 128])
  }

  @Test func interlacedPNGWithATargetDecodesAtFullSize() throws {
    let source = TestImages.gradient(width: 300, height: 200)
    let png = try PNGEncoder().encode(source, options: EncodingOptions(progressive: true))
    let image = try PNGDecoder().decode(png, options: DecodingOptions(targetSize: PixelSize(width: 30, height: 20)))
    #expect(image.info.isProgressive)
    #expect(image.pixels == source)
  }

  @Test func truncatedPNGIsAnErrorAtEveryCut() throws {
    let data = try TestFiles.fixture("wizard.png")
    for sixteenth in 1..<16 {
      let cut = Data(data.prefix(data.count * sixteenth / 16))
      #expect(throws: ImagoError.self, "cut at \(sixteenth)/16") { try CoderRegistry.default.decode(cut) }
    }
    #expect {
      try CoderRegistry.default.decode(Data(data.prefix(data.count / 2)))
    } throws: { error in
      if case ImagoError.truncatedData(.png, _) = error { return true }
      return false
    }
  }

  @Test func animatedPNGReportsItsFrames() throws {
    let still = [UInt8](try PNGEncoder().encode(TestImages.gradient(width: 8, height: 8), options: .default))
    // Insert an acTL chunk (3 frames, loop forever) right after IHDR (8 + 25 bytes).
    let actl = TestImages.chunk("acTL", TestImages.bigEndian(3) + TestImages.bigEndian(0))
    let animated = Data(still[0..<33] + actl + still[33...])
    #expect(try CoderRegistry.default.info(for: animated).frameCount == 3)
    #expect(try CoderRegistry.default.info(for: Data(still)).frameCount == 1)
  }

  @Test func overLimitAncillaryChunkIsSkippedNotFatal() throws {
    var limits = DecodingLimits.default
    limits.maxPNGChunkBytes = 1024
    let text = Array("Comment".utf8) + [0] + [UInt8](repeating: 0x41, count: 4096)
    let still = [UInt8](try PNGEncoder().encode(TestImages.gradient(width: 8, height: 8), options: .default))
    let withText = Data(still[0..<33] + TestImages.chunk("zTXt", text) + still[33...])
    // libpng treats an over-limit ancillary chunk as a benign error: it is skipped, never
    // held in memory whole, and the image still decodes.
    let image = try PNGDecoder().decode(withText, options: DecodingOptions(limits: limits))
    #expect(image.pixels == TestImages.gradient(width: 8, height: 8))
  }
}
