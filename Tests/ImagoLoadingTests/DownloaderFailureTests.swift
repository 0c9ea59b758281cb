import Foundation
import Imago
import Synchronization
import TestSupport
import Testing

/// Every failure: a typed error, and nothing in any cache afterwards.
@Suite struct DownloaderFailureTests {
  func expectFailure(
    _ fixture: LoadingFixture, _ url: URL, options: ImageRequestOptions = .init(),
    sourceLocation: SourceLocation = #_sourceLocation, _ matches: (ImagoError) -> Bool
  ) async {
    do {
      _ = try await fixture.manager.image(for: request(url, options: options))
      Issue.record("expected a failure", sourceLocation: sourceLocation)
    } catch let error as ImagoError {
      #expect(matches(error), "\(error)", sourceLocation: sourceLocation)
    } catch {
      Issue.record("untyped error \(error)", sourceLocation: sourceLocation)
    }
    #expect(fixture.cache.memory.count == 0, sourceLocation: sourceLocation)
    #expect(fixture.diskEntries == 0, "nothing cached after a failure", sourceLocation: sourceLocation)
  }

  @Test(arguments: [404, 500, 403])
  func httpErrorsCarryTheStatus(code: Int) async throws {
    let server = try TestHTTPServer { _ in .status(code) }
    let fixture = try LoadingFixture()
    await expectFailure(fixture, server.url("/x.jpg")) {
      $0 == .httpStatus(code: code, url: server.url("/x.jpg").absoluteString)
    }
    #expect(server.hits("/x.jpg") == 1)
  }

  @Test func transientFailuresAreRetriedWithBackoff() async throws {
    let attempts = Counter()
    let server = try TestHTTPServer { _ in attempts.next() < 2 ? .status(503) : .ok(Images.wizard) }
    let fixture = try LoadingFixture(retry: RetryStrategy(maxAttempts: 3, baseDelay: 0.5, jitter: 0))
    #expect(try await fixture.manager.image(for: request(server.url("/flaky.jpg"))).size.width == 100)
    #expect(server.hits("/flaky.jpg") == 3)
    #expect(fixture.sleeper.recorded == [0.5, 1.0])
  }

  @Test func clientErrorsAreNeverRetried() async throws {
    let server = try TestHTTPServer { _ in .status(404) }
    let fixture = try LoadingFixture(retry: RetryStrategy(maxAttempts: 5))
    await expectFailure(fixture, server.url("/gone.jpg")) { if case .httpStatus(404, _) = $0 { true } else { false } }
    #expect(server.hits("/gone.jpg") == 1 && fixture.sleeper.recorded.isEmpty)
  }

  @Test func tooManyRequestsHonoursRetryAfter() async throws {
    let attempts = Counter()
    let server = try TestHTTPServer { _ in
      attempts.next() == 0 ? .status(429, headers: ["Retry-After": "7"]) : .ok(Images.wizard)
    }
    let fixture = try LoadingFixture(retry: RetryStrategy(maxAttempts: 2))
    _ = try await fixture.manager.image(for: request(server.url("/limited.jpg")))
    #expect(fixture.sleeper.recorded == [7])
  }

  @Test func aHangingServerTimesOut() async throws {
    let server = try TestHTTPServer { _ in .hang }
    let fixture = try LoadingFixture(timeout: 0.4)
    let started = Date()
    await expectFailure(fixture, server.url("/hang.jpg")) { if case .timedOut = $0 { true } else { false } }
    // The server would hang for 60 s, so only the client's timeout can end it with timedOut.
    // The bound is loose: the whole suite runs in parallel on two cores.
    #expect(Date().timeIntervalSince(started) < 30)
  }

  @Test func aHugeContentLengthIsRefusedUpFront() async throws {
    let server = try TestHTTPServer { _ in .wrongLength(Images.wizard, declaredLength: 50 << 30) }
    let fixture = try LoadingFixture(maxBytes: 1 << 20)
    await expectFailure(fixture, server.url("/huge.jpg")) { if case .downloadTooLarge = $0 { true } else { false } }
  }

  @Test func aBodyOverTheLimitIsStoppedWhileStreaming() async throws {
    let server = try TestHTTPServer { _ in .unknownLength(Images.wizard) }
    let fixture = try LoadingFixture(maxBytes: 20_000)
    await expectFailure(fixture, server.url("/stream.jpg")) { if case .downloadTooLarge = $0 { true } else { false } }
  }

  @Test func aTruncatedBodyIsAnError() async throws {
    let server = try TestHTTPServer { _ in
      .wrongLength(Images.wizard.prefix(20_000), declaredLength: Images.wizard.count)
    }
    let fixture = try LoadingFixture()
    await expectFailure(fixture, server.url("/short.jpg")) {
      if case .truncatedDownload(_, Images.wizard.count, _) = $0 { true } else { false }
    }
  }

  @Test func aNonImageBodyIsRefusedWithoutDecoding() async throws {
    let server = try TestHTTPServer { _ in
      .ok(Data("<html><body>Not found, but 200 anyway</body></html>".utf8), headers: ["Content-Type": "text/html"])
    }
    let fixture = try LoadingFixture()
    await expectFailure(fixture, server.url("/page.jpg")) {
      $0 == .notAnImage(url: server.url("/page.jpg").absoluteString, contentType: "text/html")
    }
    #expect(fixture.decoder.decodes == 0)
  }

  @Test func aCorruptImageCachesNothing() async throws {
    let server = try TestHTTPServer { _ in
      .ok(Data([0xFF, 0xD8, 0xFF, 0xE0] + TestImages.randomBytes(count: 3000, seed: 4)))
    }
    let fixture = try LoadingFixture()
    // Random bytes after a JPEG marker: libjpeg runs out of data looking for the image.
    await expectFailure(fixture, server.url("/corrupt.jpg")) {
      switch $0 {
      case .corruptData(.jpeg, _), .truncatedData(.jpeg, _): true
      default: false
      }
    }
  }

  @Test func redirectsAreFollowedAndLoopsStopped() async throws {
    let server = try TestHTTPServer { request in
      switch request.path {
      case "/moved.jpg": .redirect("/real.jpg")
      case "/real.jpg": .ok(Images.wizard)
      default: .redirect(request.path)  // a loop
      }
    }
    let fixture = try LoadingFixture()
    #expect(try await fixture.manager.image(for: request(server.url("/moved.jpg"))).size.width == 100)
    await expectFailureAfterSuccess(fixture, server.url("/loop.jpg")) {
      if case .tooManyRedirects(_, 10) = $0 { true } else { false }
    }
    #expect(server.hits("/loop.jpg") == 11)
  }

  /// Like expectFailure, for a fixture that already cached something else.
  func expectFailureAfterSuccess(_ fixture: LoadingFixture, _ url: URL, _ matches: (ImagoError) -> Bool) async {
    let before = (fixture.cache.memory.count, fixture.diskEntries)
    do {
      _ = try await fixture.manager.image(for: request(url))
      Issue.record("expected a failure")
    } catch let error as ImagoError {
      #expect(matches(error), "\(error)")
    } catch {
      Issue.record("untyped error \(error)")
    }
    #expect(fixture.cache.memory.count == before.0 && fixture.diskEntries == before.1)
  }

  @Test func policyRefusesPrivateAddressesBeforeConnecting() async throws {
    let server = try TestHTTPServer { _ in .ok(Images.wizard) }
    let fixture = try LoadingFixture(policy: SourcePolicy(refusesPrivateAddresses: true))
    await expectFailure(fixture, server.url("/private.jpg")) { error in
      if case .policyRefused(_, let reason) = error { return reason.contains("127.0.0.1") }
      return false
    }
    await expectFailure(fixture, URL(string: "http://localhost:\(server.port)/private.jpg")!) {
      if case .policyRefused = $0 { true } else { false }
    }
    #expect(server.requests.isEmpty)
  }

  @Test func policyIsCheckedAgainOnRedirects() async throws {
    let server = try TestHTTPServer { _ in .redirect("http://10.0.0.1/internal.jpg") }
    let fixture = try LoadingFixture(policy: SourcePolicy(allowedHosts: ["127.0.0.1"]))
    await expectFailure(fixture, server.url("/out.jpg")) { error in
      if case .policyRefused(let url, _) = error { return url.contains("10.0.0.1") }
      return false
    }
  }

  @Test func policyRefusesSchemesAndHosts() async throws {
    let fixture = try LoadingFixture(policy: SourcePolicy(allowedHosts: ["images.example.com"]))
    await expectFailure(fixture, URL(string: "ftp://images.example.com/a.jpg")!) {
      if case .policyRefused = $0 { true } else { false }
    }
    await expectFailure(fixture, URL(string: "http://other.example.com/a.jpg")!) {
      if case .policyRefused = $0 { true } else { false }
    }
  }

  @Test func privateAddressRanges() {
    for address in [
      "127.0.0.1", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254", "0.0.0.0", "::1",
      "fe80::1", "fd00::1", "::ffff:10.0.0.1", "100.64.0.1",
    ] {
      #expect(SourcePolicyProbe.isPrivate(address), "\(address)")
    }
    for address in ["8.8.8.8", "172.32.0.1", "192.169.0.1", "2001:4860:4860::8888", "1.1.1.1"] {
      #expect(!SourcePolicyProbe.isPrivate(address), "\(address)")
    }
  }
}

/// Reaches the policy's address check through its public behaviour: a numeric host resolves to itself.
enum SourcePolicyProbe {
  static func isPrivate(_ address: String) -> Bool {
    let host = address.contains(":") ? "[\(address)]" : address
    do {
      try SourcePolicy(refusesPrivateAddresses: true).check(URL(string: "http://\(host)/x.jpg")!)
      return false
    } catch {
      if case .policyRefused = error { return true }
      return false
    }
  }
}

/// Counts calls from the server's threads.
final class Counter: Sendable {
  private let value = Mutex(0)
  func next() -> Int {
    value.withLock { count in
      defer { count += 1 }
      return count
    }
  }
}
