public import Foundation

/// Decides the bytes a processed image is stored as on disk, and reads them back.
///
/// ```swift
/// let cache = ImageCache(disk: disk, serializer: FormatIndicatedCacheSerializer(.webp(quality: 85)))
/// ```
public protocol CacheSerializer: Sendable {
  /// The bytes and format to store `image` as. `original` is the source's encoded data and
  /// format, when known, and `isOriginal` says the image is the unprocessed original.
  func data(
    for image: PixelBuffer, original: (data: Data, format: ImageFormat)?, isOriginal: Bool, coders: CoderRegistry
  ) throws -> (data: Data, format: ImageFormat)
}

/// Keeps the original's format: the original image is stored as its own bytes untouched;
/// processed images are re-encoded in the original's format, except that PNG is used when the
/// processed image has alpha and the original's format cannot hold it (JPEG).
public struct DefaultCacheSerializer: CacheSerializer {
  /// Quality for re-encoded JPEG and lossy WebP. Default 90.
  public var quality: Int
  /// zlib level for PNG. Default 1: cache writes should be fast, the size difference is small.
  public var pngCompressionLevel: Int

  public init(quality: Int = 90, pngCompressionLevel: Int = 1) {
    self.quality = quality
    self.pngCompressionLevel = pngCompressionLevel
  }

  public func data(
    for image: PixelBuffer, original: (data: Data, format: ImageFormat)?, isOriginal: Bool, coders: CoderRegistry
  ) throws -> (data: Data, format: ImageFormat) {
    if isOriginal, let original { return original }
    var format = original?.format ?? .png
    if (format == .jpeg && image.format.hasAlpha) || (try? coders.encoder(for: format)) == nil { format = .png }
    let options = EncodingOptions(quality: quality, compressionLevel: pngCompressionLevel)
    return (try coders.encode(image, as: format, options: options), format)
  }
}

/// Always stores one format, whatever the original was.
public struct FormatIndicatedCacheSerializer: CacheSerializer {
  public enum Format: Hashable, Sendable {
    case png
    case jpeg(quality: Int)
    case webp(quality: Int, lossless: Bool = false)
  }

  public var format: Format

  public init(_ format: Format) { self.format = format }

  public func data(
    for image: PixelBuffer, original: (data: Data, format: ImageFormat)?, isOriginal: Bool, coders: CoderRegistry
  ) throws -> (data: Data, format: ImageFormat) {
    switch format {
    case .png:
      return (try coders.encode(image, as: .png, options: EncodingOptions(compressionLevel: 1)), .png)
    case .jpeg(let quality):
      return (try coders.encode(image, as: .jpeg, options: EncodingOptions(quality: quality)), .jpeg)
    case .webp(let quality, let lossless):
      return (
        try coders.encode(image, as: .webp, options: EncodingOptions(quality: quality, lossless: lossless)), .webp
      )
    }
  }
}
