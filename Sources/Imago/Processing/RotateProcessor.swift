extension ImageProcessors {
  /// Rotates clockwise by a quarter, half or three-quarter turn (exact, no resampling).
  ///
  /// ```swift
  /// .rotate(.degrees90)
  /// ```
  public struct Rotate: PixelProcessor, Hashable {
    public enum Angle: Int, Hashable, Sendable, CaseIterable {
      case degrees90 = 90
      case degrees180 = 180
      case degrees270 = 270
    }

    public var angle: Angle

    public init(_ angle: Angle) { self.angle = angle }

    public var identifier: String { ProcessorIdentifier.make("rotate", version: 1, ["degrees": "\(angle.rawValue)"]) }

    public func process(_ image: PixelBuffer, context: ImageProcessingContext) throws -> PixelBuffer {
      switch angle {
      case .degrees90: image.oriented(.right)
      case .degrees180: image.oriented(.down)
      case .degrees270: image.oriented(.left)
      }
    }
  }
}

extension ImageProcessing where Self == ImageProcessors.Rotate {
  /// Rotate clockwise by `angle`.
  public static func rotate(_ angle: ImageProcessors.Rotate.Angle) -> ImageProcessors.Rotate {
    ImageProcessors.Rotate(angle)
  }
}
