public import Foundation

/// What a processor receives: still-encoded bytes (first in a chain) or decoded pixels.
public enum ImageProcessItem: Sendable {
  case data(Data)
  case image(PixelBuffer)
}

/// Turns an image (encoded or decoded) into pixels; the unit of an image pipeline.
///
/// The `identifier` is part of cache keys: equal parameters give equal identifiers, and a change
/// to a processor's output must change its identifier (each carries a version).
///
/// ```swift
/// let thumbnail: some ImageProcessing = .resize(width: 400) |> .sharpen()
/// let pixels = try thumbnail.process(.data(jpegData), context: .default)
/// ```
public protocol ImageProcessing: Sendable {
  /// Stable, canonical and versioned: a cache key component. `""` means "decode only".
  var identifier: String { get }
  func process(_ item: ImageProcessItem, context: ImageProcessingContext) throws -> PixelBuffer
}

/// A processor that works on pixels: when it receives encoded data it decodes it first, at the
/// reduced size ``decodingTarget(for:)`` asks for (shrink-on-load).
public protocol PixelProcessor: ImageProcessing {
  /// Transforms decoded pixels.
  func process(_ image: PixelBuffer, context: ImageProcessingContext) throws -> PixelBuffer
  /// The smallest decoded size this processor needs from an image of `sourceSize` (as displayed);
  /// `nil` for full size. Default: `nil`.
  func decodingTarget(for sourceSize: PixelSize) -> PixelSize?
  /// Throws ``ImagoError/invalidArgument(_:)`` when a parameter is out of range. Default: valid.
  func validate() throws(ImagoError)
}

extension PixelProcessor {
  public func decodingTarget(for sourceSize: PixelSize) -> PixelSize? { nil }
  public func validate() throws(ImagoError) {}

  public func process(_ item: ImageProcessItem, context: ImageProcessingContext) throws -> PixelBuffer {
    try validate()
    switch item {
    case .image(let image):
      return try process(image, context: context)
    case .data(let data):
      return try process(context.decode(data, target: decodingTarget(for:)), context: context)
    }
  }
}

/// What processors share: the coders to decode with and the decoding limits.
public struct ImageProcessingContext: Sendable {
  public var coders: CoderRegistry
  /// Limits and orientation handling; the target size is set by the processor.
  public var decodingOptions: DecodingOptions

  public init(coders: CoderRegistry = .default, decodingOptions: DecodingOptions = .default) {
    self.coders = coders
    self.decodingOptions = decodingOptions
  }

  public static let `default` = ImageProcessingContext()

  /// Decodes `data`, asking `target` for the size needed given the displayed source size.
  public func decode(_ data: Data, target: (PixelSize) -> PixelSize?) throws -> PixelBuffer {
    let decoder = try coders.decoder(for: data)
    let info = try decoder.info(for: data, limits: decodingOptions.limits)
    var options = decodingOptions
    let displayed =
      options.appliesOrientation ? info.orientedSize : PixelSize(width: info.width, height: info.height)
    options.targetSize = target(displayed)
    return try coders.decode(data, options: options).pixels
  }
}

/// Decodes at full size and does nothing else; identifier `""`.
///
/// ```swift
/// let pixels = try DefaultImageProcessor().process(.data(data), context: .default)
/// ```
public struct DefaultImageProcessor: PixelProcessor, Hashable {
  public init() {}
  public var identifier: String { "" }
  public func process(_ image: PixelBuffer, context: ImageProcessingContext) throws -> PixelBuffer { image }
}

extension ImageProcessing where Self == DefaultImageProcessor {
  /// Decode only.
  public static var `default`: DefaultImageProcessor { DefaultImageProcessor() }
}
