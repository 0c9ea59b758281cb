/// Where a crop sits inside the image: (0, 0) keeps the top-left corner, (0.5, 0.5) the centre,
/// (1, 1) the bottom-right.
///
/// ```swift
/// let crop = ImageProcessors.Crop(size: PixelSize(width: 100, height: 100), anchor: .top)
/// ```
public struct Anchor: Hashable, Sendable, CustomStringConvertible {
  public var x: Double
  public var y: Double

  public init(x: Double, y: Double) {
    self.x = min(max(x, 0), 1)
    self.y = min(max(y, 0), 1)
  }

  public static let center = Anchor(x: 0.5, y: 0.5)
  public static let top = Anchor(x: 0.5, y: 0)
  public static let bottom = Anchor(x: 0.5, y: 1)
  public static let left = Anchor(x: 0, y: 0.5)
  public static let right = Anchor(x: 1, y: 0.5)
  public static let topLeft = Anchor(x: 0, y: 0)
  public static let topRight = Anchor(x: 1, y: 0)
  public static let bottomLeft = Anchor(x: 0, y: 1)
  public static let bottomRight = Anchor(x: 1, y: 1)

  /// Parses a name (center, top, bottom, left, right, top-left, top-right, bottom-left,
  /// bottom-right, or their initials) or `X:Y` with both in 0...1.
  public init?(text: String) {
    switch text.lowercased() {
    case "center", "centre", "c": self = .center
    case "top", "t": self = .top
    case "bottom", "b": self = .bottom
    case "left", "l": self = .left
    case "right", "r": self = .right
    case "top-left", "tl": self = .topLeft
    case "top-right", "tr": self = .topRight
    case "bottom-left", "bl": self = .bottomLeft
    case "bottom-right", "br": self = .bottomRight
    default:
      let parts = text.split(separator: ":", omittingEmptySubsequences: false).map { Double($0) }
      guard parts.count == 2, let x = parts[0], let y = parts[1], (0...1).contains(x), (0...1).contains(y) else {
        return nil
      }
      self.init(x: x, y: y)
    }
  }

  /// Canonical text: `x:y`.
  public var description: String { "\(ProcessorIdentifier.number(x)):\(ProcessorIdentifier.number(y))" }
}

/// The namespace of the built-in processors; each has a shorthand on ``ImageProcessing``.
public enum ImageProcessors {}
