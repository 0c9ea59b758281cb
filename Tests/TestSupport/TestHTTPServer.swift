import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// A real HTTP/1.1 server on 127.0.0.1 (an ephemeral port), started inside a test, answering
/// from a handler. It can misbehave on demand: slow bodies, wrong Content-Length, redirects,
/// hanging. Every connection is closed after its response.
public final class TestHTTPServer: Sendable {
  public struct Request: Sendable {
    public var method: String
    public var path: String
    /// Lower-case names.
    public var headers: [String: String]
  }

  public enum Response: Sendable {
    case ok(Data, headers: [String: String] = [:])
    case status(Int, headers: [String: String] = [:], body: Data = Data())
    /// 200 with the right Content-Length, the body sent in chunks with a pause between them.
    case slow(Data, chunkSize: Int, delay: TimeInterval)
    /// Declares `declaredLength` bytes, sends the body, then closes.
    case wrongLength(Data, declaredLength: Int)
    /// No Content-Length: the body ends when the connection closes.
    case unknownLength(Data)
    case redirect(String)
    /// Reads the request and never answers (until the client goes away, or 60 s pass).
    case hang
  }

  public let port: Int
  private let listener: Int32
  private let handler: @Sendable (Request) -> Response
  private let log = Mutex<(requests: [Request], aborted: Int)>(([], 0))
  /// Closing twice would close whatever descriptor reused the number meanwhile (another
  /// test's server, say): stop closes once.
  private let stopped = Mutex(false)

  public init(handler: @escaping @Sendable (Request) -> Response) throws {
    let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socketFD >= 0 else { throw ChildProcess.Failure.cannotSpawn(errno) }
    var yes: Int32 = 1
    setsockopt(socketFD, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0, listen(socketFD, 256) == 0 else {
      close(socketFD)
      throw ChildProcess.Failure.cannotSpawn(errno)
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socketFD, $0, &length) }
    }
    port = Int(UInt16(bigEndian: address.sin_port))
    listener = socketFD
    self.handler = handler
    let thread = Thread { [self] in acceptLoop() }
    thread.start()
  }

  deinit { stop() }

  public func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

  /// Requests received, in order.
  public var requests: [Request] { log.withLock { $0.requests } }
  public func hits(_ path: String) -> Int { requests.filter { $0.path == path }.count }
  /// Responses the client did not wait for (a write failed because it went away).
  public var abortedResponses: Int { log.withLock { $0.aborted } }

  public func stop() {
    let first = stopped.withLock { stopped -> Bool in
      defer { stopped = true }
      return !stopped
    }
    guard first else { return }
    shutdown(listener, Int32(SHUT_RDWR))
    close(listener)
  }

  private func acceptLoop() {
    while !stopped.withLock({ $0 }) {
      let client = accept(listener, nil, nil)
      if client < 0 {
        if errno == EINTR { continue }
        return
      }
      let thread = Thread { [self] in serve(client) }
      thread.start()
    }
  }

  private func serve(_ client: Int32) {
    defer { close(client) }
    var timeout = timeval(tv_sec: 10, tv_usec: 0)
    setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    guard let request = readRequest(client) else { return }
    log.withLock { $0.requests.append(request) }
    let ok: Bool
    switch handler(request) {
    case .ok(let body, let headers):
      ok = send(client, head(200, headers.merging(["Content-Length": "\(body.count)"]) { $1 })) && send(client, body)
    case .status(let code, let headers, let body):
      ok = send(client, head(code, headers.merging(["Content-Length": "\(body.count)"]) { $1 })) && send(client, body)
    case .slow(let body, let chunkSize, let delay):
      var sent = send(client, head(200, ["Content-Length": "\(body.count)"]))
      var offset = 0
      while sent && offset < body.count {
        let end = min(body.count, offset + chunkSize)
        sent = send(client, body.subdata(in: offset..<end))
        offset = end
        if offset < body.count { usleep(UInt32(delay * 1e6)) }
      }
      ok = sent
    case .wrongLength(let body, let declared):
      ok = send(client, head(200, ["Content-Length": "\(declared)"])) && send(client, body)
    case .unknownLength(let body):
      ok = send(client, head(200, [:])) && send(client, body)
    case .redirect(let location):
      ok = send(client, head(302, ["Location": location, "Content-Length": "0"]))
    case .hang:
      var patience = timeval(tv_sec: 60, tv_usec: 0)
      setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &patience, socklen_t(MemoryLayout<timeval>.size))
      var byte: UInt8 = 0
      while recv(client, &byte, 1, 0) > 0 {}
      ok = false
    }
    if !ok { log.withLock { $0.aborted += 1 } }
  }

  private func head(_ code: Int, _ headers: [String: String]) -> Data {
    var text = "HTTP/1.1 \(code) \(code == 200 ? "OK" : "Status")\r\nConnection: close\r\n"
    for (name, value) in headers.sorted(by: { $0.key < $1.key }) { text += "\(name): \(value)\r\n" }
    return Data((text + "\r\n").utf8)
  }

  private func send(_ client: Int32, _ data: Data) -> Bool {
    data.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = Glibc.send(client, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
        if written <= 0 { return false }
        offset += written
      }
      return true
    }
  }

  private func readRequest(_ client: Int32) -> Request? {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while !bytes.ends(with: [13, 10, 13, 10]) && bytes.count < 65_536 {
      let count = recv(client, &buffer, buffer.count, 0)
      if count <= 0 { return nil }
      bytes += buffer[0..<count]
      if let range = bytes.firstRange(of: [13, 10, 13, 10]) {
        bytes = Array(bytes[..<range.upperBound])
        break
      }
    }
    let lines = String(decoding: bytes, as: UTF8.self).components(separatedBy: "\r\n")
    let parts = lines.first?.split(separator: " ") ?? []
    guard parts.count >= 2 else { return nil }
    var headers: [String: String] = [:]
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    return Request(method: String(parts[0]), path: String(parts[1]), headers: headers)
  }
}

extension Array where Element == UInt8 {
  fileprivate func ends(with suffix: [UInt8]) -> Bool {
    count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
  }
}
