/// Resource limits a decoder enforces, so hostile input cannot exhaust memory or time.
///
/// Dimensions are checked from the header, before any pixel memory is allocated.
///
/// ```swift
/// var limits = DecodingLimits.default
/// limits.maxPixels = 25_000_000
/// let options = DecodingOptions(limits: limits)
/// ```
public struct DecodingLimits: Hashable, Sendable {
  /// Largest accepted width times height (default 100 megapixels).
  public var maxPixels: Int = 100_000_000
  /// Largest accepted width and height, each (default 65,535, the JPEG and WebP maximum).
  public var maxDimension: Int = 65_535
  /// Largest accepted input, in bytes (default 256 MiB).
  public var maxInputBytes: Int = 256 * 1024 * 1024
  /// Most scans accepted in a progressive JPEG (default 500; real files use about 10).
  public var maxProgressiveScans: Int = 500
  /// Largest PNG ancillary chunk held in memory, in bytes (default 8 MiB).
  public var maxPNGChunkBytes: Int = 8 * 1024 * 1024
  /// Most PNG ancillary chunks kept (default 1,000).
  public var maxPNGChunkCount: Int = 1_000
  /// Most animation frames looked at when counting frames (default 10,000).
  public var maxFrames: Int = 10_000

  public init() {}

  /// The defaults.
  public static let `default` = DecodingLimits()

  /// Throws ``ImagoError/tooLarge(width:height:limit:)`` when the dimensions break a limit.
  public func check(width: Int, height: Int) throws(ImagoError) {
    guard width > 0, height > 0 else {
      throw .invalidArgument("image has zero size \(width)x\(height)")
    }
    if width > maxDimension || height > maxDimension {
      throw .tooLarge(width: width, height: height, limit: "the maximum side of \(maxDimension) pixels")
    }
    if width.multipliedReportingOverflow(by: height).overflow || width * height > maxPixels {
      throw .tooLarge(width: width, height: height, limit: "the limit of \(maxPixels) pixels")
    }
  }
}
