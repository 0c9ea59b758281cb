/// Decodes at a reduced size that still covers `size` (shrink-on-load only, no resampling).
///
/// It acts at decode time: given encoded data, the decoder shrinks by what the format allows
/// (JPEG 1/2-1/8, WebP any, PNG integer box), so the result is at least `size` and may be
/// larger. Given pixels, it returns them unchanged.
///
/// ```swift
/// let preview = try DownsamplingImageProcessor(size: PixelSize(width: 800, height: 600))
///   .process(.data(data), context: .default)
/// ```
public struct DownsamplingImageProcessor: PixelProcessor, Hashable {
  public var size: PixelSize

  public init(size: PixelSize) { self.size = size }

  public var identifier: String {
    ProcessorIdentifier.make("downsample", version: 1, ["w": "\(size.width)", "h": "\(size.height)"])
  }

  public func validate() throws(ImagoError) {
    guard size.width > 0, size.height > 0 else {
      throw .invalidArgument("downsampling size must be positive, not \(size)")
    }
  }

  public func decodingTarget(for sourceSize: PixelSize) -> PixelSize? { size }

  public func process(_ image: PixelBuffer, context: ImageProcessingContext) throws -> PixelBuffer { image }
}

extension ImageProcessing where Self == DownsamplingImageProcessor {
  /// Decode at a reduced size that still covers `size`.
  public static func downsampling(to size: PixelSize) -> DownsamplingImageProcessor {
    DownsamplingImageProcessor(size: size)
  }
}
