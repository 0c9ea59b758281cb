import Foundation

/// The ordered list of decoders and encoders: the first decoder that takes the data wins,
/// encoders are found by format.
///
/// ```swift
/// let registry = CoderRegistry.default.registering(decoder: MyGIFDecoder())
/// let image = try registry.decode(data, options: DecodingOptions(targetSize: PixelSize(width: 400, height: 300)))
/// let webp = try registry.encode(image.pixels, as: .webp, options: EncodingOptions(quality: 80))
/// ```
public struct CoderRegistry: Sendable {
  public private(set) var decoders: [any ImageDecoding]
  public private(set) var encoders: [any ImageEncoding]

  public init(decoders: [any ImageDecoding], encoders: [any ImageEncoding]) {
    self.decoders = decoders
    self.encoders = encoders
  }

  /// JPEG (libjpeg-turbo), PNG (libpng) and WebP (libwebp), decoding and encoding.
  public static let `default` = CoderRegistry(
    decoders: [JPEGDecoder(), PNGDecoder(), WebPDecoder()],
    encoders: [JPEGEncoder(), PNGEncoder(), WebPEncoder()]
  )

  /// A copy with `decoder` tried before all others.
  public func registering(decoder: any ImageDecoding) -> CoderRegistry {
    var copy = self
    copy.decoders.insert(decoder, at: 0)
    return copy
  }

  /// A copy with `encoder` preferred over any other of its format.
  public func registering(encoder: any ImageEncoding) -> CoderRegistry {
    var copy = self
    copy.encoders.insert(encoder, at: 0)
    return copy
  }

  /// The first decoder that takes `data`.
  public func decoder(for data: Data) throws(ImagoError) -> any ImageDecoding {
    if data.isEmpty { throw .emptyData }
    if let decoder = decoders.first(where: { $0.canDecode(data) }) { return decoder }
    if let format = ImageFormat.detect(in: data) { throw .unsupportedFormat(format) }
    throw .unknownFormat
  }

  /// The encoder for `format`.
  public func encoder(for format: ImageFormat) throws(ImagoError) -> any ImageEncoding {
    guard let encoder = encoders.first(where: { $0.format == format }) else { throw .unsupportedFormat(format) }
    return encoder
  }

  /// Reads the header of `data` with the decoder that takes it.
  public func info(for data: Data, limits: DecodingLimits = .default) throws -> ImageInfo {
    try decoder(for: data).info(for: data, limits: limits)
  }

  /// Decodes `data` with the decoder that takes it.
  public func decode(_ data: Data, options: DecodingOptions = .default) throws -> DecodedImage {
    let decoder = try decoder(for: data)
    guard data.count <= options.limits.maxInputBytes else {
      throw ImagoError.limitExceeded(
        format: ImageFormat.detect(in: data) ?? "image",
        limit: "input of \(data.count) bytes is over the limit of \(options.limits.maxInputBytes) bytes")
    }
    return try decoder.decode(data, options: options)
  }

  /// Encodes `pixels` as `format`.
  public func encode(_ pixels: PixelBuffer, as format: ImageFormat, options: EncodingOptions = .default) throws -> Data
  {
    try encoder(for: format).encode(pixels, options: options)
  }
}
