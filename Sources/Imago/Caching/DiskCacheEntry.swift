internal import CImagoShims
public import Foundation

/// One disk cache file: a self-checking header, then the payload.
///
/// Layout (little-endian): magic `IMGC`, version (2), flags (2), header length (4), created and
/// expiry in milliseconds since 1970 (8 + 8, expiry `Int64.max` for never), payload length (8),
/// payload CRC-32 (4), format (2 + bytes), key (4 + bytes), metadata count (2) and pairs
/// (2 + bytes, 4 + bytes), then a CRC-32 of all header bytes before it (4); the payload follows.
/// A reader refuses any file whose sizes, checksums, magic, version or key do not match.
public struct DiskCacheEntry: Sendable, Equatable {
  public var key: String
  public var payload: Data
  public var format: ImageFormat?
  public var created: Date
  public var expiry: Date?
  /// Free-form strings stored with the entry (e.g. HTTP `ETag`, `Last-Modified`).
  public var metadata: [String: String]

  public init(
    key: String, payload: Data, format: ImageFormat? = nil, created: Date, expiry: Date? = nil,
    metadata: [String: String] = [:]
  ) {
    self.key = key
    self.payload = payload
    self.format = format
    self.created = created
    self.expiry = expiry
    self.metadata = metadata
  }

  static let magic: [UInt8] = Array("IMGC".utf8)
  static let version: UInt16 = 1
  /// Header bytes before the variable part: magic through payload CRC.
  static let fixedHeaderSize = 40

  /// Why a file was refused.
  public enum ReadError: Error, Equatable {
    case tooShort
    case badMagic
    case unsupportedVersion(UInt16)
    case malformedHeader(String)
    case headerChecksumMismatch
    case truncated(expected: Int, actual: Int)
    case payloadChecksumMismatch
    case keyMismatch
  }

  /// The file's bytes.
  public func encoded() -> Data {
    var header = ByteWriter()
    header.append(Self.magic)
    header.append(Self.version)
    header.append(UInt16(0))
    let headerLengthOffset = header.bytes.count
    header.append(UInt32(0))
    header.append(Self.milliseconds(created))
    header.append(expiry.map(Self.milliseconds) ?? Int64.max)
    header.append(UInt64(payload.count))
    header.append(payload.withUnsafeBytes { Self.crc32($0) })
    header.appendString(format?.name ?? "", lengthBytes: 2)
    header.appendString(key, lengthBytes: 4)
    let pairs = metadata.sorted { $0.key < $1.key }.prefix(Int(UInt16.max))
    header.append(UInt16(pairs.count))
    for (name, value) in pairs {
      header.appendString(name, lengthBytes: 2)
      header.appendString(value, lengthBytes: 4)
    }
    header.set(UInt32(header.bytes.count + 4), at: headerLengthOffset)
    header.append(header.bytes.withUnsafeBytes { Self.crc32($0) })
    var file = Data(header.bytes)
    file.append(payload)
    return file
  }

  /// Reads the header only: everything but the payload (left empty), checked by its own CRC.
  /// `fileSize`, when given, must match the sizes the header declares.
  public static func decodeHeader(_ bytes: some Collection<UInt8>, fileSize: Int? = nil) throws(ReadError) -> (
    entry: DiskCacheEntry, headerLength: Int, payloadLength: Int, payloadCRC: UInt32
  ) {
    // Copy only the header: its length sits at offset 8, before anything else is trusted.
    let lengthField = Array(bytes.dropFirst(8).prefix(4))
    let declared = lengthField.count == 4 ? lengthField.reversed().reduce(0) { $0 << 8 | Int($1) } : 0
    let bytes = Array(bytes.prefix(max(fixedHeaderSize + 12, min(declared, 1 << 20))))
    var reader = ByteReader(bytes)
    guard bytes.count >= fixedHeaderSize + 12 else { throw .tooShort }
    guard reader.take(4) == magic else { throw .badMagic }
    let version: UInt16 = try reader.integer()
    guard version == Self.version else { throw .unsupportedVersion(version) }
    let _: UInt16 = try reader.integer()
    let headerLength = Int(try reader.integer() as UInt32)
    guard headerLength >= fixedHeaderSize + 12, headerLength <= bytes.count else {
      throw bytes.count < headerLength ? .tooShort : .malformedHeader("header length \(headerLength)")
    }
    let stored = ByteReader(Array(bytes[headerLength - 4..<headerLength]))
    var crcReader = stored
    let headerCRC: UInt32 = try crcReader.integer()
    guard bytes.withUnsafeBytes({ crc32(UnsafeRawBufferPointer(rebasing: $0[0..<headerLength - 4])) }) == headerCRC
    else {
      throw .headerChecksumMismatch
    }
    let created: Int64 = try reader.integer()
    let expiry: Int64 = try reader.integer()
    let payloadLength64: UInt64 = try reader.integer()
    guard payloadLength64 <= UInt64(Int.max - headerLength) else { throw .malformedHeader("payload length") }
    let payloadLength = Int(payloadLength64)
    let payloadCRC: UInt32 = try reader.integer()
    let formatName = try reader.string(lengthBytes: 2)
    let key = try reader.string(lengthBytes: 4)
    let pairCount = Int(try reader.integer() as UInt16)
    var metadata: [String: String] = [:]
    for _ in 0..<pairCount {
      let name = try reader.string(lengthBytes: 2)
      metadata[name] = try reader.string(lengthBytes: 4)
    }
    guard reader.offset == headerLength - 4 else { throw .malformedHeader("header fields end at \(reader.offset)") }
    if let fileSize, fileSize != headerLength + payloadLength {
      throw .truncated(expected: headerLength + payloadLength, actual: fileSize)
    }
    let entry = DiskCacheEntry(
      key: key, payload: Data(), format: formatName.isEmpty ? nil : ImageFormat(formatName),
      created: Date(timeIntervalSince1970: Double(created) / 1000),
      expiry: expiry == Int64.max ? nil : Date(timeIntervalSince1970: Double(expiry) / 1000), metadata: metadata)
    return (entry, headerLength, payloadLength, payloadCRC)
  }

  /// Reads a whole file, checking sizes, both checksums and (when given) the key.
  public static func decode(_ file: Data, expectedKey: String? = nil) throws(ReadError) -> DiskCacheEntry {
    let (header, headerLength, payloadLength, payloadCRC) = try decodeHeader(file, fileSize: file.count)
    if let expectedKey, header.key != expectedKey { throw .keyMismatch }
    let payload = file.subdata(in: file.startIndex + headerLength..<file.startIndex + headerLength + payloadLength)
    guard payload.withUnsafeBytes({ crc32($0) }) == payloadCRC else { throw .payloadChecksumMismatch }
    var entry = header
    entry.payload = payload
    return entry
  }

  static func crc32(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
    guard let base = bytes.baseAddress, !bytes.isEmpty else { return 0 }
    return CImagoShims_crc32(0, base.assumingMemoryBound(to: UInt8.self), bytes.count)
  }

  static func milliseconds(_ date: Date) -> Int64 {
    let value = (date.timeIntervalSince1970 * 1000).rounded()
    return value >= Double(Int64.max - 1) ? Int64.max - 1 : value <= Double(Int64.min) ? Int64.min : Int64(value)
  }
}

/// Appends little-endian integers and length-prefixed strings.
struct ByteWriter {
  var bytes: [UInt8] = []

  mutating func append(_ raw: [UInt8]) { bytes += raw }
  mutating func append<T: FixedWidthInteger>(_ value: T) {
    withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
  }
  mutating func set(_ value: UInt32, at offset: Int) {
    withUnsafeBytes(of: value.littleEndian) { raw in for (i, byte) in raw.enumerated() { bytes[offset + i] = byte } }
  }
  mutating func appendString(_ text: String, lengthBytes: Int) {
    let utf8 = Array(text.utf8.prefix(lengthBytes == 2 ? Int(UInt16.max) : Int(UInt32.max)))
    if lengthBytes == 2 { append(UInt16(utf8.count)) } else { append(UInt32(utf8.count)) }
    bytes += utf8
  }
}

/// Reads what ByteWriter wrote, refusing to run past the end.
struct ByteReader {
  let bytes: [UInt8]
  var offset = 0

  init(_ bytes: [UInt8]) { self.bytes = bytes }

  mutating func take(_ count: Int) -> [UInt8]? {
    guard count >= 0, count <= bytes.count - offset else { return nil }
    defer { offset += count }
    return Array(bytes[offset..<offset + count])
  }

  mutating func integer<T: FixedWidthInteger>() throws(DiskCacheEntry.ReadError) -> T {
    guard let raw = take(MemoryLayout<T>.size) else { throw .tooShort }
    return raw.reversed().reduce(T.zero) { $0 << 8 | T($1) }
  }

  mutating func string(lengthBytes: Int) throws(DiskCacheEntry.ReadError) -> String {
    let length = lengthBytes == 2 ? Int(try integer() as UInt16) : Int(try integer() as UInt32)
    guard let raw = take(length) else { throw .tooShort }
    guard let text = String(validating: raw, as: UTF8.self) else { throw .malformedHeader("text is not UTF-8") }
    return text
  }
}
