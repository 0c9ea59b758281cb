/// Processors run in order: the first receives the item as given, every later one the pixels
/// the one before produced. Its identifier is the members' identifiers joined by `|>`.
///
/// ```swift
/// let avatar = .resize(width: 128, height: 128, mode: .fill()) |> .roundCorner(radius: 64)
/// avatar.identifier  // "imago.resize.v1(...)|>imago.roundcorner.v1(...)"
/// ```
public struct ImageProcessorChain: ImageProcessing {
  public let processors: [any ImageProcessing]

  public init(_ processors: [any ImageProcessing]) {
    // Nested chains are flattened, so identifiers do not depend on how a chain was built.
    self.processors = processors.flatMap { ($0 as? ImageProcessorChain)?.processors ?? [$0] }
  }

  public var identifier: String { processors.map(\.identifier).joined(separator: "|>") }

  public func process(_ item: ImageProcessItem, context: ImageProcessingContext) throws -> PixelBuffer {
    guard let first = processors.first else { return try DefaultImageProcessor().process(item, context: context) }
    var image = try first.process(item, context: context)
    for processor in processors.dropFirst() {
      image = try processor.process(.image(image), context: context)
    }
    return image
  }

  /// A chain with `processor` added at the end.
  public func appending(_ processor: any ImageProcessing) -> ImageProcessorChain {
    ImageProcessorChain(processors + [processor])
  }
}

extension ImageProcessing {
  /// A chain of this processor followed by `next`.
  public func appending(_ next: any ImageProcessing) -> ImageProcessorChain {
    ImageProcessorChain([self, next])
  }
}

infix operator |> : AdditionPrecedence

/// Chains two processors: `lhs` runs first.
public func |> <A: ImageProcessing, B: ImageProcessing>(lhs: A, rhs: B) -> ImageProcessorChain {
  ImageProcessorChain([lhs, rhs])
}
