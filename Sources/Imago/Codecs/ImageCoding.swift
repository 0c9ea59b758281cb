import Foundation

/// Decodes one or more image formats into pixels.
///
/// Register a custom decoder ahead of the built-ins with ``CoderRegistry/registering(decoder:)``.
///
/// ```swift
/// struct MyGIFDecoder: ImageDecoding {
///   func canDecode(_ data: Data) -> Bool { ImageFormat.detect(in: data) == .gif }
///   func info(for data: Data, limits: DecodingLimits) throws -> ImageInfo { ... }
///   func decode(_ data: Data, options: DecodingOptions) throws -> DecodedImage { ... }
/// }
/// ```
public protocol ImageDecoding: Sendable {
  /// Whether this decoder takes the data; a cheap look at the first bytes.
  func canDecode(_ data: Data) -> Bool
  /// Reads the header only: format, stored size, alpha, orientation, frames.
  func info(for data: Data, limits: DecodingLimits) throws -> ImageInfo
  /// Decodes pixels, possibly reduced to cover `options.targetSize`, upright when asked.
  func decode(_ data: Data, options: DecodingOptions) throws -> DecodedImage
}

/// Encodes pixels into one image format.
///
/// ```swift
/// let jpeg = try JPEGEncoder().encode(pixels, options: EncodingOptions(quality: 80))
/// ```
public protocol ImageEncoding: Sendable {
  /// The format this encoder writes.
  var format: ImageFormat { get }
  func encode(_ pixels: PixelBuffer, options: EncodingOptions) throws -> Data
}

/// How to encode; each encoder reads the fields that apply to its format.
public struct EncodingOptions: Hashable, Sendable {
  /// Lossy quality, 1...100 (JPEG, lossy WebP). Default 85.
  public var quality: Int
  /// JPEG: write a progressive file. PNG: write Adam7 interlaced.
  public var progressive: Bool
  /// PNG: zlib compression level, 0...9. Default 6.
  public var compressionLevel: Int
  /// WebP: encode losslessly.
  public var lossless: Bool
  /// JPEG: keep full-resolution chroma (4:4:4) instead of 4:2:0.
  public var fullChroma: Bool
  /// JPEG: optimise Huffman tables (smaller file, slower encode).
  public var optimizeCoding: Bool
  /// The colour transparent pixels are blended onto when the format has no alpha (JPEG).
  public var background: RGBAColor

  public init(
    quality: Int = 85, progressive: Bool = false, compressionLevel: Int = 6, lossless: Bool = false,
    fullChroma: Bool = false, optimizeCoding: Bool = false, background: RGBAColor = .white
  ) {
    self.background = background
    self.quality = quality
    self.progressive = progressive
    self.compressionLevel = compressionLevel
    self.lossless = lossless
    self.fullChroma = fullChroma
    self.optimizeCoding = optimizeCoding
  }

  public static let `default` = EncodingOptions()

  func validatedQuality() throws(ImagoError) -> Int {
    guard (1...100).contains(quality) else { throw .invalidArgument("quality \(quality) is not in 1...100") }
    return quality
  }
}
