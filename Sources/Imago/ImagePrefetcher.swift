import Foundation
import Synchronization

/// Warms the caches for a list of requests, a few at a time.
///
/// ```swift
/// let prefetcher = ImagePrefetcher(manager: manager, maxConcurrent: 4)
/// let report = await prefetcher.prefetch(requests)
/// print(report.completed, report.skipped, report.failed.count)
/// ```
public final class ImagePrefetcher: Sendable {
  public struct Report: Sendable {
    /// Loaded now.
    public var completed = 0
    /// Already in a cache.
    public var skipped = 0
    /// Failed, with why.
    public var failed: [(source: String, error: String)] = []
    /// Not started because ``ImagePrefetcher/stop()`` was called.
    public var cancelled = 0
  }

  public let manager: ImageManager
  public let maxConcurrent: Int
  private let running = Mutex<[Task<Report, Never>]>([])

  public init(manager: ImageManager, maxConcurrent: Int = 4) {
    self.manager = manager
    self.maxConcurrent = max(1, maxConcurrent)
  }

  /// Loads every request not already cached; returns when all are done or `stop()` was called.
  public func prefetch(_ requests: [ImageRequest]) async -> Report {
    let task = Task { await self.run(requests) }
    running.withLock { $0.append(task) }
    let report = await task.value
    running.withLock { $0.removeAll { $0 == task } }
    return report
  }

  /// Cancels every prefetch running now.
  public func stop() {
    for task in running.withLock({ $0 }) { task.cancel() }
  }

  private enum Outcome: Sendable {
    case completed, skipped, cancelled
    case failed(String, String)
  }

  private func run(_ requests: [ImageRequest]) async -> Report {
    var report = Report()
    await withTaskGroup(of: Outcome.self) { group in
      var next = 0
      func addNext() {
        guard next < requests.count else { return }
        let request = requests[next]
        next += 1
        group.addTask {
          if Task.isCancelled { return .cancelled }
          if self.manager.cache.cacheType(for: request.cacheKey) != .none { return .skipped }
          do {
            _ = try await self.manager.image(for: request)
            return .completed
          } catch is CancellationError {
            return .cancelled
          } catch {
            return .failed(request.source.description, "\(error)")
          }
        }
      }
      for _ in 0..<maxConcurrent { addNext() }
      while let outcome = await group.next() {
        switch outcome {
        case .completed: report.completed += 1
        case .skipped: report.skipped += 1
        case .cancelled: report.cancelled += 1
        case .failed(let source, let error): report.failed.append((source, error))
        }
        if Task.isCancelled {
          report.cancelled += requests.count - next
          next = requests.count
        }
        addNext()
      }
    }
    return report
  }
}
