public import Foundation

/// Where a cached image was found.
public enum CacheType: Sendable, Hashable {
  case none
  case memory
  case disk
}

/// An image as the caches hold it: the pixels, and the encoded bytes they were stored as (what
/// a server can send without encoding again).
public struct CachedImage: Sendable {
  public var pixels: PixelBuffer
  public var encoded: Data?
  public var format: ImageFormat?

  public init(pixels: PixelBuffer, encoded: Data? = nil, format: ImageFormat? = nil) {
    self.pixels = pixels
    self.encoded = encoded
    self.format = format
  }

  /// Memory-cache cost: the pixel bytes, plus the encoded bytes when kept.
  var cost: Int { pixels.bytes.count + (encoded?.count ?? 0) }
}

/// Memory in front of disk: reads look in memory, then on disk (promoting what they find to
/// memory); writes go to both, or to memory only when asked.
///
/// Original (unprocessed) bytes can go to their own disk cache, so a new processor variant of a
/// source needs no new download.
///
/// ```swift
/// let cache = ImageCache(disk: try DiskCache(directory: cacheURL))
/// try cache.store(thumbnail, for: key, original: (data, .jpeg))
/// if let (image, level) = cache.image(for: key) { ... }
/// ```
public final class ImageCache: Sendable {
  public let memory: MemoryCache<CachedImage>
  public let disk: DiskCache?
  /// Where original bytes go; defaults to `disk`.
  public let originalDisk: DiskCache?
  public let serializer: any CacheSerializer
  public let coders: CoderRegistry
  /// Decoding limits for entries read back from disk.
  public let decodingOptions: DecodingOptions

  public init(
    memory: MemoryCache<CachedImage> = MemoryCache(), disk: DiskCache? = nil, originalDisk: DiskCache? = nil,
    serializer: any CacheSerializer = DefaultCacheSerializer(), coders: CoderRegistry = .default,
    decodingOptions: DecodingOptions = .default
  ) {
    self.memory = memory
    self.disk = disk
    self.originalDisk = originalDisk ?? disk
    self.serializer = serializer
    self.coders = coders
    self.decodingOptions = decodingOptions
  }

  /// The image for `key` and the level it came from; `nil` when neither level has it. A disk
  /// entry that does not decode is removed and counts as a miss.
  public func image(for key: CacheKey, memoryExpiration: CacheExpiration? = nil) -> (CachedImage, CacheType)? {
    if let hit = memory.value(for: key) { return (hit, .memory) }
    guard let disk, let entry = disk.entry(for: key) else { return nil }
    // Originals are stored as they came (EXIF included) and re-encoded entries carry no EXIF,
    // so applying orientation gives upright pixels either way.
    guard let decoded = try? coders.decode(entry.payload, options: decodingOptions) else {
      disk.remove(key)
      return nil
    }
    let image = CachedImage(pixels: decoded.pixels, encoded: entry.payload, format: entry.format ?? decoded.info.format)
    memory.insert(image, for: key, cost: image.cost, expiration: memoryExpiration)
    return (image, .disk)
  }

  /// Which level holds `key`, without promoting or decoding anything.
  public func cacheType(for key: CacheKey) -> CacheType {
    if memory.contains(key) { return .memory }
    if let disk, disk.contains(key) { return .disk }
    return .none
  }

  /// Stores `image` under `key`: in memory, and on disk unless `memoryOnly`.
  ///
  /// - Parameters:
  ///   - original: the source's encoded bytes and format, which the serializer may reuse.
  ///   - keepsEncoded: also keep the serialized bytes in memory (costs memory, saves encoding).
  ///   - serializer: overrides the cache's serializer for this image.
  /// - Returns: the serialized bytes, when the image was serialized (for disk or `keepsEncoded`).
  @discardableResult
  public func store(
    _ image: PixelBuffer, for key: CacheKey, original: (data: Data, format: ImageFormat)? = nil,
    memoryOnly: Bool = false, keepsEncoded: Bool = false, memoryExpiration: CacheExpiration? = nil,
    diskExpiration: CacheExpiration? = nil, serializer: (any CacheSerializer)? = nil
  ) throws -> (data: Data, format: ImageFormat)? {
    var stored: (data: Data, format: ImageFormat)?
    let serializer = serializer ?? self.serializer
    if keepsEncoded || (!memoryOnly && disk != nil) {
      stored = try serializer.data(
        for: image, original: original, isOriginal: key.processor.isEmpty, coders: coders)
    }
    if !memoryOnly, let disk, let stored {
      try disk.store(stored.data, for: key, format: stored.format, expiration: diskExpiration)
    }
    let cached = CachedImage(
      pixels: image, encoded: keepsEncoded ? stored?.data : nil, format: keepsEncoded ? stored?.format : nil)
    memory.insert(cached, for: key, cost: cached.cost, expiration: memoryExpiration)
    return stored
  }

  /// The original bytes of a source, when kept.
  public func originalData(forSource source: String) -> DiskCacheEntry? {
    originalDisk?.entry(for: CacheKey(source: source))
  }

  /// Keeps a source's original bytes (with e.g. HTTP validators in `metadata`).
  public func storeOriginalData(
    _ data: Data, forSource source: String, format: ImageFormat?, expiration: CacheExpiration? = nil,
    metadata: [String: String] = [:]
  ) throws {
    try originalDisk?.store(
      data, for: CacheKey(source: source), format: format, expiration: expiration, metadata: metadata)
  }

  public func remove(_ key: CacheKey) {
    memory.removeValue(for: key)
    disk?.remove(key)
  }

  /// Empties memory, and the disk levels unless `memoryOnly`.
  public func clear(memoryOnly: Bool = false) {
    memory.removeAll()
    guard !memoryOnly else { return }
    disk?.removeAll()
    if let originalDisk, originalDisk !== disk { originalDisk.removeAll() }
  }

  /// Drops expired entries from every level and trims the disk levels to their limits.
  public func trim() {
    memory.removeExpired()
    for level in [disk, originalDisk === disk ? nil : originalDisk].compactMap({ $0 }) {
      level.removeExpired()
      level.trim(toSize: level.configuration.sizeLimit)
    }
  }
}
