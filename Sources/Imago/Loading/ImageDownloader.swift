public import Foundation
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Loads the bytes of a network image. ``ImageDownloader`` is the URLSession-based default;
/// another loader can be given to ``ImageManager``.
public protocol ImageDataLoading: Sendable {
  func loadData(
    for url: URL, validators: HTTPValidators?, options: ImageRequestOptions,
    progress: @escaping @Sendable (DownloadProgress) -> Void
  ) async throws -> LoadedData
}

/// HTTP validators of a cached original, for a conditional request.
public struct HTTPValidators: Sendable, Hashable {
  public var etag: String?
  public var lastModified: String?

  public init(etag: String?, lastModified: String?) {
    self.etag = etag
    self.lastModified = lastModified
  }
}

/// What a download produced.
public struct LoadedData: Sendable {
  /// The body; empty when `notModified`.
  public var data: Data
  /// The server answered 304 to a conditional request: the cached bytes are still good.
  public var notModified: Bool
  public var etag: String?
  public var lastModified: String?
  /// From `Cache-Control` (max-age, s-maxage; 0 for no-cache/no-store).
  public var maxAge: TimeInterval?
  public var contentType: String?

  public init(
    data: Data, notModified: Bool = false, etag: String? = nil, lastModified: String? = nil,
    maxAge: TimeInterval? = nil, contentType: String? = nil
  ) {
    self.data = data
    self.notModified = notModified
    self.etag = etag
    self.lastModified = lastModified
    self.maxAge = maxAge
    self.contentType = contentType
  }
}

/// Downloads images with URLSession: validates status and first bytes, enforces size, time,
/// redirect and concurrency limits and the source policy, and retries transient failures.
///
/// ```swift
/// let downloader = ImageDownloader(configuration: .init(maxBytes: 20 << 20, timeout: 10,
///                                                       policy: SourcePolicy(refusesPrivateAddresses: true)))
/// let manager = ImageManager(loader: downloader)
/// ```
public final class ImageDownloader: ImageDataLoading {
  public struct Configuration: Sendable {
    /// Largest body accepted, checked against Content-Length and while streaming. Default 64 MiB.
    public var maxBytes: Int
    /// Total time for one download, retries included. Default 30 s.
    public var timeout: TimeInterval
    public var maxConcurrentDownloads: Int
    public var maxConcurrentDownloadsPerHost: Int
    public var maxRedirects: Int
    public var retryStrategy: RetryStrategy
    public var policy: SourcePolicy
    public var userAgent: String

    public init(
      maxBytes: Int = 64 << 20, timeout: TimeInterval = 30, maxConcurrentDownloads: Int = 16,
      maxConcurrentDownloadsPerHost: Int = 6, maxRedirects: Int = 10, retryStrategy: RetryStrategy = .default,
      policy: SourcePolicy = SourcePolicy(), userAgent: String = "Imago/0.1"
    ) {
      self.maxBytes = maxBytes
      self.timeout = timeout
      self.maxConcurrentDownloads = maxConcurrentDownloads
      self.maxConcurrentDownloadsPerHost = maxConcurrentDownloadsPerHost
      self.maxRedirects = maxRedirects
      self.retryStrategy = retryStrategy
      self.policy = policy
      self.userAgent = userAgent
    }
  }

  public let configuration: Configuration
  private let session: URLSession
  private let delegate: SessionDelegate
  private let sleeper: any RetrySleeper
  private let overallLimiter: AsyncLimiter
  private let hostLimiters = Mutex<[String: AsyncLimiter]>([:])

  public init(configuration: Configuration = Configuration(), sleeper: any RetrySleeper = TaskSleeper()) {
    self.configuration = configuration
    self.sleeper = sleeper
    self.overallLimiter = AsyncLimiter(limit: configuration.maxConcurrentDownloads)
    let delegate = SessionDelegate()
    self.delegate = delegate
    let sessionConfiguration = URLSessionConfiguration.ephemeral
    sessionConfiguration.requestCachePolicy = .reloadIgnoringLocalCacheData
    sessionConfiguration.urlCache = nil
    sessionConfiguration.httpMaximumConnectionsPerHost = configuration.maxConcurrentDownloadsPerHost
    self.session = URLSession(configuration: sessionConfiguration, delegate: delegate, delegateQueue: nil)
  }

  deinit { session.invalidateAndCancel() }

  public func loadData(
    for url: URL, validators: HTTPValidators?, options: ImageRequestOptions,
    progress: @escaping @Sendable (DownloadProgress) -> Void
  ) async throws -> LoadedData {
    try configuration.policy.check(url)
    let timeout = options.timeout ?? configuration.timeout
    let strategy = options.retryStrategy ?? configuration.retryStrategy
    let host = url.host?.lowercased() ?? ""
    let hostLimiter = hostLimiters.withLock { limiters in
      if let limiter = limiters[host] { return limiter }
      let limiter = AsyncLimiter(limit: configuration.maxConcurrentDownloadsPerHost)
      limiters[host] = limiter
      return limiter
    }
    return try await Self.withTimeout(timeout, url: url) {
      var attempt = 1
      while true {
        do {
          return try await hostLimiter.withPermit {
            try await self.overallLimiter.withPermit {
              try await self.attempt(
                url: url, validators: validators, options: options, timeout: timeout, progress: progress)
            }
          }
        } catch let failure as DownloadFailure {
          guard let delay = strategy.delay(after: attempt, failure: failure) else { throw failure.error }
          try await self.sleeper.sleep(seconds: delay)
          attempt += 1
        }
      }
    }
  }

  private func attempt(
    url: URL, validators: HTTPValidators?, options: ImageRequestOptions, timeout: TimeInterval,
    progress: @escaping @Sendable (DownloadProgress) -> Void
  ) async throws -> LoadedData {
    var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
    request.setValue(configuration.userAgent, forHTTPHeaderField: "User-Agent")
    if let etag = validators?.etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
    if let lastModified = validators?.lastModified {
      request.setValue(lastModified, forHTTPHeaderField: "If-Modified-Since")
    }
    options.requestModifier?(&request)
    let handler = DownloadHandler(
      url: url, maxBytes: configuration.maxBytes, maxRedirects: configuration.maxRedirects,
      policy: configuration.policy, redirectHandler: options.redirectHandler, progress: progress)
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        guard handler.begin(continuation) else { return }
        let task = session.dataTask(with: request)
        delegate.register(handler, for: task)
        handler.attach(task)
        task.resume()
      }
    } onCancel: {
      handler.cancel()
    }
  }

  private static func withTimeout<T: Sendable>(
    _ seconds: TimeInterval, url: URL, _ body: @escaping @Sendable () async throws -> T
  ) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
      group.addTask { try await body() }
      group.addTask {
        try await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1e9))
        return nil
      }
      defer { group.cancelAll() }
      guard let first = try await group.next(), let value = first else {
        throw ImagoError.timedOut(url: url.absoluteString, seconds: seconds)
      }
      return value
    }
  }
}

/// Routes URLSession's callbacks to the handler of each task.
final class SessionDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
  private let handlers = Mutex<[Int: DownloadHandler]>([:])

  func register(_ handler: DownloadHandler, for task: URLSessionTask) {
    handlers.withLock { $0[task.taskIdentifier] = handler }
  }

  private func handler(_ task: URLSessionTask) -> DownloadHandler? {
    handlers.withLock { $0[task.taskIdentifier] }
  }

  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
  ) {
    let allow = handler(dataTask)?.receive(response) ?? false
    completionHandler(allow ? .allow : .cancel)
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    if handler(dataTask)?.receive(data) == false { dataTask.cancel() }
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
    newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
  ) {
    let next = handler(task)?.redirect(response, to: request)
    completionHandler(next)
    if next == nil { task.cancel() }
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
    let handler = handlers.withLock { $0.removeValue(forKey: task.taskIdentifier) }
    handler?.complete(error)
  }
}

/// One attempt's state: the body so far, the checks, and the continuation to resume once.
final class DownloadHandler: Sendable {
  private struct State {
    var continuation: CheckedContinuation<LoadedData, any Error>?
    var task: URLSessionTask?
    var cancelled = false
    var failure: DownloadFailure?
    var data = Data()
    var expected: Int?
    var response: HTTPURLResponse?
    var sniffed = false
    var redirects = 0
  }

  let url: URL
  let maxBytes: Int
  let maxRedirects: Int
  let policy: SourcePolicy
  let redirectHandler: (@Sendable (HTTPURLResponse, URLRequest) -> URLRequest?)?
  let progress: @Sendable (DownloadProgress) -> Void
  private let state = Mutex(State())

  init(
    url: URL, maxBytes: Int, maxRedirects: Int, policy: SourcePolicy,
    redirectHandler: (@Sendable (HTTPURLResponse, URLRequest) -> URLRequest?)?,
    progress: @escaping @Sendable (DownloadProgress) -> Void
  ) {
    self.url = url
    self.maxBytes = maxBytes
    self.maxRedirects = maxRedirects
    self.policy = policy
    self.redirectHandler = redirectHandler
    self.progress = progress
  }

  /// Stores the continuation; false (and resumed with cancellation) if already cancelled.
  func begin(_ continuation: CheckedContinuation<LoadedData, any Error>) -> Bool {
    let cancelled = state.withLock { state -> Bool in
      if state.cancelled { return true }
      state.continuation = continuation
      return false
    }
    if cancelled { continuation.resume(throwing: CancellationError()) }
    return !cancelled
  }

  func attach(_ task: URLSessionTask) {
    let cancel = state.withLock { state -> Bool in
      state.task = task
      return state.cancelled
    }
    if cancel { task.cancel() }
  }

  func cancel() {
    let (task, continuation) = state.withLock { state in
      state.cancelled = true
      defer { state.continuation = nil }
      return (state.task, state.continuation)
    }
    task?.cancel()
    continuation?.resume(throwing: CancellationError())
  }

  private func fail(_ error: ImagoError, transient: Bool = false, retryAfter: TimeInterval? = nil) {
    state.withLock { state in
      if state.failure == nil {
        state.failure = DownloadFailure(error: error, isTransient: transient, retryAfter: retryAfter)
      }
    }
  }

  /// Checks status and declared length; false cancels the transfer.
  func receive(_ response: URLResponse) -> Bool {
    guard let http = response as? HTTPURLResponse else { return true }
    let declared = http.expectedContentLength >= 0 ? Int(http.expectedContentLength) : nil
    state.withLock { state in
      state.response = http
      state.expected = declared
    }
    let code = http.statusCode
    if code == 304 { return true }
    guard (200..<300).contains(code) else {
      let retryAfter = HTTPHeaders.retryAfter(http.value(forHTTPHeaderField: "Retry-After"), now: Date())
      fail(
        .httpStatus(code: code, url: url.absoluteString), transient: code >= 500 || code == 429 || code == 408,
        retryAfter: code == 429 || code == 503 ? retryAfter : nil)
      return false
    }
    if let declared, declared > maxBytes {
      fail(.downloadTooLarge(url: url.absoluteString, limit: maxBytes))
      return false
    }
    return true
  }

  /// Appends body bytes, checking size and (once enough arrived) the image signature.
  func receive(_ data: Data) -> Bool {
    let (ok, received, expected) = state.withLock { state -> (Bool, Int, Int?) in
      state.data.append(data)
      if state.data.count > maxBytes { return (false, state.data.count, state.expected) }
      if !state.sniffed && state.data.count >= 32 {
        state.sniffed = true
        if ImageFormat.detect(in: state.data) == nil { return (false, state.data.count, state.expected) }
      }
      return (true, state.data.count, state.expected)
    }
    guard ok else {
      if received > maxBytes {
        fail(.downloadTooLarge(url: url.absoluteString, limit: maxBytes))
      } else {
        fail(.notAnImage(url: url.absoluteString, contentType: contentType))
      }
      return false
    }
    progress(DownloadProgress(receivedBytes: received, expectedBytes: expected))
    return true
  }

  private var contentType: String? { state.withLock { $0.response?.value(forHTTPHeaderField: "Content-Type") } }

  /// Counts and checks a redirect; `nil` refuses it.
  func redirect(_ response: HTTPURLResponse, to request: URLRequest) -> URLRequest? {
    let count = state.withLock { state -> Int in
      state.redirects += 1
      return state.redirects
    }
    guard count <= maxRedirects else {
      fail(.tooManyRedirects(url: url.absoluteString, limit: maxRedirects))
      return nil
    }
    guard let next = request.url else { return nil }
    do {
      try policy.check(next)
    } catch {
      fail(error)
      return nil
    }
    if let redirectHandler {
      guard let allowed = redirectHandler(response, request) else {
        fail(.policyRefused(url: next.absoluteString, reason: "the redirect handler refused the redirect"))
        return nil
      }
      return allowed
    }
    return request
  }

  func complete(_ error: (any Error)?) {
    let (continuation, result) = state.withLock {
      state -> (CheckedContinuation<LoadedData, any Error>?, Result<LoadedData, any Error>) in
      defer { state.continuation = nil }
      return (state.continuation, outcome(state, error))
    }
    continuation?.resume(with: result)
  }

  private func outcome(_ state: State, _ error: (any Error)?) -> Result<LoadedData, any Error> {
    if state.cancelled { return .failure(CancellationError()) }
    if let failure = state.failure { return .failure(failure) }
    let url = self.url.absoluteString
    if let expected = state.expected, state.data.count < expected, state.response?.statusCode != 304 {
      return .failure(
        DownloadFailure(
          error: .truncatedDownload(url: url, expected: expected, received: state.data.count), isTransient: true))
    }
    if let error {
      return .failure(DownloadFailure(error: .network(url: url, reason: error.localizedDescription), isTransient: true))
    }
    guard let response = state.response else {
      return .failure(DownloadFailure(error: .network(url: url, reason: "no response"), isTransient: true))
    }
    let headers = { (name: String) in response.value(forHTTPHeaderField: name) }
    if response.statusCode == 304 {
      return .success(
        LoadedData(
          data: Data(), notModified: true, etag: headers("ETag"), lastModified: headers("Last-Modified"),
          maxAge: HTTPHeaders.maxAge(headers("Cache-Control"))))
    }
    guard ImageFormat.detect(in: state.data) != nil else {
      return .failure(
        DownloadFailure(error: .notAnImage(url: url, contentType: headers("Content-Type")), isTransient: false))
    }
    return .success(
      LoadedData(
        data: state.data, etag: headers("ETag"), lastModified: headers("Last-Modified"),
        maxAge: HTTPHeaders.maxAge(headers("Cache-Control")), contentType: headers("Content-Type")))
  }
}
