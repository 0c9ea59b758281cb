/// The EXIF orientation of stored pixels: how to turn them to display the image upright.
///
/// Raw values are the EXIF values 1...8; the names say where the stored top row belongs.
///
/// ```swift
/// ImageOrientation(rawValue: 6)  // .right: rotate 90° clockwise to display
/// ```
public enum ImageOrientation: Int, Hashable, Sendable, CaseIterable {
  case up = 1
  case upMirrored = 2
  case down = 3
  case downMirrored = 4
  case leftMirrored = 5
  case right = 6
  case rightMirrored = 7
  case left = 8

  /// Whether displaying the image swaps its width and height.
  public var swapsDimensions: Bool { rawValue >= 5 }
}

/// Reads the orientation tag (0x0112) from EXIF data: a TIFF header and IFD0, as found in a
/// JPEG APP1 marker after "Exif\0\0", a PNG eXIf chunk or a WebP EXIF chunk.
///
/// Every offset is bounds-checked; anything malformed yields `nil`, never a crash.
enum EXIFReader {
  static func orientation<Bytes: RandomAccessCollection<UInt8>>(in exif: Bytes) -> ImageOrientation?
  where Bytes.Index == Int {
    var bytes = Array(exif)
    // Some writers keep the "Exif\0\0" prefix in PNG and WebP chunks.
    if bytes.starts(with: Array("Exif".utf8) + [0, 0]) { bytes.removeFirst(6) }
    guard bytes.count >= 8 else { return nil }
    let littleEndian: Bool
    switch (bytes[0], bytes[1]) {
    case (0x49, 0x49): littleEndian = true
    case (0x4D, 0x4D): littleEndian = false
    default: return nil
    }
    func uint16(_ offset: Int) -> Int? {
      guard offset >= 0, offset + 2 <= bytes.count else { return nil }
      let (a, b) = (Int(bytes[offset]), Int(bytes[offset + 1]))
      return littleEndian ? a | b << 8 : a << 8 | b
    }
    func uint32(_ offset: Int) -> Int? {
      guard let low = uint16(littleEndian ? offset : offset + 2),
        let high = uint16(littleEndian ? offset + 2 : offset)
      else { return nil }
      return high << 16 | low
    }
    guard uint16(2) == 42, let ifdOffset = uint32(4), let entryCount = uint16(ifdOffset) else { return nil }
    for entry in 0..<entryCount {
      let start = ifdOffset + 2 + entry * 12
      guard let tag = uint16(start) else { return nil }
      guard tag == 0x0112 else { continue }
      // SHORT (type 3), count 1: the value sits in the first two bytes of the value field.
      guard uint16(start + 2) == 3, let value = uint16(start + 8) else { return nil }
      return ImageOrientation(rawValue: value)
    }
    return nil
  }
}
