public import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Which sources a manager may load: schemes, hosts, and whether private addresses are allowed.
///
/// For servers that fetch URLs their users give them, refuse private addresses so that a URL
/// cannot reach the server's own network (SSRF):
///
/// ```swift
/// let policy = SourcePolicy(refusesPrivateAddresses: true)
/// ```
public struct SourcePolicy: Sendable, Hashable {
  /// Default: http and https. Add "file" to allow local files.
  public var allowedSchemes: Set<String>
  /// When set, only these hosts (lower-case) may be loaded.
  public var allowedHosts: Set<String>?
  /// Refuse hosts that resolve to loopback, private, link-local or unspecified addresses;
  /// checked before connecting and again on every redirect.
  public var refusesPrivateAddresses: Bool

  public init(
    allowedSchemes: Set<String> = ["http", "https"], allowedHosts: Set<String>? = nil,
    refusesPrivateAddresses: Bool = false
  ) {
    self.allowedSchemes = allowedSchemes
    self.allowedHosts = allowedHosts
    self.refusesPrivateAddresses = refusesPrivateAddresses
  }

  /// Throws ``ImagoError/policyRefused(url:reason:)`` when `url` may not be loaded.
  public func check(_ url: URL) throws(ImagoError) {
    let scheme = url.scheme?.lowercased() ?? ""
    guard allowedSchemes.contains(scheme) else {
      throw .policyRefused(url: url.absoluteString, reason: "scheme '\(scheme)' is not allowed")
    }
    guard scheme != "file" && scheme != "data" else { return }
    guard let host = url.host?.lowercased(), !host.isEmpty else {
      throw .policyRefused(url: url.absoluteString, reason: "no host")
    }
    if let allowedHosts, !allowedHosts.contains(host) {
      throw .policyRefused(url: url.absoluteString, reason: "host '\(host)' is not on the allow-list")
    }
    if refusesPrivateAddresses {
      let addresses = Self.resolve(host)
      guard !addresses.isEmpty else { throw .network(url: url.absoluteString, reason: "cannot resolve \(host)") }
      if let address = addresses.first(where: Self.isPrivate) {
        throw .policyRefused(url: url.absoluteString, reason: "\(host) resolves to the private address \(address)")
      }
    }
  }

  /// Every address `host` resolves to, as text.
  static func resolve(_ host: String) -> [String] {
    var hints = addrinfo()
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    var list: UnsafeMutablePointer<addrinfo>?
    guard getaddrinfo(host, nil, &hints, &list) == 0, let first = list else { return [] }
    defer { freeaddrinfo(list) }
    var addresses: [String] = []
    var cursor: UnsafeMutablePointer<addrinfo>? = first
    while let entry = cursor {
      var buffer = [CChar](repeating: 0, count: Int(NI_MAXHOST))
      if getnameinfo(
        entry.pointee.ai_addr, entry.pointee.ai_addrlen, &buffer, socklen_t(buffer.count), nil, 0, NI_NUMERICHOST) == 0
      {
        addresses.append(String(cMessage: buffer))
      }
      cursor = entry.pointee.ai_next
    }
    return addresses
  }

  /// Loopback, private (RFC 1918, unique local), link-local, CGNAT and unspecified addresses.
  static func isPrivate(_ address: String) -> Bool {
    let lowered = address.lowercased()
    if lowered.contains(":") {
      if lowered == "::1" || lowered == "::" { return true }
      if lowered.hasPrefix("fe8") || lowered.hasPrefix("fe9") || lowered.hasPrefix("fea") || lowered.hasPrefix("feb") {
        return true
      }
      if lowered.hasPrefix("fc") || lowered.hasPrefix("fd") { return true }
      if lowered.hasPrefix("::ffff:") { return isPrivate(String(lowered.dropFirst(7))) }
      return false
    }
    let octets = address.split(separator: ".").compactMap { Int($0) }
    guard octets.count == 4 else { return true }
    switch (octets[0], octets[1]) {
    case (127, _), (10, _), (0, _): return true
    case (172, 16...31), (192, 168), (169, 254): return true
    case (100, 64...127): return true
    default: return false
    }
  }
}
