/// How to decode: at what size, within which limits, whether to apply EXIF orientation.
///
/// ```swift
/// // Decode a 5120x2880 JPEG for a 400 px wide thumbnail: libjpeg scales by 1/8 while
/// // decoding and returns 640x360, the smallest size that still covers 400x225.
/// let options = DecodingOptions(targetSize: PixelSize(width: 400, height: 225))
/// // Or by the longest side, whatever the aspect ratio: at least 400 px on the longer side.
/// let bounded = DecodingOptions(maxPixelSize: 400)
/// ```
public struct DecodingOptions: Hashable, Sendable {
  /// The smallest size the caller needs, in displayed orientation. Decoders may return any size
  /// at least this large in both dimensions (never larger than the image), shrinking while
  /// decoding where the format allows. `nil` decodes at full size.
  public var targetSize: PixelSize?
  /// The longest side the caller needs: the image may be shrunk while decoding as long as its
  /// longer side stays at least this long. Combined with `targetSize`, the larger need wins.
  public var maxPixelSize: Int?
  /// Resource limits (dimensions, scans, chunks, input size).
  public var limits: DecodingLimits
  /// Rotate and flip the pixels as the EXIF orientation says, so they come out upright.
  public var appliesOrientation: Bool

  public init(
    targetSize: PixelSize? = nil, maxPixelSize: Int? = nil, limits: DecodingLimits = .default,
    appliesOrientation: Bool = true
  ) {
    self.targetSize = targetSize
    self.maxPixelSize = maxPixelSize
    self.limits = limits
    self.appliesOrientation = appliesOrientation
  }

  public static let `default` = DecodingOptions()

  /// The size a decoder must cover, in stored orientation (width and height swap for
  /// orientations that turn by 90°); `nil` for full size.
  func storedTargetSize(for info: ImageInfo) -> PixelSize? {
    let stored = PixelSize(width: info.width, height: info.height)
    var target = targetSize.map { appliesOrientation && info.orientation.swapsDimensions ? $0.transposed : $0 }
    if let maxPixelSize, maxPixelSize > 0 {
      let scale = min(1, Double(maxPixelSize) / Double(max(stored.width, stored.height)))
      let bounded = PixelSize(
        width: max(1, Int((Double(stored.width) * scale).rounded(.up))),
        height: max(1, Int((Double(stored.height) * scale).rounded(.up))))
      target =
        target.map { PixelSize(width: max($0.width, bounded.width), height: max($0.height, bounded.height)) }
        ?? bounded
    }
    return target
  }
}

/// A width and a height in pixels.
public struct PixelSize: Hashable, Sendable, CustomStringConvertible {
  public var width: Int
  public var height: Int

  public init(width: Int, height: Int) {
    self.width = width
    self.height = height
  }

  public var transposed: PixelSize { PixelSize(width: height, height: width) }
  public var description: String { "\(width)x\(height)" }

  /// The largest power-of-two divisor (up to `maxDenominator`) of `self` whose result,
  /// rounded up, still covers `target` in both dimensions.
  func shrinkDenominator(toCover target: PixelSize, maxDenominator: Int) -> Int {
    var denominator = 1
    while denominator * 2 <= maxDenominator {
      let next = denominator * 2
      let width = (self.width + next - 1) / next
      let height = (self.height + next - 1) / next
      guard width >= target.width, height >= target.height else { break }
      denominator = next
    }
    return denominator
  }
}
