import Foundation
import Imago
import TestSupport
import Testing

/// Real processes on one cache directory: writers killed mid-write, and two writers at once.
@Suite struct DiskCacheProcessTests {
  static let writer = ChildProcess.productsDirectory.appendingPathComponent("CacheWriter").path
  static let keys = (0..<40).map { "key-\($0)" }

  /// Every entry present reads back exactly as written; returns how many were present.
  static func verify(_ directory: URL) throws -> Int {
    let cache = try DiskCache(directory: directory)
    var present = 0
    for name in keys {
      guard let entry = cache.entry(for: CacheKey(source: name)) else { continue }
      #expect(CacheWriterPayload.isValid(entry.payload, key: name), "\(name) read back wrong")
      present += 1
    }
    return present
  }

  @Test func killingAWriterMidWriteNeverLeavesAnEntryThatReadsBackWrong() throws {
    let directory = try TestFiles.temporaryDirectory()
    var leftovers: Set<String> = []
    for round in 0..<25 {
      let pid = try ChildProcess.start(Self.writer, [directory.path, "\(round)", "0", "\(300_000)"])
      usleep(UInt32(80_000 + (round * 7_919) % 120_000))
      kill(pid, SIGKILL)
      #expect(ChildProcess.wait(pid) == nil, "the writer was killed, not finished")
      leftovers.formUnion(
        try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix(".tmp-") })
    }
    let present = try Self.verify(directory)
    #expect(present > 0)
    // Kills that land mid-write leave temporary files: evidence the test hit the window it is for.
    #expect(!leftovers.isEmpty)
    print("crash test: \(present) entries intact, \(leftovers.count) temporary files left by interrupted writes")
  }

  @Test func twoProcessesShareOneDirectory() throws {
    let directory = try TestFiles.temporaryDirectory()
    let limit = 300_000
    let first = try ChildProcess.start(Self.writer, [directory.path, "1", "400", "\(limit)"])
    let second = try ChildProcess.start(Self.writer, [directory.path, "2", "400", "\(limit)"])
    #expect(ChildProcess.wait(first) == 0)
    #expect(ChildProcess.wait(second) == 0)
    #expect(try Self.verify(directory) > 0)
    let statistics = try DiskCache(directory: directory).statistics
    #expect(statistics.totalBytes <= limit, "\(statistics.totalBytes) bytes on disk")
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).allSatisfy { !$0.hasPrefix(".tmp-") })
  }
}
