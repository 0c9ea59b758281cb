internal import CImagoShims
import Foundation

/// Decodes baseline and progressive JPEG with libjpeg-turbo, shrinking by 1/2, 1/4 or 1/8 in the
/// DCT when a target size allows, converting gray, YCbCr, RGB, CMYK and YCCK to gray8 or rgb8.
///
/// ```swift
/// let thumb = try JPEGDecoder().decode(data, options: DecodingOptions(targetSize: PixelSize(width: 400, height: 225)))
/// ```
public struct JPEGDecoder: ImageDecoding {
  public init() {}

  public func canDecode(_ data: Data) -> Bool { ImageFormat.detect(in: data) == .jpeg }

  public func info(for data: Data, limits: DecodingLimits) throws -> ImageInfo {
    try data.withUnsafeBytes { raw throws(ImagoError) in
      let session = try JPEGSession(raw, limits: limits)
      return try session.readHeader().info
    }
  }

  public func decode(_ data: Data, options: DecodingOptions) throws -> DecodedImage {
    try data.withUnsafeBytes { raw throws(ImagoError) in
      let session = try JPEGSession(raw, limits: options.limits)
      let header = try session.readHeader()
      let info = header.info
      try options.limits.check(width: info.width, height: info.height)

      let stored = PixelSize(width: info.width, height: info.height)
      let denominator =
        options.storedTargetSize(for: info)
        .map { stored.shrinkDenominator(toCover: $0, maxDenominator: 8) } ?? 1
      let isCMYK =
        header.raw.colorSpace == CImagoShims_JPEGColorCMYK || header.raw.colorSpace == CImagoShims_JPEGColorYCCK
      let outputColor =
        header.raw.colorSpace == CImagoShims_JPEGColorGray
        ? CImagoShims_JPEGColorGray : isCMYK ? CImagoShims_JPEGColorCMYK : CImagoShims_JPEGColorRGB
      let size = try session.start(denominator: denominator, color: outputColor)

      var pixels: PixelBuffer
      if isCMYK {
        let cmyk = try session.readPixels(size: size, channels: 4)
        pixels = Self.rgb(fromCMYK: cmyk, size: size, inverted: header.raw.adobeMarker != 0)
      } else {
        let format: PixelFormat = outputColor == CImagoShims_JPEGColorGray ? .gray8 : .rgb8
        pixels = try PixelBuffer(width: size.width, height: size.height, format: format) { buffer throws(ImagoError) in
          try session.readRows(into: buffer, stride: size.width * format.bytesPerPixel, rows: size.height)
        }
      }
      try session.finish()
      if options.appliesOrientation { pixels = pixels.oriented(info.orientation) }
      return DecodedImage(pixels: pixels, info: info)
    }
  }

  /// CMYK to RGB. Adobe (Photoshop) files store CMYK inverted, which libjpeg passes through.
  static func rgb(fromCMYK cmyk: [UInt8], size: PixelSize, inverted: Bool) -> PixelBuffer {
    PixelBuffer(width: size.width, height: size.height, format: .rgb8) { output in
      cmyk.withUnsafeBufferPointer { input in
        let flip = inverted ? 0 : 255
        var outIndex = 0
        var inIndex = 0
        for _ in 0..<(size.width * size.height) {
          let black = Int(input[inIndex + 3]) ^ flip
          for channel in 0..<3 {
            let ink = Int(input[inIndex + channel]) ^ flip
            output[outIndex + channel] = UInt8(truncatingIfNeeded: PixelMath.multiply(ink, black))
          }
          inIndex += 4
          outIndex += 3
        }
      }
    }
  }
}

/// One libjpeg decompression over bytes that outlive it; every call goes through the C shim.
final class JPEGSession {
  struct Header {
    var raw: CImagoShims_JPEGHeader
    var info: ImageInfo
  }

  private let decoder: OpaquePointer

  init(_ data: UnsafeRawBufferPointer, limits: DecodingLimits) throws(ImagoError) {
    guard let base = data.baseAddress, !data.isEmpty else { throw .emptyData }
    // Coefficient buffers of a progressive JPEG take up to 8 bytes per pixel (4 components).
    let maxMemory = limits.maxPixels.multipliedReportingOverflow(by: 8).partialValue + 64 << 20
    guard
      let decoder = CImagoShims_jpeg_decoder_create(
        base.assumingMemoryBound(to: UInt8.self), data.count, Int32(clamping: limits.maxProgressiveScans), maxMemory)
    else { throw .outOfMemory(format: .jpeg) }
    self.decoder = decoder
  }

  deinit { CImagoShims_jpeg_decoder_destroy(decoder) }

  private func failure() -> ImagoError {
    let message = String(cString: CImagoShims_jpeg_error_message(decoder))
    switch CImagoShims_jpeg_error_kind(decoder) {
    case CImagoShims_ErrorTruncated: return .truncatedData(format: .jpeg, reason: message)
    case CImagoShims_ErrorTooManyScans, CImagoShims_ErrorLimit: return .limitExceeded(format: .jpeg, limit: message)
    case CImagoShims_ErrorOutOfMemory: return .outOfMemory(format: .jpeg)
    default: return .corruptData(format: .jpeg, reason: message)
    }
  }

  func readHeader() throws(ImagoError) -> Header {
    var raw = CImagoShims_JPEGHeader()
    guard CImagoShims_jpeg_read_header(decoder, &raw) == 0 else { throw failure() }
    var orientation = ImageOrientation.up
    if let exif = raw.exif, raw.exifLength > 0 {
      orientation = EXIFReader.orientation(in: UnsafeBufferPointer(start: exif, count: raw.exifLength)) ?? .up
    }
    let info = ImageInfo(
      format: .jpeg, width: Int(raw.width), height: Int(raw.height), hasAlpha: false, orientation: orientation,
      frameCount: 1, isProgressive: raw.progressive != 0)
    return Header(raw: raw, info: info)
  }

  func start(denominator: Int, color: CImagoShims_JPEGColorSpace) throws(ImagoError) -> PixelSize {
    var width: UInt32 = 0
    var height: UInt32 = 0
    guard CImagoShims_jpeg_start(decoder, UInt32(denominator), color, &width, &height) == 0 else { throw failure() }
    return PixelSize(width: Int(width), height: Int(height))
  }

  func readRows(into buffer: UnsafeMutableRawBufferPointer, stride: Int, rows: Int) throws(ImagoError) {
    var read: UInt32 = 0
    let destination = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
    guard CImagoShims_jpeg_read_rows(decoder, destination, stride, UInt32(rows), &read) == 0 else { throw failure() }
    if CImagoShims_jpeg_hit_end_of_data(decoder) != 0 {
      throw .truncatedData(format: .jpeg, reason: "the data ends before the last scan line")
    }
    guard read == rows else { throw .corruptData(format: .jpeg, reason: "decoded \(read) of \(rows) rows") }
  }

  func readPixels(size: PixelSize, channels: Int) throws(ImagoError) -> [UInt8] {
    let count = size.width * size.height * channels
    var failure: ImagoError?
    let bytes = [UInt8](unsafeUninitializedCapacity: count) { storage, initialized in
      do throws(ImagoError) {
        try readRows(into: UnsafeMutableRawBufferPointer(storage), stride: size.width * channels, rows: size.height)
        initialized = count
      } catch {
        failure = error
        initialized = 0
      }
    }
    if let failure { throw failure }
    return bytes
  }

  func finish() throws(ImagoError) {
    guard CImagoShims_jpeg_finish(decoder) == 0 else { throw failure() }
  }
}
