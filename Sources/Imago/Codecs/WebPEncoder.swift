internal import CImagoWebP
import Foundation

/// Encodes WebP with libwebp, lossy (quality) or lossless, keeping alpha when there is any.
///
/// ```swift
/// let data = try WebPEncoder().encode(pixels, options: EncodingOptions(quality: 80))
/// ```
public struct WebPEncoder: ImageEncoding {
  public init() {}

  public var format: ImageFormat { .webp }

  /// The largest width or height WebP can store.
  public static let maxDimension = 16_383

  public func encode(_ pixels: PixelBuffer, options: EncodingOptions) throws -> Data {
    let quality = try options.validatedQuality()
    guard pixels.width <= Self.maxDimension, pixels.height <= Self.maxDimension else {
      throw ImagoError.encodingFailed(
        format: .webp, reason: "\(pixels.width)x\(pixels.height) exceeds WebP's maximum side of \(Self.maxDimension)")
    }
    let target: PixelFormat = pixels.format.hasAlpha ? .rgba8 : .rgb8
    let input = pixels.converted(to: target)
    var output: UnsafeMutablePointer<UInt8>?
    let length = input.withUnsafeBytes { raw -> Int in
      let base = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
      let (width, height, stride) = (Int32(input.width), Int32(input.height), Int32(input.bytesPerRow))
      switch (target.hasAlpha, options.lossless) {
      case (true, true): return WebPEncodeLosslessRGBA(base, width, height, stride, &output)
      case (true, false): return WebPEncodeRGBA(base, width, height, stride, Float(quality), &output)
      case (false, true): return WebPEncodeLosslessRGB(base, width, height, stride, &output)
      case (false, false): return WebPEncodeRGB(base, width, height, stride, Float(quality), &output)
      }
    }
    guard length > 0, let output else {
      throw ImagoError.encodingFailed(format: .webp, reason: "libwebp could not encode \(input.width)x\(input.height)")
    }
    return Data(bytesNoCopy: output, count: length, deallocator: .custom { pointer, _ in WebPFree(pointer) })
  }
}
