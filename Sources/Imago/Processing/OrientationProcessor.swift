extension ImageProcessors {
  /// Applies an EXIF orientation value to pixels, turning an image stored that way upright.
  ///
  /// Decoders already apply the file's own orientation; this is for pixels from elsewhere, or
  /// for decoding with ``DecodingOptions/appliesOrientation`` off.
  ///
  /// ```swift
  /// .orientation(.right)
  /// ```
  public struct Orientation: PixelProcessor, Hashable {
    public var orientation: ImageOrientation

    public init(_ orientation: ImageOrientation) { self.orientation = orientation }

    public var identifier: String {
      ProcessorIdentifier.make("orientation", version: 1, ["value": "\(orientation.rawValue)"])
    }

    public func process(_ image: PixelBuffer, context: ImageProcessingContext) throws -> PixelBuffer {
      image.oriented(orientation)
    }
  }
}

extension ImageProcessing where Self == ImageProcessors.Orientation {
  /// Apply EXIF orientation `orientation`.
  public static func orientation(_ orientation: ImageOrientation) -> ImageProcessors.Orientation {
    ImageProcessors.Orientation(orientation)
  }
}
