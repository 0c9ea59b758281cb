/// What an image's header says, read without decoding its pixels.
///
/// ```swift
/// let info = try CoderRegistry.default.info(for: data)
/// print(info.format, info.width, info.height, info.orientation)
/// ```
public struct ImageInfo: Hashable, Sendable {
  public var format: ImageFormat
  /// Width as stored in the file (before EXIF orientation).
  public var width: Int
  /// Height as stored in the file (before EXIF orientation).
  public var height: Int
  public var hasAlpha: Bool
  /// EXIF orientation; `.up` (1) when the file has none.
  public var orientation: ImageOrientation
  /// Number of frames; more than 1 for animations, of which Imago decodes the first.
  public var frameCount: Int
  /// Whether a JPEG is progressive or a PNG interlaced.
  public var isProgressive: Bool

  public init(
    format: ImageFormat, width: Int, height: Int, hasAlpha: Bool, orientation: ImageOrientation = .up,
    frameCount: Int = 1, isProgressive: Bool = false
  ) {
    self.format = format
    self.width = width
    self.height = height
    self.hasAlpha = hasAlpha
    self.orientation = orientation
    self.frameCount = frameCount
    self.isProgressive = isProgressive
  }

  /// The size as displayed, after orientation.
  public var orientedSize: PixelSize {
    let stored = PixelSize(width: width, height: height)
    return orientation.swapsDimensions ? stored.transposed : stored
  }
}

/// A decoded image: the pixels and what the header said.
public struct DecodedImage: Sendable {
  /// The pixels, upright when orientation was applied, possibly reduced while decoding.
  public var pixels: PixelBuffer
  /// The header of the source image.
  public var info: ImageInfo

  public init(pixels: PixelBuffer, info: ImageInfo) {
    self.pixels = pixels
    self.info = info
  }
}
