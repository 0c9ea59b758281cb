import Foundation
import Imago
import TestSupport
import Testing

@Suite struct WebPDecoderTests {
  @Test(arguments: ["lossy.webp", "lossless.webp"])
  func decodesOpaqueWebP(name: String) throws {
    let image = try CoderRegistry.default.decode(try TestFiles.fixture(name))
    #expect(image.pixels.format == .rgb8)
    #expect(image.pixels.width == 160 && image.pixels.height == 120)
    // Both files were made from the same picture as gray.jpg: their luma agrees.
    let gray = try CoderRegistry.default.decode(try TestFiles.fixture("gray.jpg")).pixels
    #expect(image.pixels.converted(to: .gray8).psnr(against: gray) > 28)
  }

  @Test func decodesAlpha() throws {
    let image = try CoderRegistry.default.decode(try TestFiles.fixture("alpha.webp"))
    let png = try CoderRegistry.default.decode(try TestFiles.fixture("alpha.png"))
    #expect(image.pixels.format == .rgba8)
    #expect(image.info.hasAlpha)
    // The alpha ramp runs from transparent on the left to opaque on the right.
    #expect(image.pixels[pixel: 2, 60][3] < 15)
    #expect(image.pixels[pixel: 157, 60][3] > 240)
    let alphaWebP = image.pixels.bytes.enumerated().filter { $0.offset % 4 == 3 }.map { Int($0.element) }
    let alphaPNG = png.pixels.bytes.enumerated().filter { $0.offset % 4 == 3 }.map { Int($0.element) }
    #expect(zip(alphaWebP, alphaPNG).allSatisfy { abs($0 - $1) <= 2 })
  }

  @Test func scalesWhileDecoding() throws {
    let image = try CoderRegistry.default.decode(
      try TestFiles.fixture("lossless.webp"), options: DecodingOptions(targetSize: PixelSize(width: 40, height: 20)))
    // Covers 40x20 with the 4:3 aspect ratio kept.
    #expect(image.pixels.width == 40 && image.pixels.height == 30)
  }

  @Test func animatedWebPDecodesItsFirstFrame() throws {
    let data = try TestFiles.fixture("animated.webp")
    let info = try CoderRegistry.default.info(for: data)
    #expect(info.frameCount == 3)
    let image = try CoderRegistry.default.decode(data)
    #expect(image.pixels.width == 40 && image.pixels.height == 30)
    #expect(image.pixels[pixel: 20, 15].prefix(3) == [255, 0, 0])
  }

  @Test func truncatedWebPIsAnErrorAtEveryCut() throws {
    for name in ["lossy.webp", "lossless.webp", "alpha.webp", "animated.webp"] {
      let data = try TestFiles.fixture(name)
      for sixteenth in 1..<16 {
        let cut = Data(data.prefix(data.count * sixteenth / 16))
        #expect(throws: ImagoError.self, "\(name) cut at \(sixteenth)/16") { try CoderRegistry.default.decode(cut) }
      }
    }
  }
}
