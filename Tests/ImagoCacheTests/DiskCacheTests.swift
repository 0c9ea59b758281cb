import Foundation
import Imago
import TestSupport
import Testing

@Suite struct DiskCacheTests {
  static func key(_ name: String, _ processor: String = "") -> CacheKey { CacheKey(source: name, processor: processor) }

  func makeCache(
    sizeLimit: Int = 1 << 30, clock: ManualWallClock = ManualWallClock(), directory: URL? = nil
  ) throws -> DiskCache {
    try DiskCache(
      directory: directory ?? TestFiles.temporaryDirectory(),
      configuration: .init(sizeLimit: sizeLimit, accessTimeResolution: 1, clock: clock))
  }

  func fileURL(_ cache: DiskCache, _ key: CacheKey) -> URL {
    cache.directory.appendingPathComponent(DiskCache.fileName(for: key))
  }

  @Test func storesAndReadsBackWithItsHeader() throws {
    let clock = ManualWallClock()
    let cache = try makeCache(clock: clock)
    let payload = CacheWriterPayload.make(key: "a", version: 1)
    try cache.store(payload, for: Self.key("a"), format: .jpeg, metadata: ["ETag": "\"abc\""])
    let entry = try #require(cache.entry(for: Self.key("a")))
    #expect(entry.payload == payload && entry.format == .jpeg && entry.metadata == ["ETag": "\"abc\""])
    #expect(entry.created == clock.now())
    #expect(entry.expiry == clock.now().addingTimeInterval(7 * 24 * 3600))
    #expect(cache.contains(Self.key("a")))
    #expect(cache.entry(for: Self.key("b")) == nil)
    // Another instance (another process, later) reads the same file.
    let again = try makeCache(clock: clock, directory: cache.directory)
    #expect(again.entry(for: Self.key("a"))?.payload == payload)
    let statistics = cache.statistics
    #expect(statistics.hits == 1 && statistics.misses == 1 && statistics.entryCount == 1)
  }

  @Test func fileNamesAreSHA256OfTheKey() {
    // SHA-256("a"), the published test vector.
    #expect(
      DiskCache.fileName(for: Self.key("a")) == "ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb")
    #expect(DiskCache.fileName(for: Self.key("a")) != DiskCache.fileName(for: Self.key("a", "p")))
  }

  @Test func expiredEntriesAreMissesAndRemoved() throws {
    let clock = ManualWallClock()
    let cache = try makeCache(clock: clock)
    try cache.store(Data("x".utf8), for: Self.key("short"), expiration: .seconds(10))
    try cache.store(Data("y".utf8), for: Self.key("week"))
    try cache.store(Data("z".utf8), for: Self.key("never"), expiration: .never)
    clock.advance(by: 11)
    #expect(cache.entry(for: Self.key("short")) == nil)
    #expect(!FileManager.default.fileExists(atPath: fileURL(cache, Self.key("short")).path))
    clock.advance(by: 8 * 24 * 3600)
    #expect(cache.removeExpired() == 1)
    #expect(cache.entry(for: Self.key("never")) != nil)
    #expect(cache.statistics.entryCount == 1)
  }

  enum Damage: String, CaseIterable {
    case truncated, payloadBitFlip, headerBitFlip, badMagic, empty, wrongKey, garbage
  }

  @Test(arguments: Damage.allCases)
  func damagedFilesAreMissesAndRemoved(damage: Damage) throws {
    let cache = try makeCache()
    let key = Self.key("victim")
    try cache.store(CacheWriterPayload.make(key: "victim", version: 3), for: key)
    let url = fileURL(cache, key)
    var bytes = [UInt8](try Data(contentsOf: url))
    switch damage {
    case .truncated: bytes.removeLast(bytes.count / 3)
    case .payloadBitFlip: bytes[bytes.count - 100] ^= 0x10
    case .headerBitFlip: bytes[30] ^= 0x01
    case .badMagic: bytes[0] = UInt8(ascii: "X")
    case .empty: bytes = []
    case .garbage: bytes = TestImages.randomBytes(count: 5000, seed: 9)
    case .wrongKey:
      // A valid entry for another key, sitting under this key's name.
      try cache.store(Data("other".utf8), for: Self.key("other"))
      bytes = [UInt8](try Data(contentsOf: fileURL(cache, Self.key("other"))))
    }
    try Data(bytes).write(to: url)
    #expect(cache.entry(for: key) == nil)
    #expect(!FileManager.default.fileExists(atPath: url.path), "\(damage) file removed")
    #expect(!cache.contains(key))
  }

  @Test func sizeLimitHoldsAfterEveryWriteAndEvictsLeastRecentlyUsed() throws {
    let clock = ManualWallClock()
    let limit = 200_000
    let cache = try makeCache(sizeLimit: limit, clock: clock)
    for index in 0..<60 {
      clock.advance(by: 1)
      try cache.store(CacheWriterPayload.make(key: "k\(index)", version: index), for: Self.key("k\(index)"))
      // Keep k0 in use: it must survive every trim.
      clock.advance(by: 1)
      if index > 0 { #expect(cache.entry(for: Self.key("k0")) != nil, "k0 evicted at \(index)") }
      let onDisk = try FileManager.default.contentsOfDirectory(
        at: cache.directory, includingPropertiesForKeys: [.fileSizeKey]
      )
      .reduce(0) { $0 + ((try? $1.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0) }
      #expect(onDisk <= limit, "after write \(index): \(onDisk) bytes")
    }
    let statistics = cache.statistics
    #expect(statistics.evictions > 0 && statistics.totalBytes <= limit)
    #expect(cache.entry(for: Self.key("k1")) == nil)  // old and unused
  }

  @Test func trimAndRemoveAll() throws {
    let clock = ManualWallClock()
    let cache = try makeCache(clock: clock)
    for index in 0..<10 {
      clock.advance(by: 1)
      try cache.store(Data(count: 10_000), for: Self.key("k\(index)"))
    }
    cache.trim(toSize: 35_000)
    #expect(cache.statistics.totalBytes <= 35_000)
    #expect(cache.entry(for: Self.key("k9")) != nil && cache.entry(for: Self.key("k0")) == nil)
    cache.removeAll()
    #expect(cache.statistics.entryCount == 0)
    #expect(try FileManager.default.contentsOfDirectory(atPath: cache.directory.path).isEmpty)
  }

  /// A real full disk: a 64 KiB tmpfs, which needs the right to mount (root, as CI runs).
  @Test(.enabled(if: TinyFileSystem.canMount, "needs permission to mount a tmpfs"))
  func aFullDiskIsATypedErrorAndLeavesNothingBehind() throws {
    let mount = try TinyFileSystem(kibibytes: 64)
    defer { mount.unmount() }
    let cache = try makeCache(directory: mount.directory)
    var stored: [String] = []
    var failure: ImagoError?
    for index in 0..<20 {
      let name = "k\(index)"
      do {
        try cache.store(CacheWriterPayload.make(key: name, version: index), for: Self.key(name))
        stored.append(name)
      } catch {
        failure = error
        break
      }
    }
    guard case .cacheFailure(_, let reason)? = failure else {
      Issue.record("expected a cache failure, got \(String(describing: failure))")
      return
    }
    #expect(reason.contains("No space left"))
    #expect(!stored.isEmpty)
    let names = try FileManager.default.contentsOfDirectory(atPath: mount.directory.path)
    #expect(!names.contains { $0.hasPrefix(".tmp-") }, "no partial file left: \(names)")
    for name in stored {
      if let entry = cache.entry(for: Self.key(name)) { #expect(CacheWriterPayload.isValid(entry.payload, key: name)) }
    }
  }

  @Test func concurrentWritersAndReadersNeverSeeAWrongEntry() async throws {
    let cache = try makeCache(sizeLimit: 400_000)
    let wrong = await withTaskGroup(of: Int.self) { group in
      for worker in 0..<12 {
        group.addTask {
          var wrong = 0
          for step in 0..<150 {
            let name = "k\((worker + step) % 15)"
            if (worker + step) % 2 == 0 {
              try? cache.store(CacheWriterPayload.make(key: name, version: worker * 1000 + step), for: Self.key(name))
            } else if let entry = cache.entry(for: Self.key(name)),
              !CacheWriterPayload.isValid(entry.payload, key: name)
            {
              wrong += 1
            }
          }
          return wrong
        }
      }
      return await group.reduce(0, +)
    }
    #expect(wrong == 0)
    #expect(cache.statistics.totalBytes <= 400_000)
  }
}
