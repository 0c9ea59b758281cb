import Foundation

/// The few HTTP header values Imago interprets.
enum HTTPHeaders {
  /// `Retry-After`: seconds, or an HTTP date.
  static func retryAfter(_ value: String?, now: Date) -> TimeInterval? {
    guard let value = value?.trimmingWhitespace(), !value.isEmpty else { return nil }
    if let seconds = Double(value) { return max(0, seconds) }
    return httpDate(value).map { max(0, $0.timeIntervalSince(now)) }
  }

  /// `Cache-Control` max-age (s-maxage preferred); `nil` when absent; 0 for no-cache/no-store.
  static func maxAge(_ cacheControl: String?) -> TimeInterval? {
    guard let cacheControl else { return nil }
    var maxAge: TimeInterval?
    for directive in cacheControl.lowercased().split(separator: ",") {
      let parts = directive.split(separator: "=", maxSplits: 1).map { String($0).trimmingWhitespace() }
      switch parts[0] {
      case "no-cache", "no-store": return 0
      case "s-maxage": if parts.count == 2, let value = Double(parts[1]) { return max(0, value) }
      case "max-age": if parts.count == 2, let value = Double(parts[1]) { maxAge = max(0, value) }
      default: break
      }
    }
    return maxAge
  }

  static func httpDate(_ text: String) -> Date? {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
      formatter.dateFormat = format
      if let date = formatter.date(from: text) { return date }
    }
    return nil
  }
}
