internal import CImagoShims
import Foundation

/// Encodes JPEG with libjpeg-turbo: quality, progressive, 4:2:0 or 4:4:4 chroma.
///
/// Alpha is blended onto `options.background`, since JPEG cannot hold it; gray stays gray.
///
/// ```swift
/// let data = try JPEGEncoder().encode(pixels, options: EncodingOptions(quality: 80, progressive: true))
/// ```
public struct JPEGEncoder: ImageEncoding {
  public init() {}

  public var format: ImageFormat { .jpeg }

  public func encode(_ pixels: PixelBuffer, options: EncodingOptions) throws -> Data {
    let quality = try options.validatedQuality()
    let target: PixelFormat = pixels.format.isGray ? .gray8 : .rgb8
    let opaque = pixels.converted(to: target, background: options.background)
    return try ShimEncoding.run(opaque, format: .jpeg) { pixels, output, length, message, capacity in
      CImagoShims_jpeg_encode(
        pixels, UInt32(opaque.width), UInt32(opaque.height), opaque.bytesPerRow, Int32(target.channelCount),
        Int32(quality), options.progressive ? 1 : 0, options.fullChroma ? 1 : 0, options.optimizeCoding ? 1 : 0,
        &output, &length, message, capacity)
    }
  }
}
