public import Foundation

/// A loaded image and where it came from.
public struct ImageResult: Sendable {
  public var pixels: PixelBuffer
  /// `.none` when it was loaded and processed now; otherwise the cache level it came from.
  public var cacheType: CacheType
  public var source: ImageSource
  /// The format of the source image (or of the cached bytes, for a disk hit).
  public var format: ImageFormat?
  /// The encoded bytes the caches hold for this image, when known.
  public var encoded: Data?

  public var size: PixelSize { PixelSize(width: pixels.width, height: pixels.height) }
}

/// A loaded image encoded for sending: what a server answers with.
public struct EncodedImageResult: Sendable {
  public var data: Data
  public var format: ImageFormat
  public var size: PixelSize
  public var cacheType: CacheType
}
