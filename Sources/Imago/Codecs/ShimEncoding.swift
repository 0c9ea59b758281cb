internal import CImagoShims
import Foundation

/// Calls a C shim encoder over `pixels` and takes ownership of the buffer it returns.
///
/// `encode` gets the pixels, an output pointer and length to fill, and a message buffer; it
/// returns the shim's status. A failure becomes ``ImagoError/encodingFailed(format:reason:)``
/// with the library's message.
enum ShimEncoding {
  typealias Call = (
    _ pixels: UnsafePointer<UInt8>, _ output: inout UnsafeMutablePointer<UInt8>?, _ length: inout Int,
    _ message: UnsafeMutablePointer<CChar>, _ capacity: Int
  ) -> Int32

  static func run(_ pixels: PixelBuffer, format: ImageFormat, _ encode: Call) throws(ImagoError) -> Data {
    var output: UnsafeMutablePointer<UInt8>?
    var length = 0
    var message = [CChar](repeating: 0, count: 256)
    let status = pixels.withUnsafeBytes { raw in
      message.withUnsafeMutableBufferPointer { buffer in
        encode(
          raw.baseAddress!.assumingMemoryBound(to: UInt8.self), &output, &length, buffer.baseAddress!, buffer.count)
      }
    }
    guard status == 0, let output else { throw .encodingFailed(format: format, reason: String(cMessage: message)) }
    return Data(bytesNoCopy: output, count: length, deallocator: .custom { pointer, _ in CImagoShims_free(pointer) })
  }
}
