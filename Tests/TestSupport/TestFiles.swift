import Foundation
import Imago

/// Where the committed fixtures and the shared corpora are, found from this file's path.
public enum TestFiles {
  public static let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  public static let fixtures = repositoryRoot.appendingPathComponent("Fixtures")

  /// PngSuite: `IMAGO_PNGSUITE`, or `../shared/corpus/pngsuite` beside the repository.
  public static let pngSuite: URL = {
    if let path = ProcessInfo.processInfo.environment["IMAGO_PNGSUITE"] { return URL(fileURLWithPath: path) }
    return repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus/pngsuite")
  }()

  public static func fixture(_ name: String) throws -> Data {
    try Data(contentsOf: fixtures.appendingPathComponent(name))
  }

  /// A fresh, empty temporary directory.
  public static func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("imago-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }
}

/// Synthetic images and hand-built files for tests.
public enum TestImages {
  /// A smooth RGB gradient with a diagonal stripe, so that scaling and orientation are visible.
  public static func gradient(width: Int, height: Int, format: PixelFormat = .rgb8) -> PixelBuffer {
    let rgb = PixelBuffer(width: width, height: height, format: .rgb8) { output in
      var index = 0
      for y in 0..<height {
        for x in 0..<width {
          output[index] = UInt8(x * 255 / max(1, width - 1))
          output[index + 1] = UInt8(y * 255 / max(1, height - 1))
          output[index + 2] = (x + y) % 64 < 32 ? 200 : 40
          index += 3
        }
      }
    }
    return rgb.converted(to: format)
  }

  /// A PNG file from raw chunks: signature, IHDR with the given fields, the given IDAT payload, IEND.
  public static func png(
    width: UInt32, height: UInt32, bitDepth: UInt8 = 8, colorType: UInt8 = 2, interlace: UInt8 = 0,
    idat: [UInt8], extraChunks: [(String, [UInt8])] = []
  ) -> Data {
    var data: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    let ihdr = bigEndian(width) + bigEndian(height) + [bitDepth, colorType, 0, 0, interlace]
    data += chunk("IHDR", ihdr)
    for (type, payload) in extraChunks { data += chunk(type, payload) }
    data += chunk("IDAT", idat)
    data += chunk("IEND", [])
    return Data(data)
  }

  public static func chunk(_ type: String, _ payload: [UInt8]) -> [UInt8] {
    let typed = Array(type.utf8) + payload
    return bigEndian(UInt32(payload.count)) + typed + bigEndian(crc32(typed))
  }

  public static func bigEndian(_ value: UInt32) -> [UInt8] {
    [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
  }

  /// CRC-32 as PNG and zlib use it (polynomial 0xEDB88320).
  public static func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
  }

  /// Pseudo-random bytes from a fixed seed (SplitMix64), the same on every run.
  public static func randomBytes(count: Int, seed: UInt64) -> [UInt8] {
    var state = seed
    return (0..<count).map { _ in
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return UInt8(truncatingIfNeeded: z ^ (z >> 31))
    }
  }
}

extension PixelBuffer {
  /// The mean of each channel.
  public func channelMeans() -> [Double] {
    let channels = format.channelCount
    var sums = [Double](repeating: 0, count: channels)
    for y in 0..<height {
      for x in 0..<width {
        let base = y * bytesPerRow + x * channels
        for channel in 0..<channels { sums[channel] += Double(bytes[base + channel]) }
      }
    }
    return sums.map { $0 / Double(pixelCount) }
  }

  /// Peak signal-to-noise ratio against another buffer of the same size and format, in dB.
  public func psnr(against other: PixelBuffer) -> Double {
    precondition(width == other.width && height == other.height && format == other.format)
    var squared = 0.0
    let channels = format.channelCount
    for y in 0..<height {
      for x in 0..<width * channels {
        let difference = Double(bytes[y * bytesPerRow + x]) - Double(other.bytes[y * other.bytesPerRow + x])
        squared += difference * difference
      }
    }
    let mse = squared / Double(pixelCount * channels)
    return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
  }
}
