public import Foundation

/// When and how long to wait before trying a download again.
///
/// Transient failures (connection errors, 5xx, 429) are retried with exponential backoff and
/// jitter; a `Retry-After` header is honoured; other 4xx never are.
///
/// ```swift
/// let strategy = RetryStrategy(maxAttempts: 4, baseDelay: 0.5)
/// ```
public struct RetryStrategy: Sendable, Hashable {
  /// Attempts in all, the first included. 1 disables retries.
  public var maxAttempts: Int
  /// Delay before the second attempt, doubled for each one after.
  public var baseDelay: TimeInterval
  public var maxDelay: TimeInterval
  /// Each delay is scaled by a random factor in 1 ± jitter.
  public var jitter: Double
  /// A Retry-After longer than this is not waited for: the error is returned instead.
  public var maxRetryAfter: TimeInterval

  public init(
    maxAttempts: Int = 3, baseDelay: TimeInterval = 0.25, maxDelay: TimeInterval = 10, jitter: Double = 0.25,
    maxRetryAfter: TimeInterval = 30
  ) {
    self.maxAttempts = maxAttempts
    self.baseDelay = baseDelay
    self.maxDelay = maxDelay
    self.jitter = jitter
    self.maxRetryAfter = maxRetryAfter
  }

  public static let `default` = RetryStrategy()
  public static let none = RetryStrategy(maxAttempts: 1)

  /// The delay before attempt `attempt + 1` (attempts count from 1), or `nil` to give up.
  func delay(after attempt: Int, failure: DownloadFailure) -> TimeInterval? {
    guard attempt < maxAttempts, failure.isTransient else { return nil }
    if let retryAfter = failure.retryAfter {
      return retryAfter <= maxRetryAfter ? retryAfter : nil
    }
    let exponential = min(maxDelay, baseDelay * pow(2, Double(attempt - 1)))
    return max(0, exponential * (1 + Double.random(in: -jitter...jitter)))
  }
}

/// Waits between retries; injected so tests can see the delays without sleeping.
public protocol RetrySleeper: Sendable {
  func sleep(seconds: TimeInterval) async throws
}

/// Sleeps for real (and is cancelled with its task).
public struct TaskSleeper: RetrySleeper {
  public init() {}
  public func sleep(seconds: TimeInterval) async throws {
    try await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1e9))
  }
}

/// A failed attempt, as the retry strategy sees it.
struct DownloadFailure: Error {
  var error: ImagoError
  var isTransient: Bool
  var retryAfter: TimeInterval?
}
