/// An image file format, recognised from the first bytes of the data.
///
/// Extensible: a custom coder may introduce its own format.
///
/// ```swift
/// ImageFormat.detect(in: data)  // .jpeg, .png, .webp, .gif, ... or nil
/// let avif = ImageFormat("avif")
/// ```
public struct ImageFormat: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
  /// Lower-case short name, as in a file extension: "jpeg", "png", "webp".
  public let name: String

  public init(_ name: String) { self.name = name.lowercased() }
  public init(stringLiteral value: String) { self.init(value) }

  public static let jpeg = ImageFormat("jpeg")
  public static let png = ImageFormat("png")
  public static let webp = ImageFormat("webp")
  public static let gif = ImageFormat("gif")
  public static let bmp = ImageFormat("bmp")
  public static let tiff = ImageFormat("tiff")
  public static let heif = ImageFormat("heif")
  public static let avif = ImageFormat("avif")

  public var description: String { name }

  /// The format named by a file extension or a format name ("jpg", "JPEG", "webp"...), if known.
  public init?(fileExtension: String) {
    switch fileExtension.lowercased() {
    case "jpg", "jpeg", "jpe", "jfif": self = .jpeg
    case "png": self = .png
    case "webp": self = .webp
    case "gif": self = .gif
    case "bmp": self = .bmp
    case "tif", "tiff": self = .tiff
    case "heic", "heif": self = .heif
    case "avif": self = .avif
    default: return nil
    }
  }

  /// The usual file extension.
  public var fileExtension: String { self == .jpeg ? "jpg" : name }

  /// Recognises the format from magic bytes; `nil` when none matches.
  public static func detect<Bytes: Collection<UInt8>>(in data: Bytes) -> ImageFormat? {
    let head = Array(data.prefix(32))
    func starts(_ magic: [UInt8], at offset: Int = 0) -> Bool {
      head.count >= offset + magic.count && Array(head[offset..<offset + magic.count]) == magic
    }
    if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
    if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
    if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return .webp }
    if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return .gif }
    if starts(Array("BM".utf8)) && head.count >= 14 { return .bmp }
    if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return .tiff }
    if starts(Array("ftyp".utf8), at: 4) && head.count >= 12 {
      let brand = String(decoding: head[8..<12], as: UTF8.self)
      switch brand {
      case "avif", "avis": return .avif
      case "heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1": return .heif
      default: return nil
      }
    }
    return nil
  }
}
