internal import CImagoShims
import Foundation

/// Encodes 8-bit PNG with libpng in the pixels' own layout (gray, gray+alpha, RGB, RGBA).
///
/// ```swift
/// let data = try PNGEncoder().encode(pixels, options: EncodingOptions(compressionLevel: 9))
/// ```
public struct PNGEncoder: ImageEncoding {
  public init() {}

  public var format: ImageFormat { .png }

  public func encode(_ pixels: PixelBuffer, options: EncodingOptions) throws -> Data {
    guard (0...9).contains(options.compressionLevel) else {
      throw ImagoError.invalidArgument("PNG compression level \(options.compressionLevel) is not in 0...9")
    }
    let straight = pixels.unpremultiplied()
    let colorType: Int32 =
      switch straight.format.layout {
      case .gray: 0
      case .rgb: 2
      case .grayAlpha: 4
      case .rgba: 6
      }
    return try ShimEncoding.run(straight, format: .png) { pixels, output, length, message, capacity in
      CImagoShims_png_encode(
        pixels, UInt32(straight.width), UInt32(straight.height), straight.bytesPerRow, colorType,
        Int32(options.compressionLevel), options.progressive ? 1 : 0, &output, &length, message, capacity)
    }
  }
}
