/// Decoded pixels: a width, a height, a ``PixelFormat`` and the bytes, row after row.
///
/// A value type backed by a copy-on-write array, so passing it around is cheap and sharing it
/// across tasks is safe. Rows may be padded: always step by ``bytesPerRow``.
///
/// ```swift
/// var red = PixelBuffer(width: 2, height: 2, format: .rgb8, repeating: [255, 0, 0])
/// red[pixel: 1, 1]  // [255, 0, 0]
/// ```
public struct PixelBuffer: Sendable, Hashable {
  public let width: Int
  public let height: Int
  public let format: PixelFormat
  public let bytesPerRow: Int
  /// The pixel bytes, `bytesPerRow * height` of them.
  public private(set) var bytes: [UInt8]

  /// Wraps existing bytes; fails when they are too few for the size and format.
  public init(width: Int, height: Int, format: PixelFormat, bytesPerRow: Int? = nil, bytes: [UInt8]) throws(ImagoError)
  {
    let rowBytes = bytesPerRow ?? width * format.bytesPerPixel
    guard width > 0, height > 0, rowBytes >= width * format.bytesPerPixel else {
      throw .invalidArgument("pixel buffer of \(width)x\(height) with \(rowBytes) bytes per row")
    }
    guard bytes.count >= rowBytes * height else {
      throw .invalidArgument(
        "pixel buffer of \(width)x\(height) \(format) needs \(rowBytes * height) bytes, got \(bytes.count)")
    }
    self.width = width
    self.height = height
    self.format = format
    self.bytesPerRow = rowBytes
    self.bytes = bytes
  }

  /// A buffer filled with one pixel value (`pixel` has one byte per channel).
  public init(width: Int, height: Int, format: PixelFormat, repeating pixel: [UInt8]) {
    precondition(width > 0 && height > 0 && pixel.count == format.channelCount, "invalid solid pixel buffer")
    self.width = width
    self.height = height
    self.format = format
    self.bytesPerRow = width * format.bytesPerPixel
    var bytes = [UInt8]()
    bytes.reserveCapacity(bytesPerRow * height)
    for _ in 0..<(width * height) { bytes.append(contentsOf: pixel) }
    self.bytes = bytes
  }

  /// Makes a tightly packed buffer and lets `initialize` write every byte, with no zero-fill first.
  ///
  /// The closure must write all `width * height * bytesPerPixel` bytes.
  public init<Failure: Error>(
    width: Int, height: Int, format: PixelFormat,
    initializingWith initialize: (UnsafeMutableRawBufferPointer) throws(Failure) -> Void
  ) throws(Failure) {
    precondition(width > 0 && height > 0, "pixel buffer must not be empty")
    self.width = width
    self.height = height
    self.format = format
    self.bytesPerRow = width * format.bytesPerPixel
    let count = bytesPerRow * height
    var failure: Failure?
    self.bytes = [UInt8](unsafeUninitializedCapacity: count) { storage, initializedCount in
      do throws(Failure) {
        try initialize(UnsafeMutableRawBufferPointer(storage))
        initializedCount = count
      } catch {
        failure = error
        initializedCount = 0
      }
    }
    if let failure { throw failure }
  }

  /// Number of pixels.
  public var pixelCount: Int { width * height }

  /// The channels of the pixel at column `x`, row `y`.
  public subscript(pixel x: Int, _ y: Int) -> [UInt8] {
    let start = y * bytesPerRow + x * format.bytesPerPixel
    return Array(bytes[start..<start + format.bytesPerPixel])
  }

  /// Calls `body` with the bytes, for reading or handing to C without a copy.
  public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
    try bytes.withUnsafeBytes(body)
  }

  /// Calls `body` with the bytes for writing (copies first if the storage is shared).
  public mutating func withUnsafeMutableBytes<R>(_ body: (UnsafeMutableRawBufferPointer) throws -> R) rethrows -> R {
    try bytes.withUnsafeMutableBytes(body)
  }
}
