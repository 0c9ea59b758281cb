/// Every error Imago throws: each case carries what a person needs to understand it.
///
/// ```swift
/// do {
///   _ = try CoderRegistry.default.decode(data)
/// } catch ImagoError.unsupportedFormat(let format) {
///   print("cannot read \(format) images")
/// } catch {
///   print(error)  // "corrupt jpeg data: Not a JPEG file: starts with 0x89 0x50"
/// }
/// ```
public enum ImagoError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The data is empty.
  case emptyData
  /// The data is an image format Imago recognises but has no decoder (or encoder) for.
  case unsupportedFormat(ImageFormat)
  /// The data is not any image format Imago recognises.
  case unknownFormat
  /// The decoder rejected the data; `reason` is the library's own message.
  case corruptData(format: ImageFormat, reason: String)
  /// The data ends before the image does.
  case truncatedData(format: ImageFormat, reason: String)
  /// The image's dimensions exceed a limit; checked before any pixel memory is allocated.
  case tooLarge(width: Int, height: Int, limit: String)
  /// Some other configured resource limit was reached while decoding (scans, chunks, bytes...).
  case limitExceeded(format: ImageFormat, limit: String)
  /// The codec library could not get the memory it needed.
  case outOfMemory(format: ImageFormat)
  /// Encoding failed; `reason` is the library's own message.
  case encodingFailed(format: ImageFormat, reason: String)
  /// A parameter is out of range or inconsistent.
  case invalidArgument(String)
  /// The disk cache could not do `operation` (full disk, permissions...); nothing partial is left.
  case cacheFailure(operation: String, reason: String)

  public var description: String {
    switch self {
    case .emptyData:
      "empty data: no image bytes"
    case .unsupportedFormat(let format):
      "unsupported format: \(format)"
    case .unknownFormat:
      "unknown format: not a JPEG, PNG, WebP, GIF, BMP, TIFF, HEIF or AVIF image"
    case .corruptData(let format, let reason):
      "corrupt \(format) data: \(reason)"
    case .truncatedData(let format, let reason):
      "truncated \(format) data: \(reason)"
    case .tooLarge(let width, let height, let limit):
      "image too large: \(width)x\(height) exceeds \(limit)"
    case .limitExceeded(let format, let limit):
      "\(format) limit exceeded: \(limit)"
    case .outOfMemory(let format):
      "out of memory while decoding \(format)"
    case .encodingFailed(let format, let reason):
      "cannot encode \(format): \(reason)"
    case .invalidArgument(let message):
      "invalid argument: \(message)"
    case .cacheFailure(let operation, let reason):
      "disk cache: cannot \(operation): \(reason)"
    }
  }
}

extension String {
  /// A message a C function wrote into a NUL-terminated buffer.
  init(cMessage buffer: [CChar]) {
    self.init(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
