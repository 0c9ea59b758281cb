internal import CImagoWebP
import Foundation

/// Decodes lossy, lossless and alpha WebP with libwebp, scaling while decoding when a target
/// size allows. Of an animation, the first frame is decoded (composited on its canvas), and
/// ``ImageInfo/frameCount`` tells how many there are.
///
/// ```swift
/// let image = try WebPDecoder().decode(data, options: DecodingOptions(targetSize: PixelSize(width: 400, height: 400)))
/// ```
public struct WebPDecoder: ImageDecoding {
  public init() {}

  public func canDecode(_ data: Data) -> Bool { ImageFormat.detect(in: data) == .webp }

  public func info(for data: Data, limits: DecodingLimits) throws -> ImageInfo {
    try data.withUnsafeBytes { raw throws(ImagoError) in try Self.readInfo(raw, limits: limits).info }
  }

  public func decode(_ data: Data, options: DecodingOptions) throws -> DecodedImage {
    try data.withUnsafeBytes { raw throws(ImagoError) in
      let (info, features) = try Self.readInfo(raw, limits: options.limits)
      try options.limits.check(width: info.width, height: info.height)
      var pixels: PixelBuffer
      if features.has_animation != 0 {
        pixels = try Self.decodeFirstFrame(raw, info: info)
      } else {
        let stored = PixelSize(width: info.width, height: info.height)
        let size = options.storedTargetSize(for: info).map { stored.scaled(toCover: $0) } ?? stored
        pixels = try Self.decodeStill(raw, stored: stored, size: size, hasAlpha: info.hasAlpha)
      }
      if options.appliesOrientation { pixels = pixels.oriented(info.orientation) }
      return DecodedImage(pixels: pixels, info: info)
    }
  }

  private static func status(_ code: VP8StatusCode, _ action: String) -> ImagoError {
    switch code {
    case VP8_STATUS_NOT_ENOUGH_DATA: .truncatedData(format: .webp, reason: "not enough data to \(action)")
    case VP8_STATUS_OUT_OF_MEMORY: .outOfMemory(format: .webp)
    case VP8_STATUS_UNSUPPORTED_FEATURE:
      .corruptData(format: .webp, reason: "unsupported feature while trying to \(action)")
    default: .corruptData(format: .webp, reason: "bitstream error (status \(code.rawValue)) while trying to \(action)")
    }
  }

  private static func readInfo(
    _ raw: UnsafeRawBufferPointer, limits: DecodingLimits
  ) throws(ImagoError) -> (info: ImageInfo, features: WebPBitstreamFeatures) {
    guard let base = raw.baseAddress, !raw.isEmpty else { throw .emptyData }
    let bytes = base.assumingMemoryBound(to: UInt8.self)
    var features = WebPBitstreamFeatures()
    let code = WebPGetFeatures(bytes, raw.count, &features)
    guard code == VP8_STATUS_OK else { throw status(code, "read the header") }

    var webpData = WebPData(bytes: bytes, size: raw.count)
    var state = WEBP_DEMUX_PARSING_HEADER
    guard let demux = WebPDemuxPartial(&webpData, &state) else {
      throw .corruptData(format: .webp, reason: "malformed RIFF container")
    }
    defer { WebPDemuxDelete(demux) }
    guard state == WEBP_DEMUX_DONE else {
      if state == WEBP_DEMUX_PARSE_ERROR { throw .corruptData(format: .webp, reason: "malformed RIFF container") }
      throw .truncatedData(format: .webp, reason: "the container ends before its last chunk")
    }
    let frames = Int(WebPDemuxGetI(demux, WEBP_FF_FRAME_COUNT))
    var orientation = ImageOrientation.up
    var chunk = WebPChunkIterator()
    if WebPDemuxGetChunk(demux, "EXIF", 1, &chunk) != 0 {
      orientation =
        EXIFReader.orientation(in: UnsafeBufferPointer(start: chunk.chunk.bytes, count: chunk.chunk.size)) ?? .up
      WebPDemuxReleaseChunkIterator(&chunk)
    }
    let width = features.has_animation != 0 ? Int(WebPDemuxGetI(demux, WEBP_FF_CANVAS_WIDTH)) : Int(features.width)
    let height = features.has_animation != 0 ? Int(WebPDemuxGetI(demux, WEBP_FF_CANVAS_HEIGHT)) : Int(features.height)
    let info = ImageInfo(
      format: .webp, width: width, height: height, hasAlpha: features.has_alpha != 0, orientation: orientation,
      frameCount: min(max(frames, 1), limits.maxFrames))
    return (info, features)
  }

  private static func decodeStill(
    _ raw: UnsafeRawBufferPointer, stored: PixelSize, size: PixelSize, hasAlpha: Bool
  ) throws(ImagoError) -> PixelBuffer {
    let format: PixelFormat = hasAlpha ? .rgba8 : .rgb8
    return try PixelBuffer(width: size.width, height: size.height, format: format) { output throws(ImagoError) in
      var config = WebPDecoderConfig()
      guard WebPInitDecoderConfig(&config) != 0 else {
        throw .corruptData(format: .webp, reason: "libwebp version mismatch")
      }
      if size != stored {
        config.options.use_scaling = 1
        config.options.scaled_width = Int32(size.width)
        config.options.scaled_height = Int32(size.height)
      }
      // A second thread runs the lossy in-loop filter alongside decoding (no effect on output).
      config.options.use_threads = 1
      config.output.colorspace = hasAlpha ? MODE_RGBA : MODE_RGB
      config.output.is_external_memory = 1
      config.output.u.RGBA.rgba = output.baseAddress!.assumingMemoryBound(to: UInt8.self)
      config.output.u.RGBA.stride = Int32(size.width * format.bytesPerPixel)
      config.output.u.RGBA.size = output.count
      let code = WebPDecode(raw.baseAddress!.assumingMemoryBound(to: UInt8.self), raw.count, &config)
      WebPFreeDecBuffer(&config.output)
      guard code == VP8_STATUS_OK else { throw status(code, "decode") }
    }
  }

  private static func decodeFirstFrame(_ raw: UnsafeRawBufferPointer, info: ImageInfo) throws(ImagoError) -> PixelBuffer
  {
    var options = WebPAnimDecoderOptions()
    guard WebPAnimDecoderOptionsInit(&options) != 0 else {
      throw .corruptData(format: .webp, reason: "libwebp version mismatch")
    }
    options.color_mode = MODE_RGBA
    options.use_threads = 0
    var webpData = WebPData(bytes: raw.baseAddress!.assumingMemoryBound(to: UInt8.self), size: raw.count)
    guard let decoder = WebPAnimDecoderNew(&webpData, &options) else {
      throw .corruptData(format: .webp, reason: "cannot read the animation")
    }
    defer { WebPAnimDecoderDelete(decoder) }
    var frame: UnsafeMutablePointer<UInt8>?
    var timestamp: Int32 = 0
    guard WebPAnimDecoderGetNext(decoder, &frame, &timestamp) != 0, let frame else {
      throw .corruptData(format: .webp, reason: "cannot decode the first animation frame")
    }
    let count = info.width * info.height * 4
    let canvas = PixelBuffer(width: info.width, height: info.height, format: .rgba8) { output in
      output.copyMemory(from: UnsafeRawBufferPointer(start: frame, count: count))
    }
    return info.hasAlpha ? canvas : canvas.converted(to: .rgb8)
  }
}

extension PixelSize {
  /// The size with the same aspect ratio, no larger than `self`, that just covers `target`.
  func scaled(toCover target: PixelSize) -> PixelSize {
    let scale = max(Double(target.width) / Double(width), Double(target.height) / Double(height))
    guard scale < 1 else { return self }
    return PixelSize(
      width: min(width, max(1, Int((Double(width) * scale).rounded(.up)))),
      height: min(height, max(1, Int((Double(height) * scale).rounded(.up)))))
  }
}
