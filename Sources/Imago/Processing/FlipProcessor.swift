extension ImageProcessors {
  /// Mirrors the image left-right (horizontal) or top-bottom (vertical).
  ///
  /// ```swift
  /// .flip(.horizontal)
  /// ```
  public struct Flip: PixelProcessor, Hashable {
    public enum Direction: String, Hashable, Sendable, CaseIterable {
      case horizontal
      case vertical
    }

    public var direction: Direction

    public init(_ direction: Direction) { self.direction = direction }

    public var identifier: String { ProcessorIdentifier.make("flip", version: 1, ["direction": direction.rawValue]) }

    public func process(_ image: PixelBuffer, context: ImageProcessingContext) throws -> PixelBuffer {
      image.oriented(direction == .horizontal ? .upMirrored : .downMirrored)
    }
  }
}

extension ImageProcessing where Self == ImageProcessors.Flip {
  /// Mirror the image.
  public static func flip(_ direction: ImageProcessors.Flip.Direction) -> ImageProcessors.Flip {
    ImageProcessors.Flip(direction)
  }
}
