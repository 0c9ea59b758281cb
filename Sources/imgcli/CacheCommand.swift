import ArgumentParser
import Foundation
import Imago

struct CacheCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "cache",
    abstract: "Inspect and maintain imgcli's disk cache.",
    subcommands: [Stats.self, Clear.self, Trim.self]
  )

  /// `$XDG_CACHE_HOME/imgcli`, or `~/.cache/imgcli`.
  static var defaultDirectory: String {
    let environment = ProcessInfo.processInfo.environment
    if let xdg = environment["XDG_CACHE_HOME"], !xdg.isEmpty { return xdg + "/imgcli" }
    return (environment["HOME"] ?? NSHomeDirectory()) + "/.cache/imgcli"
  }

  struct Location: ParsableArguments {
    @Option(
      name: .customLong("cache-dir"), help: "The cache directory (default: $XDG_CACHE_HOME/imgcli or ~/.cache/imgcli).")
    var directory: String = CacheCommand.defaultDirectory

    func open(sizeLimit: Int? = nil) throws -> DiskCache {
      do {
        var configuration = DiskCache.Configuration()
        if let sizeLimit { configuration.sizeLimit = sizeLimit }
        return try DiskCache(directory: URL(fileURLWithPath: directory), configuration: configuration)
      } catch {
        throw CommandFailure.input("\(error)")
      }
    }
  }

  struct Stats: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Entries and bytes in the cache.")
    @OptionGroup var location: Location
    @Flag(help: "One JSON object.") var json = false

    func run() throws {
      let statistics = try location.open().statistics
      if json {
        print(
          "{\"directory\":\(jsonString(location.directory)),\"entries\":\(statistics.entryCount),"
            + "\"bytes\":\(statistics.totalBytes)}")
      } else {
        print("\(location.directory): \(statistics.entryCount) entries, \(statistics.totalBytes) bytes")
      }
    }
  }

  struct Clear: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Remove every entry.")
    @OptionGroup var location: Location
    @Flag(help: "One JSON object.") var json = false

    func run() throws {
      let cache = try location.open()
      let before = cache.statistics
      cache.removeAll()
      if json {
        print("{\"removedEntries\":\(before.entryCount),\"removedBytes\":\(before.totalBytes)}")
      } else {
        print("removed \(before.entryCount) entries, \(before.totalBytes) bytes")
      }
    }
  }

  struct Trim: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Remove expired and unreadable entries, then least recently used ones down to --max-size.")
    @OptionGroup var location: Location
    @Option(name: .customLong("max-size"), help: "Bytes to keep at most (K, M, G suffixes allowed; default 1G).")
    var maxSize: String = "1G"
    @Flag(help: "One JSON object.") var json = false

    func validate() throws {
      guard CacheCommand.bytes(maxSize) != nil else { throw ValidationError("--max-size: not a size: '\(maxSize)'") }
    }

    func run() throws {
      let limit = CacheCommand.bytes(maxSize) ?? 1 << 30
      let cache = try location.open(sizeLimit: limit)
      let before = cache.statistics
      let expired = cache.removeExpired()
      cache.trim(toSize: limit)
      let after = cache.statistics
      let evicted = max(0, before.entryCount - expired - after.entryCount)
      if json {
        print(
          "{\"expiredEntries\":\(expired),\"evictedEntries\":\(evicted),\"entries\":\(after.entryCount),"
            + "\"bytes\":\(after.totalBytes)}")
      } else {
        print(
          "removed \(expired) expired and \(evicted) least recently used; \(after.entryCount) entries, \(after.totalBytes) bytes left"
        )
      }
    }
  }

  /// "1500", "64K", "500M", "2G" (powers of 1024).
  static func bytes(_ text: String) -> Int? {
    let units: [Character: Int] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
    var digits = text.uppercased()
    var multiplier = 1
    if let last = digits.last, let unit = units[last] {
      multiplier = unit
      digits.removeLast()
    }
    guard let value = Int(digits), value >= 0 else { return nil }
    return value.multipliedReportingOverflow(by: multiplier).overflow ? nil : value * multiplier
  }
}
