import Foundation
import TestSupport
import Testing

@testable import Imago

/// The handmade hostile files (Fixtures/make-hostile.py) and everything the fuzzers ever found
/// (Fixtures/hostile/fuzz/TARGET/): each ends in a typed error or a valid result, in bounded time.
@Suite struct HostileCorpusTests {
  static let hostile = TestFiles.fixtures.appendingPathComponent("hostile")

  static func files(in folder: URL) -> [URL] {
    ((try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? [])
      .filter { !$0.hasDirectoryPath && $0.pathExtension != "md" }
      .sorted { $0.lastPathComponent < $1.lastPathComponent }
  }

  /// Runs `body`, failing the test if it takes longer than `seconds`.
  static func bounded(_ label: String, seconds: Double = 10, _ body: () throws -> Void) rethrows {
    let start = Date()
    try body()
    #expect(Date().timeIntervalSince(start) < seconds, "\(label) took too long")
  }

  @Test func thousandsOfProgressiveScansAreRefused() throws {
    let data = try Data(contentsOf: Self.hostile.appendingPathComponent("jpeg-thousands-of-scans.jpg"))
    Self.bounded("scans") {
      #expect {
        try CoderRegistry.default.decode(data)
      } throws: { error in
        guard case ImagoError.limitExceeded(.jpeg, let message) = error else { return false }
        return message.contains("more than 500 scans")
      }
    }
  }

  @Test func pngWhoseDataInflatesFarBeyondTheImageIsRefused() throws {
    let data = try Data(contentsOf: Self.hostile.appendingPathComponent("png-bomb-extra-idat.png"))
    Self.bounded("extra IDAT", seconds: 2) {
      #expect {
        try CoderRegistry.default.decode(data)
      } throws: { error in
        guard case ImagoError.corruptData(.png, let reason) = error else { return false }
        return reason.contains("needs at most")
      }
    }
  }

  @Test func dimensionsBeyondTheLimitsAreRefusedFromTheHeader() throws {
    let data = try Data(contentsOf: Self.hostile.appendingPathComponent("png-huge-dimensions.png"))
    #expect(throws: ImagoError.tooLarge(width: 30_000, height: 30_000, limit: "the limit of 100000000 pixels")) {
      try CoderRegistry.default.decode(data)
    }
    // At the limit: accepted. Lower the limit by one pixel: refused.
    let atLimit = try Data(contentsOf: Self.hostile.appendingPathComponent("png-bomb-at-limit.png"))
    var limits = DecodingLimits.default
    limits.maxPixels = 10_000 * 10_000 - 1
    #expect(throws: ImagoError.self) {
      try CoderRegistry.default.decode(atLimit, options: DecodingOptions(limits: limits))
    }
    try Self.bounded("at-limit thumbnail", seconds: 30) {
      let thumbnail = try CoderRegistry.default.decode(
        atLimit, options: DecodingOptions(targetSize: PixelSize(width: 100, height: 100)))
      #expect(thumbnail.pixels.width == 100 && thumbnail.pixels.bytes.allSatisfy { $0 == 0 })
    }
  }

  @Test func everyFuzzFindingIsHandled() throws {
    var replayed = 0
    let limits: DecodingLimits = {
      var limits = DecodingLimits.default
      limits.maxPixels = 4_000_000
      return limits
    }()
    for target in ["decode", "exif", "diskentry", "ops"] {
      for file in Self.files(in: Self.hostile.appendingPathComponent("fuzz/\(target)")) {
        let data = try Data(contentsOf: file)
        try Self.bounded(file.lastPathComponent) {
          switch target {
          case "exif": _ = EXIFReader.orientation(in: [UInt8](data))
          case "diskentry": _ = try? DiskCacheEntry.decode(data)
          case "ops":
            if let processor = try? ProcessorParser.parse(String(decoding: data, as: UTF8.self)) {
              let canvas = PixelBuffer(width: 24, height: 16, format: .rgba8, repeating: [1, 2, 3, 4])
              _ = try? processor.process(.image(canvas), context: .default)
            }
          default:
            do {
              let image = try CoderRegistry.default.decode(data, options: DecodingOptions(limits: limits))
              #expect(image.pixels.bytes.count >= image.pixels.bytesPerRow * image.pixels.height)
            } catch is ImagoError {}
          }
        }
        replayed += 1
      }
    }
    // The handmade files go through the same decode path.
    for file in Self.files(in: Self.hostile) {
      try Self.bounded(file.lastPathComponent, seconds: 30) {
        do {
          _ = try CoderRegistry.default.decode(
            try Data(contentsOf: file), options: DecodingOptions(targetSize: PixelSize(width: 64, height: 64)))
        } catch is ImagoError {}
      }
      replayed += 1
    }
    #expect(replayed >= 4)
  }
}
