import Foundation

@testable import Imago

// One libFuzzer binary, several targets, chosen by IMAGO_FUZZ_TARGET:
//   decode    format sniffing + header + decode, full size and with a target size
//   exif      the EXIF orientation reader
//   diskentry the disk cache entry reader
//   ops       the imgcli op-string parser, then the parsed processor on a small image
// Limits are lowered so that an accepted image stays small: the fuzzer hunts crashes, hangs
// and leaks, not big-but-legal allocations.

private let target = ProcessInfo.processInfo.environment["IMAGO_FUZZ_TARGET"] ?? "decode"

private let limits: DecodingLimits = {
  var limits = DecodingLimits.default
  limits.maxPixels = 4_000_000
  limits.maxDimension = 8_192
  limits.maxProgressiveScans = 100
  return limits
}()

private let canvas = PixelBuffer(width: 24, height: 16, format: .rgba8, repeating: [10, 200, 30, 180])
private let context = ImageProcessingContext(decodingOptions: DecodingOptions(limits: limits))

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  let data = start.map { Data(bytes: $0, count: count) } ?? Data()
  switch target {
  case "exif":
    _ = EXIFReader.orientation(in: [UInt8](data))
  case "diskentry":
    _ = try? DiskCacheEntry.decode(data)
    _ = try? DiskCacheEntry.decodeHeader(data, fileSize: data.count)
  case "ops":
    let text = String(decoding: data.prefix(256), as: UTF8.self)
    if let processor = try? ProcessorParser.parse(text) {
      _ = try? processor.process(.image(canvas), context: context)
    }
  default:
    let registry = CoderRegistry.default
    _ = ImageFormat.detect(in: data)
    _ = try? registry.info(for: data, limits: limits)
    _ = try? registry.decode(data, options: DecodingOptions(limits: limits))
    _ = try? registry.decode(
      data, options: DecodingOptions(targetSize: PixelSize(width: 32, height: 24), limits: limits))
  }
  return 0
}
