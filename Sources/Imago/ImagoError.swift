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
  /// The server answered with a status other than 2xx (or 304 to a conditional request).
  case httpStatus(code: Int, url: String)
  /// The connection failed (refused, reset, DNS...); `reason` is the system's message.
  case network(url: String, reason: String)
  /// The request took longer than its total timeout.
  case timedOut(url: String, seconds: Double)
  /// The body is larger than the download limit (declared up front or found while streaming).
  case downloadTooLarge(url: String, limit: Int)
  /// The body ended before its declared Content-Length.
  case truncatedDownload(url: String, expected: Int, received: Int)
  /// The body is not an image (its first bytes match no image format).
  case notAnImage(url: String, contentType: String?)
  /// More redirects than allowed (or a loop).
  case tooManyRedirects(url: String, limit: Int)
  /// The source policy refused the URL (scheme, host, or a private address).
  case policyRefused(url: String, reason: String)
  /// `onlyFromCache` was asked and no cache level holds the image.
  case notCached(key: String)

  /// Whether the error came from the network or the server (imgcli exits with status 3).
  public var isNetworkError: Bool {
    switch self {
    case .httpStatus, .network, .timedOut, .downloadTooLarge, .truncatedDownload, .notAnImage, .tooManyRedirects,
      .policyRefused:
      true
    default:
      false
    }
  }

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
    case .httpStatus(let code, let url):
      "HTTP \(code) from \(url)"
    case .network(let url, let reason):
      "network error for \(url): \(reason)"
    case .timedOut(let url, let seconds):
      "timed out after \(seconds) s: \(url)"
    case .downloadTooLarge(let url, let limit):
      "download too large: \(url) is over the limit of \(limit) bytes"
    case .truncatedDownload(let url, let expected, let received):
      "truncated download: \(url) sent \(received) of \(expected) bytes"
    case .notAnImage(let url, let contentType):
      "not an image: \(url)" + (contentType.map { " (Content-Type \($0))" } ?? "")
    case .tooManyRedirects(let url, let limit):
      "too many redirects (more than \(limit)) from \(url)"
    case .policyRefused(let url, let reason):
      "refused by the source policy: \(url): \(reason)"
    case .notCached(let key):
      "not in the cache: \(key)"
    }
  }
}

extension String {
  /// A message a C function wrote into a NUL-terminated buffer.
  init(cMessage buffer: [CChar]) {
    self.init(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
