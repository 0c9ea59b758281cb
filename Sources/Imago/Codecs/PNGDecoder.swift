internal import CImagoShims
import Foundation

/// Decodes every PNG colour type, bit depth and interlacing with libpng, to 8-bit gray,
/// gray+alpha, RGB or RGBA (palette expanded, tRNS made alpha, 16 bits scaled to 8).
///
/// With a target size a non-interlaced PNG is reduced by an integer box filter as its rows
/// are read, so a 5K PNG never needs its full-size buffer for a thumbnail. Interlaced
/// (Adam7) PNGs need every pass before any row is final, so they decode at full size.
///
/// ```swift
/// let image = try PNGDecoder().decode(data, options: .default)
/// ```
public struct PNGDecoder: ImageDecoding {
  public init() {}

  public func canDecode(_ data: Data) -> Bool { ImageFormat.detect(in: data) == .png }

  public func info(for data: Data, limits: DecodingLimits) throws -> ImageInfo {
    try data.withUnsafeBytes { raw throws(ImagoError) in
      // Only the header is read, so no dimension limit applies: info reports any size.
      let session = try PNGSession(raw, limits: limits, maxDimension: PNGSession.largestDimension)
      return try session.readHeader(frameCount: PNGChunks.frameCount(raw)).info
    }
  }

  public func decode(_ data: Data, options: DecodingOptions) throws -> DecodedImage {
    try data.withUnsafeBytes { raw throws(ImagoError) in
      try Self.checkHeaderDimensions(raw, limits: options.limits)
      let session = try PNGSession(raw, limits: options.limits, maxDimension: options.limits.maxDimension)
      let header = try session.readHeader(frameCount: PNGChunks.frameCount(raw))
      let info = header.info
      let format = header.pixelFormat
      let stored = PixelSize(width: info.width, height: info.height)
      let factor =
        header.raw.interlaced != 0
        ? 1 : options.storedTargetSize(for: info).map { stored.boxFactor(toCover: $0) } ?? 1

      var pixels: PixelBuffer
      if factor > 1 {
        pixels = try session.readReduced(size: stored, format: format, rowBytes: header.raw.rowBytes, factor: factor)
      } else {
        pixels = try PixelBuffer(width: stored.width, height: stored.height, format: format) {
          buffer throws(ImagoError) in
          try session.readImage(into: buffer, rowBytes: header.raw.rowBytes, height: stored.height)
        }
      }
      // Nothing after the last row is read: inflating trailing IDAT data only to discard it
      // would let a small file cost minutes of CPU (1000:1 zlib bombs). Critical-chunk CRCs are
      // checked as the rows are read.
      if options.appliesOrientation { pixels = pixels.oriented(info.orientation) }
      return DecodedImage(pixels: pixels, info: info)
    }
  }

  /// Checks the IHDR size before libpng allocates anything, so the error names the dimensions;
  /// then refuses image data larger than the image can need. libpng inflates (and discards)
  /// whatever compressed data follows the last row, so a small file whose IDAT inflates to
  /// gigabytes would cost minutes of CPU; no real encoder writes more IDAT than the raw rows
  /// plus deflate's stored-block overhead.
  private static func checkHeaderDimensions(_ data: UnsafeRawBufferPointer, limits: DecodingLimits) throws(ImagoError) {
    guard let size = PNGChunks.headerSize(data) else { return }
    try limits.check(width: size.width, height: size.height)
    if let needed = PNGChunks.largestPlausibleIDAT(data), case let present = PNGChunks.idatBytes(data), present > needed
    {
      throw .corruptData(
        format: .png, reason: "\(present) bytes of image data for an image that needs at most \(needed)")
    }
  }
}

extension PixelSize {
  /// The largest integer factor (at most 128, which keeps the box sums within 32 bits) whose
  /// result, rounded up, still covers `target`.
  func boxFactor(toCover target: PixelSize) -> Int {
    guard target.width > 0, target.height > 0 else { return 1 }
    var factor = max(1, min(width / target.width, height / target.height, 128))
    while factor > 1 && ((width + factor - 1) / factor < target.width || (height + factor - 1) / factor < target.height)
    {
      factor -= 1
    }
    return factor
  }
}

/// Reads PNG chunk headers without libpng: the IHDR size and the APNG frame count.
enum PNGChunks {
  private static func uint32(_ data: UnsafeRawBufferPointer, _ offset: Int) -> Int {
    data[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
  }

  static func headerSize(_ data: UnsafeRawBufferPointer) -> PixelSize? {
    guard data.count >= 24, uint32(data, 8) == 13, Array(data[12..<16]) == Array("IHDR".utf8) else { return nil }
    return PixelSize(width: uint32(data, 16), height: uint32(data, 20))
  }

  /// The most IDAT bytes a valid encoder can write for this IHDR: every row's bytes (and filter
  /// byte, per interlace pass) stored uncompressed, plus deflate's and zlib's overhead.
  static func largestPlausibleIDAT(_ data: UnsafeRawBufferPointer) -> Int? {
    guard let size = headerSize(data), data.count >= 29 else { return nil }
    let (bitDepth, colorType, interlaced) = (Int(data[24]), Int(data[25]), data[28] != 0)
    let channels = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][colorType] ?? 4
    let rowBytes = (size.width * channels * max(bitDepth, 1) + 7) / 8
    let raw = size.height * (rowBytes + 1) + (interlaced ? 7 * (size.height + rowBytes) : 0)
    return raw + raw / 1000 + 64 * 1024
  }

  /// The total length of the IDAT chunks.
  static func idatBytes(_ data: UnsafeRawBufferPointer) -> Int {
    var offset = 8
    var total = 0
    while offset + 12 <= data.count {
      let length = uint32(data, offset)
      if Array(data[offset + 4..<offset + 8]) == Array("IDAT".utf8) { total += length }
      guard length <= data.count else { break }
      offset += 12 + length
    }
    return total
  }

  /// The number of frames an `acTL` chunk before the image data declares; 1 when there is none.
  static func frameCount(_ data: UnsafeRawBufferPointer) -> Int {
    var offset = 8
    while offset + 12 <= data.count {
      let length = uint32(data, offset)
      let type = Array(data[offset + 4..<offset + 8])
      if type == Array("IDAT".utf8) { break }
      if type == Array("acTL".utf8), length >= 8 {
        return max(1, uint32(data, offset + 8))
      }
      guard length <= data.count else { break }
      offset += 12 + length
    }
    return 1
  }
}

/// One libpng read over bytes that outlive it; every call goes through the C shim.
final class PNGSession {
  struct Header {
    var raw: CImagoShims_PNGHeader
    var info: ImageInfo
    var pixelFormat: PixelFormat
  }

  private let decoder: OpaquePointer

  /// The largest width or height the PNG format allows.
  static let largestDimension = 0x7FFF_FFFF

  init(_ data: UnsafeRawBufferPointer, limits: DecodingLimits, maxDimension: Int) throws(ImagoError) {
    guard let base = data.baseAddress, !data.isEmpty else { throw .emptyData }
    guard
      let decoder = CImagoShims_png_decoder_create(
        base.assumingMemoryBound(to: UInt8.self), data.count, UInt32(clamping: maxDimension),
        UInt32(clamping: maxDimension), UInt32(clamping: limits.maxPNGChunkCount), limits.maxPNGChunkBytes)
    else { throw .outOfMemory(format: .png) }
    self.decoder = decoder
  }

  deinit { CImagoShims_png_decoder_destroy(decoder) }

  private func failure() -> ImagoError {
    let message = String(cString: CImagoShims_png_error_message(decoder))
    switch CImagoShims_png_error_kind(decoder) {
    case CImagoShims_ErrorTruncated: return .truncatedData(format: .png, reason: message)
    case CImagoShims_ErrorLimit: return .limitExceeded(format: .png, limit: message)
    case CImagoShims_ErrorOutOfMemory: return .outOfMemory(format: .png)
    default: return .corruptData(format: .png, reason: message)
    }
  }

  func readHeader(frameCount: Int) throws(ImagoError) -> Header {
    var raw = CImagoShims_PNGHeader()
    guard CImagoShims_png_read_header(decoder, &raw) == 0 else { throw failure() }
    let format: PixelFormat
    switch raw.channels {
    case 1: format = .gray8
    case 2: format = .grayAlpha8
    case 3: format = .rgb8
    case 4: format = .rgba8
    default: throw .corruptData(format: .png, reason: "unexpected \(raw.channels) channels after expansion")
    }
    var orientation = ImageOrientation.up
    if let exif = raw.exif, raw.exifLength > 0 {
      orientation = EXIFReader.orientation(in: UnsafeBufferPointer(start: exif, count: raw.exifLength)) ?? .up
    }
    let info = ImageInfo(
      format: .png, width: Int(raw.width), height: Int(raw.height), hasAlpha: format.hasAlpha,
      orientation: orientation, frameCount: frameCount, isProgressive: raw.interlaced != 0)
    return Header(raw: raw, info: info, pixelFormat: format)
  }

  func readImage(into buffer: UnsafeMutableRawBufferPointer, rowBytes: Int, height: Int) throws(ImagoError) {
    let base = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
    var rows = (0..<height).map { Optional(base + $0 * rowBytes) }
    guard CImagoShims_png_read_image(decoder, &rows) == 0 else { throw failure() }
  }

  /// Reads `factor` rows at a time and averages `factor` x `factor` blocks (alpha-weighted) as
  /// they come, so only one block of rows is ever held.
  func readReduced(size: PixelSize, format: PixelFormat, rowBytes: Int, factor: Int) throws(ImagoError) -> PixelBuffer {
    let channels = format.channelCount
    let outWidth = (size.width + factor - 1) / factor
    let outHeight = (size.height + factor - 1) / factor
    var rowStorage = [UInt8](repeating: 0, count: rowBytes * factor)
    var sums = [UInt32](repeating: 0, count: outWidth * channels)
    var rowPointers = [UnsafeMutablePointer<UInt8>?](repeating: nil, count: factor)
    return try PixelBuffer(width: outWidth, height: outHeight, format: format) { output throws(ImagoError) in
      try rowStorage.withUnsafeMutableBufferPointer { storage throws(ImagoError) in
        for row in 0..<factor { rowPointers[row] = storage.baseAddress! + row * rowBytes }
        for outY in 0..<outHeight {
          let rowsInBlock = min(factor, size.height - outY * factor)
          guard CImagoShims_png_read_rows(decoder, &rowPointers, UInt32(rowsInBlock)) == 0 else { throw failure() }
          sums.withUnsafeMutableBufferPointer { sums in
            sums.update(repeating: 0)
            BoxReducer.accumulate(
              rows: UnsafeBufferPointer(storage), rowBytes: rowBytes, rowCount: rowsInBlock, width: size.width,
              channels: channels, hasAlpha: format.hasAlpha, factor: factor, into: sums)
            let destination = UnsafeMutableBufferPointer(
              start: output.baseAddress!.assumingMemoryBound(to: UInt8.self) + outY * outWidth * channels,
              count: outWidth * channels)
            BoxReducer.emit(
              sums: UnsafeBufferPointer(sums), width: size.width, rowCount: rowsInBlock, channels: channels,
              hasAlpha: format.hasAlpha, factor: factor, into: destination)
          }
        }
      }
    }
  }
}

/// Integer box averaging of `factor` x `factor` blocks; colour weighted by alpha so that
/// transparent pixels do not darken their neighbours.
enum BoxReducer {
  static func accumulate(
    rows: UnsafeBufferPointer<UInt8>, rowBytes: Int, rowCount: Int, width: Int, channels: Int, hasAlpha: Bool,
    factor: Int, into sums: UnsafeMutableBufferPointer<UInt32>
  ) {
    let sums = sums.baseAddress!
    for row in 0..<rowCount {
      let input = rows.baseAddress! + row * rowBytes
      // Walk block by block, so the inner loop has no division and a fixed channel count.
      var x = 0
      var block = sums
      while x < width {
        let end = min(x + factor, width)
        switch (channels, hasAlpha) {
        case (3, _):
          var (r, g, b): (UInt32, UInt32, UInt32) = (0, 0, 0)
          for pixel in x..<end {
            r &+= UInt32(input[pixel * 3])
            g &+= UInt32(input[pixel * 3 + 1])
            b &+= UInt32(input[pixel * 3 + 2])
          }
          block[0] &+= r
          block[1] &+= g
          block[2] &+= b
        case (4, true):
          var (r, g, b, a): (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)
          for pixel in x..<end {
            let alpha = UInt32(input[pixel * 4 + 3])
            r &+= UInt32(input[pixel * 4]) &* alpha
            g &+= UInt32(input[pixel * 4 + 1]) &* alpha
            b &+= UInt32(input[pixel * 4 + 2]) &* alpha
            a &+= alpha
          }
          block[0] &+= r
          block[1] &+= g
          block[2] &+= b
          block[3] &+= a
        case (_, true):
          for pixel in x..<end {
            let alpha = UInt32(input[pixel * channels + channels - 1])
            for channel in 0..<(channels - 1) { block[channel] &+= UInt32(input[pixel * channels + channel]) &* alpha }
            block[channels - 1] &+= alpha
          }
        default:
          for pixel in x..<end {
            for channel in 0..<channels { block[channel] &+= UInt32(input[pixel * channels + channel]) }
          }
        }
        x = end
        block += channels
      }
    }
  }

  static func emit(
    sums: UnsafeBufferPointer<UInt32>, width: Int, rowCount: Int, channels: Int, hasAlpha: Bool, factor: Int,
    into output: UnsafeMutableBufferPointer<UInt8>
  ) {
    let outWidth = (width + factor - 1) / factor
    let alphaIndex = channels - 1
    for outX in 0..<outWidth {
      let count = UInt32(min(factor, width - outX * factor) * rowCount)
      let index = outX * channels
      if hasAlpha {
        let alphaSum = sums[index + alphaIndex]
        for channel in 0..<alphaIndex {
          output[index + channel] = alphaSum == 0 ? 0 : UInt8((sums[index + channel] + alphaSum / 2) / alphaSum)
        }
        output[index + alphaIndex] = UInt8((alphaSum + count / 2) / count)
      } else {
        for channel in 0..<channels { output[index + channel] = UInt8((sums[index + channel] + count / 2) / count) }
      }
    }
  }
}
