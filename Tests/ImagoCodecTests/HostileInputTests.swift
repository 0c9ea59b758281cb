import Foundation
import Imago
import TestSupport
import Testing

/// Bad bytes end in a typed error or a valid image; never a crash or a hang.
@Suite struct HostileInputTests {
  static let fixtures = [
    "wizard.jpg", "progressive.jpg", "cmyk.jpg", "gray.jpg", "wizard.png", "alpha.png", "lossy.webp", "lossless.webp",
    "alpha.webp", "animated.webp",
  ]

  @Test func randomBytesAreUnknown() {
    for seed in 0..<32 as Range<UInt64> {
      let data = Data(TestImages.randomBytes(count: 4096, seed: seed))
      #expect(throws: ImagoError.self) { try CoderRegistry.default.decode(data) }
    }
  }

  @Test func randomBytesBehindAValidSignature() {
    let signatures: [[UInt8]] = [
      [0xFF, 0xD8, 0xFF], [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A],
      Array("RIFF".utf8) + [0, 0x10, 0, 0] + Array("WEBPVP8 ".utf8),
    ]
    for signature in signatures {
      for seed in 0..<16 as Range<UInt64> {
        let data = Data(signature + TestImages.randomBytes(count: 2048, seed: seed))
        #expect(throws: ImagoError.self) { try CoderRegistry.default.decode(data) }
      }
    }
  }

  @Test(arguments: fixtures)
  func bitFlipsEndInAnErrorOrAnImage(name: String) throws {
    let original = [UInt8](try TestFiles.fixture(name))
    let noise = TestImages.randomBytes(count: 64 * 3, seed: UInt64(name.count))
    for trial in 0..<64 {
      var data = original
      for flip in 0..<3 {
        let position = (Int(noise[trial * 3 + flip]) * 7919 + trial * 104_729) % data.count
        data[position] ^= 1 << (noise[trial * 3 + flip] % 8)
      }
      do {
        let image = try CoderRegistry.default.decode(Data(data))
        #expect(image.pixels.bytes.count >= image.pixels.bytesPerRow * image.pixels.height)
      } catch is ImagoError {
        // A typed error is a correct outcome.
      }
    }
  }

  @Test(arguments: fixtures)
  func infoOfTruncatedFilesNeverCrashes(name: String) throws {
    let data = try TestFiles.fixture(name)
    for length in [0, 1, 2, 3, 8, 12, 16, 20, 24, 30, 33, 40, 64] where length < data.count {
      do {
        let info = try CoderRegistry.default.info(for: Data(data.prefix(length)))
        #expect(info.width > 0 && info.height > 0)
      } catch is ImagoError {}
    }
  }
}
