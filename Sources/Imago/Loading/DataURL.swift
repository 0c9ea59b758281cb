import Foundation

/// Decodes `data:[<media type>][;base64],<data>` URLs.
enum DataURL {
  static func decode(_ url: URL) throws(ImagoError) -> Data {
    let text = url.absoluteString
    guard text.lowercased().hasPrefix("data:"), let comma = text.firstIndex(of: ",") else {
      throw .invalidArgument("not a data: URL")
    }
    let header = text[text.index(text.startIndex, offsetBy: 5)..<comma].lowercased()
    let body = String(text[text.index(after: comma)...])
    if header.hasSuffix(";base64") {
      let unescaped = body.removingPercentEncoding ?? body
      guard let data = Data(base64Encoded: unescaped, options: .ignoreUnknownCharacters) else {
        throw .invalidArgument("data: URL with invalid base64")
      }
      return data
    }
    guard let decoded = body.removingPercentEncoding else { throw .invalidArgument("data: URL with invalid escapes") }
    return Data(decoded.utf8)
  }
}
