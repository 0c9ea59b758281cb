import Foundation
import Imago
import TestSupport
import Testing

@Suite struct ImageCacheTests {
  static let thumbnail = TestImages.gradient(width: 64, height: 48)
  static let key = CacheKey(
    source: "https://example.com/a.jpg", processor: ImageProcessors.Resize(width: 64).identifier)

  func makeCache(serializer: any CacheSerializer = DefaultCacheSerializer()) throws -> ImageCache {
    ImageCache(
      memory: MemoryCache(configuration: .init(costLimit: 10 << 20)),
      disk: try DiskCache(directory: TestFiles.temporaryDirectory()), serializer: serializer)
  }

  @Test func memoryThenDiskWithPromotion() throws {
    let cache = try makeCache()
    #expect(cache.cacheType(for: Self.key) == .none)
    #expect(cache.image(for: Self.key) == nil)
    let jpeg = try JPEGEncoder().encode(Self.thumbnail, options: .default)
    try cache.store(Self.thumbnail, for: Self.key, original: (jpeg, .jpeg))
    #expect(cache.cacheType(for: Self.key) == .memory)
    #expect(cache.image(for: Self.key)?.1 == .memory)
    cache.clear(memoryOnly: true)
    #expect(cache.cacheType(for: Self.key) == .disk)
    let (fromDisk, level) = try #require(cache.image(for: Self.key))
    #expect(level == .disk)
    #expect(fromDisk.format == .jpeg && fromDisk.encoded != nil)
    // Re-encoded as JPEG q90 4:2:0; the sharp blue stripes cost a little.
    #expect(fromDisk.pixels.psnr(against: Self.thumbnail) > 28)
    // Promoted: the next read is from memory.
    #expect(cache.image(for: Self.key)?.1 == .memory)
  }

  @Test func memoryOnlyStoresNothingOnDisk() throws {
    let cache = try makeCache()
    try cache.store(Self.thumbnail, for: Self.key, memoryOnly: true)
    cache.clear(memoryOnly: true)
    #expect(cache.cacheType(for: Self.key) == .none)
  }

  @Test func defaultSerializerKeepsTheOriginalFormatUnlessAlphaNeedsPNG() throws {
    let serializer = DefaultCacheSerializer()
    let jpeg = try JPEGEncoder().encode(Self.thumbnail, options: .default)
    let opaque = try serializer.data(for: Self.thumbnail, original: (jpeg, .jpeg), isOriginal: false, coders: .default)
    #expect(opaque.format == .jpeg)
    let rounded = try ImageProcessors.RoundCorner(radius: 8).process(.image(Self.thumbnail), context: .default)
    let alpha = try serializer.data(for: rounded, original: (jpeg, .jpeg), isOriginal: false, coders: .default)
    #expect(alpha.format == .png)
    #expect(try CoderRegistry.default.decode(alpha.data).pixels == rounded)
    // The original itself is stored as its own bytes.
    let original = try serializer.data(for: Self.thumbnail, original: (jpeg, .jpeg), isOriginal: true, coders: .default)
    #expect(original.data == jpeg)
  }

  @Test(arguments: [
    (FormatIndicatedCacheSerializer.Format.png, ImageFormat.png), (.jpeg(quality: 80), .jpeg),
    (.webp(quality: 80), .webp),
  ])
  func formatIndicatedSerializerForcesItsFormat(format: FormatIndicatedCacheSerializer.Format, expected: ImageFormat)
    throws
  {
    let cache = try makeCache(serializer: FormatIndicatedCacheSerializer(format))
    let stored = try cache.store(Self.thumbnail, for: Self.key, original: (Data(), .jpeg))
    #expect(stored?.format == expected)
    cache.clear(memoryOnly: true)
    #expect(cache.image(for: Self.key)?.0.format == expected)
  }

  @Test func originalsLiveInTheirOwnCacheBesideVariants() throws {
    let processed = try DiskCache(directory: TestFiles.temporaryDirectory())
    let originals = try DiskCache(directory: TestFiles.temporaryDirectory())
    let cache = ImageCache(disk: processed, originalDisk: originals)
    let jpeg = try TestFiles.fixture("wizard.jpg")
    try cache.storeOriginalData(jpeg, forSource: Self.key.source, format: .jpeg, metadata: ["ETag": "\"v1\""])
    try cache.store(Self.thumbnail, for: Self.key, original: (jpeg, .jpeg))
    #expect(cache.originalData(forSource: Self.key.source)?.payload == jpeg)
    #expect(cache.originalData(forSource: Self.key.source)?.metadata["ETag"] == "\"v1\"")
    #expect(originals.statistics.entryCount == 1 && processed.statistics.entryCount == 1)
  }

  @Test func aDiskEntryThatDoesNotDecodeIsRemoved() throws {
    let cache = try makeCache()
    try cache.disk!.store(Data("not an image".utf8), for: Self.key, format: .jpeg)
    #expect(cache.image(for: Self.key) == nil)
    #expect(cache.cacheType(for: Self.key) == .none)
  }

  @Test func removeClearAndTrim() throws {
    let cache = try makeCache()
    try cache.store(Self.thumbnail, for: Self.key)
    cache.remove(Self.key)
    #expect(cache.cacheType(for: Self.key) == .none)
    try cache.store(Self.thumbnail, for: Self.key)
    cache.trim()
    #expect(cache.cacheType(for: Self.key) == .memory)
    cache.clear()
    #expect(cache.cacheType(for: Self.key) == .none)
    #expect(cache.disk!.statistics.entryCount == 0)
  }
}
