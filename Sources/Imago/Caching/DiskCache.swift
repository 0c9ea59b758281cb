import Crypto
public import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// A directory of cache files, safe to share between threads and processes.
///
/// Each entry is one file named by the SHA-256 of its key, written to a temporary file in the
/// same directory and renamed into place, so readers see a whole old file or a whole new one,
/// never a torn one; a killed writer leaves at most a temporary file, cleaned up later. Every
/// read checks the entry's sizes, checksums and key: a bad file is a miss and is removed.
/// Least recently used entries (by file modification time, which reads refresh) are trimmed to
/// the low-water mark whenever a write takes the directory over its size limit.
///
/// ```swift
/// let disk = try DiskCache(directory: URL(fileURLWithPath: "/var/cache/thumbs"))
/// try disk.store(jpegData, for: key, format: .jpeg)
/// let bytes = disk.entry(for: key)?.payload
/// ```
public final class DiskCache: Sendable {
  public struct Configuration: Sendable {
    /// Total bytes of entry files allowed. Default: 1 GiB.
    public var sizeLimit: Int
    /// Where a trim stops, as a fraction of `sizeLimit`. Default: 0.8.
    public var lowWaterMark: Double
    /// Expiration for entries stored without one. Default: 7 days.
    public var expiration: CacheExpiration
    /// How stale an entry's access time may get before a read refreshes it (saves a write per
    /// hit). Default: 60 seconds.
    public var accessTimeResolution: TimeInterval
    public var clock: any WallClock

    public init(
      sizeLimit: Int = 1 << 30, lowWaterMark: Double = 0.8, expiration: CacheExpiration = .days7,
      accessTimeResolution: TimeInterval = 60, clock: any WallClock = SystemWallClock()
    ) {
      self.sizeLimit = sizeLimit
      self.lowWaterMark = lowWaterMark
      self.expiration = expiration
      self.accessTimeResolution = accessTimeResolution
      self.clock = clock
    }
  }

  /// Counts since this instance was made (entries and bytes describe the directory).
  public struct Statistics: Sendable, Equatable, Codable {
    public var entryCount: Int
    public var totalBytes: Int
    public var hits: Int
    public var misses: Int
    public var evictions: Int
  }

  public let directory: URL
  public let configuration: Configuration
  private let state = Mutex(IndexState())

  private struct IndexFile {
    var size: Int
    var accessed: Date
  }

  private struct IndexState {
    var files: [String: IndexFile] = [:]
    var totalBytes = 0
    var loaded = false
    /// The directory's modification time after our last change: if it differs, another process
    /// changed the directory and the index must be read again.
    var directoryStamp: timespec?
    var hits = 0
    var misses = 0
    var evictions = 0
  }

  /// Opens (creating if needed) the cache in `directory`.
  public init(directory: URL, configuration: Configuration = Configuration()) throws(ImagoError) {
    self.directory = directory.standardizedFileURL
    self.configuration = configuration
    do {
      try FileManager.default.createDirectory(at: self.directory, withIntermediateDirectories: true)
    } catch {
      throw .cacheFailure(operation: "create \(directory.path)", reason: Self.describe(error))
    }
  }

  /// The file name for a key: hex SHA-256 of its persistent string.
  public static func fileName(for key: CacheKey) -> String {
    let digest = SHA256.hash(data: Data(key.persistentString.utf8))
    let hex = Array("0123456789abcdef".utf8)
    return String(unsafeUninitializedCapacity: 64) { buffer in
      var index = 0
      for byte in digest {
        buffer[index] = hex[Int(byte >> 4)]
        buffer[index + 1] = hex[Int(byte & 0x0F)]
        index += 2
      }
      return 64
    }
  }

  private func path(_ name: String) -> String { directory.path + "/" + name }

  // MARK: Reading

  /// The entry for `key`, if a valid, unexpired one exists. Bad files are removed.
  public func entry(for key: CacheKey) -> DiskCacheEntry? {
    let name = Self.fileName(for: key)
    let now = configuration.clock.now()
    guard let (file, inode) = readFile(name) else {
      state.withLock { $0.misses += 1 }
      return nil
    }
    let entry: DiskCacheEntry
    do {
      entry = try DiskCacheEntry.decode(file, expectedKey: key.persistentString)
    } catch {
      removeIfUnchanged(name, inode: inode)
      state.withLock { $0.misses += 1 }
      return nil
    }
    if let expiry = entry.expiry, expiry <= now {
      removeIfUnchanged(name, inode: inode)
      state.withLock { $0.misses += 1 }
      return nil
    }
    let refresh = state.withLock { state -> Bool in
      state.hits += 1
      guard let known = state.files[name] else { return true }
      return now.timeIntervalSince(known.accessed) >= configuration.accessTimeResolution
    }
    if refresh { touch(name, at: now, size: file.count) }
    return entry
  }

  /// Whether a valid, unexpired entry exists (reads the header only).
  public func contains(_ key: CacheKey) -> Bool {
    let name = Self.fileName(for: key)
    guard let handle = FileHandle(forReadingAtPath: path(name)) else { return false }
    defer { try? handle.close() }
    guard let head = try? handle.read(upToCount: 64 * 1024),
      let size = try? handle.seekToEnd(),
      let header = try? DiskCacheEntry.decodeHeader(head, fileSize: Int(size)),
      header.entry.key == key.persistentString
    else { return false }
    return header.entry.expiry.map { $0 > configuration.clock.now() } ?? true
  }

  private func readFile(_ name: String) -> (Data, ino_t)? {
    let descriptor = open(path(name), O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0, info.st_size >= 0, info.st_size <= Int64(Int32.max) else { return nil }
    let size = Int(info.st_size)
    var data = Data(count: size)
    let complete = data.withUnsafeMutableBytes { buffer -> Bool in
      var offset = 0
      while offset < size {
        let count = read(descriptor, buffer.baseAddress! + offset, size - offset)
        if count <= 0 { return count == 0 && offset == size }
        offset += count
      }
      return true
    }
    return complete ? (data, info.st_ino) : (data.prefix(0), info.st_ino)
  }

  // MARK: Writing

  /// Stores `payload` for `key`, atomically; then trims if the directory is over its limit.
  public func store(
    _ payload: Data, for key: CacheKey, format: ImageFormat? = nil, expiration: CacheExpiration? = nil,
    metadata: [String: String] = [:]
  ) throws(ImagoError) {
    let now = configuration.clock.now()
    let entry = DiskCacheEntry(
      key: key.persistentString, payload: payload, format: format, created: now,
      expiry: (expiration ?? configuration.expiration).expiryDate(from: now), metadata: metadata)
    let bytes = entry.encoded()
    guard bytes.count <= configuration.sizeLimit else { return }
    let name = Self.fileName(for: key)
    try writeAtomically(bytes, to: name, modified: now)
    state.withLock { state in
      loadIfNeeded(&state)
      if let old = state.files[name] { state.totalBytes -= old.size }
      state.files[name] = IndexFile(size: bytes.count, accessed: now)
      state.totalBytes += bytes.count
      if state.totalBytes > configuration.sizeLimit {
        // Others may have written too: trim against what is really there.
        rescan(&state)
        trim(&state, to: Int(Double(configuration.sizeLimit) * configuration.lowWaterMark))
      }
      state.directoryStamp = directoryStamp()
    }
  }

  private func writeAtomically(_ bytes: Data, to name: String, modified: Date) throws(ImagoError) {
    let temporary = path(".tmp-\(getpid())-\(UUID().uuidString)")
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      throw .cacheFailure(operation: "write \(name)", reason: String(cString: strerror(errno)))
    }
    var failure: Int32 = 0
    bytes.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          failure = errno
          return
        }
        offset += written
      }
    }
    if failure == 0 {
      var times = [Self.timespec(modified), Self.timespec(modified)]
      _ = futimens(descriptor, &times)
    }
    if close(descriptor) != 0 && failure == 0 { failure = errno }
    if failure == 0 && rename(temporary, path(name)) != 0 { failure = errno }
    if failure != 0 {
      unlink(temporary)
      throw .cacheFailure(operation: "write \(name)", reason: String(cString: strerror(failure)))
    }
  }

  private func touch(_ name: String, at date: Date, size: Int) {
    var times = [Self.timespec(date), Self.timespec(date)]
    guard utimensat(AT_FDCWD, path(name), &times, 0) == 0 else { return }
    state.withLock { state in
      guard state.loaded else { return }
      if state.files[name] == nil { state.totalBytes += size }
      state.files[name] = IndexFile(size: size, accessed: date)
    }
  }

  // MARK: Removing

  /// Removes the entry for `key`.
  public func remove(_ key: CacheKey) {
    let name = Self.fileName(for: key)
    unlink(path(name))
    state.withLock { state in
      if let old = state.files.removeValue(forKey: name) { state.totalBytes -= old.size }
      state.directoryStamp = directoryStamp()
    }
  }

  /// Removes every entry (and any leftover temporary file).
  public func removeAll() {
    state.withLock { state in
      for name in entryNames(includingTemporary: true) { unlink(path(name)) }
      state.files = [:]
      state.totalBytes = 0
      state.loaded = true
      state.directoryStamp = directoryStamp()
    }
  }

  /// Removes expired, unreadable and stale temporary files; returns how many entries went.
  @discardableResult
  public func removeExpired() -> Int {
    let now = configuration.clock.now()
    var removed = 0
    for name in entryNames(includingTemporary: false) {
      guard let handle = FileHandle(forReadingAtPath: path(name)) else { continue }
      let head = (try? handle.read(upToCount: 64 * 1024)) ?? Data()
      let size = (try? handle.seekToEnd()).map(Int.init) ?? 0
      try? handle.close()
      let header = try? DiskCacheEntry.decodeHeader(head, fileSize: size)
      if header == nil || header!.entry.expiry.map({ $0 <= now }) ?? false {
        unlink(path(name))
        removed += 1
      }
    }
    state.withLock { state in
      rescan(&state)
      state.directoryStamp = directoryStamp()
    }
    return removed
  }

  /// Trims least recently used entries until at most `size` bytes remain.
  public func trim(toSize size: Int) {
    state.withLock { state in
      rescan(&state)
      trim(&state, to: size)
      state.directoryStamp = directoryStamp()
    }
  }

  public var statistics: Statistics {
    state.withLock { state in
      if !state.loaded || state.directoryStamp.map({ !Self.same($0, directoryStamp()) }) ?? true { rescan(&state) }
      return Statistics(
        entryCount: state.files.count, totalBytes: state.totalBytes, hits: state.hits, misses: state.misses,
        evictions: state.evictions)
    }
  }

  private func removeIfUnchanged(_ name: String, inode: ino_t) {
    // Only the file we read: a writer may have renamed a good entry into place meanwhile.
    var info = stat()
    guard stat(path(name), &info) == 0, info.st_ino == inode else { return }
    unlink(path(name))
    state.withLock { state in
      if let old = state.files.removeValue(forKey: name) { state.totalBytes -= old.size }
    }
  }

  // MARK: Index

  private func loadIfNeeded(_ state: inout IndexState) {
    if !state.loaded {
      rescan(&state)
      return
    }
    if let stamp = state.directoryStamp, !Self.same(stamp, directoryStamp()) { rescan(&state) }
  }

  /// Reads the directory: sizes and access times of entries; deletes temporary files that a
  /// killed writer left more than ten minutes ago.
  private func rescan(_ state: inout IndexState) {
    var files: [String: IndexFile] = [:]
    var total = 0
    let staleBefore = Date().addingTimeInterval(-600)
    for name in entryNames(includingTemporary: true) {
      var info = stat()
      guard stat(path(name), &info) == 0 else { continue }
      let modified = Date(
        timeIntervalSince1970: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9)
      if name.hasPrefix(".tmp-") {
        if modified < staleBefore { unlink(path(name)) }
        continue
      }
      files[name] = IndexFile(size: Int(info.st_size), accessed: modified)
      total += Int(info.st_size)
    }
    state.files = files
    state.totalBytes = total
    state.loaded = true
    state.directoryStamp = directoryStamp()
  }

  private func trim(_ state: inout IndexState, to target: Int) {
    guard state.totalBytes > target else { return }
    for (name, file) in state.files.sorted(by: { $0.value.accessed < $1.value.accessed }) {
      guard state.totalBytes > target else { break }
      unlink(path(name))
      state.files[name] = nil
      state.totalBytes -= file.size
      state.evictions += 1
    }
  }

  private func entryNames(includingTemporary: Bool) -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return names.filter { name in
      name.hasPrefix(".tmp-") ? includingTemporary : name.count == 64 && name.allSatisfy(\.isHexDigit)
    }
  }

  private func directoryStamp() -> timespec? {
    var info = stat()
    return stat(directory.path, &info) == 0 ? info.st_mtim : nil
  }

  private static func same(_ a: timespec, _ b: timespec?) -> Bool {
    guard let b else { return false }
    return a.tv_sec == b.tv_sec && a.tv_nsec == b.tv_nsec
  }

  private static func timespec(_ date: Date) -> timespec {
    let seconds = date.timeIntervalSince1970.rounded(.down)
    return Glibc.timespec(tv_sec: Int(seconds), tv_nsec: Int((date.timeIntervalSince1970 - seconds) * 1e9))
  }

  private static func describe(_ error: any Error) -> String {
    (error as? CocoaError)?.localizedDescription ?? "\(error)"
  }
}
