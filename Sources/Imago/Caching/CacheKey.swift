/// Identifies a cached image: the source's key plus the processor chain's identifier.
///
/// The original image has the processor identifier `""`, so it and its processed variants live
/// side by side.
///
/// ```swift
/// let key = CacheKey(source: "https://example.com/a.jpg", processor: ImageProcessors.Resize(width: 400).identifier)
/// key.original  // the same source, unprocessed
/// ```
public struct CacheKey: Hashable, Sendable, CustomStringConvertible {
  /// The source's key: a URL's absolute string by default, or a key the caller chose.
  public var source: String
  /// The processor chain's identifier; `""` for the original.
  public var processor: String

  public init(source: String, processor: String = "") {
    self.source = source
    self.processor = processor
  }

  /// The key of the unprocessed original of this entry's source.
  public var original: CacheKey { CacheKey(source: source, processor: "") }

  /// One string for both parts (used for file names and for the disk entry's own check).
  /// A NUL byte separates them; neither a URL nor an identifier contains one.
  public var persistentString: String { processor.isEmpty ? source : source + "\u{0}" + processor }

  public var description: String { processor.isEmpty ? source : "\(source) [\(processor)]" }
}
