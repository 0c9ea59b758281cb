extension ImageProcessors {
  /// Converts to gray (BT.601 luma), keeping alpha.
  ///
  /// ```swift
  /// .resize(width: 200) |> .grayscale
  /// ```
  public struct Grayscale: PixelProcessor, Hashable {
    public init() {}

    public var identifier: String { ProcessorIdentifier.make("grayscale", version: 1, [:]) }

    public func process(_ image: PixelBuffer, context: ImageProcessingContext) throws -> PixelBuffer {
      image.converted(to: image.format.hasAlpha ? .grayAlpha8 : .gray8)
    }
  }
}

extension ImageProcessing where Self == ImageProcessors.Grayscale {
  /// Convert to gray.
  public static var grayscale: ImageProcessors.Grayscale { ImageProcessors.Grayscale() }
}
