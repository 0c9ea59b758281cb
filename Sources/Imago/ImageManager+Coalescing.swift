import Foundation
import Synchronization

/// Shares one run of work among everyone who asks for the same key while it runs.
///
/// The work runs in its own task. Each caller waits on its own continuation, so a caller that is
/// cancelled returns at once while the others keep waiting; when the last caller leaves, the
/// work is cancelled. Progress reported by the work reaches every caller still waiting.
final class TaskCoalescer<Key: Hashable & Sendable, Value: Sendable>: Sendable {
  typealias ProgressSink = @Sendable (DownloadProgress) -> Void

  private struct Waiter {
    var continuation: CheckedContinuation<Value, any Error>
    var progress: ProgressSink?
  }

  private struct Entry {
    var generation: UInt64
    var task: Task<Void, Never>?
    var waiters: [UInt64: Waiter] = [:]
  }

  private struct State {
    var entries: [Key: Entry] = [:]
    var nextID: UInt64 = 0
  }

  private let state = Mutex(State())

  /// Keys with work running now.
  var inFlightCount: Int { state.withLock { $0.entries.count } }

  func value(
    for key: Key, priority: TaskPriority?, progress: ProgressSink?,
    operation: @escaping @Sendable (_ progress: @escaping ProgressSink) async throws -> Value
  ) async throws -> Value {
    let id = state.withLock { state -> UInt64 in
      state.nextID += 1
      return state.nextID
    }
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
        let start = state.withLock { state -> UInt64? in
          if Task.isCancelled { return nil }
          if state.entries[key] != nil {
            state.entries[key]!.waiters[id] = Waiter(continuation: continuation, progress: progress)
            return 0
          }
          var entry = Entry(generation: id)
          entry.waiters[id] = Waiter(continuation: continuation, progress: progress)
          state.entries[key] = entry
          return id
        }
        guard let start else {
          continuation.resume(throwing: CancellationError())
          return
        }
        guard start != 0 else { return }
        let task = Task.detached(priority: priority) { [self] in
          let result: Result<Value, any Error>
          do {
            result = .success(try await operation { event in self.broadcast(event, key: key, generation: start) })
          } catch {
            result = .failure(error)
          }
          self.finish(key: key, generation: start, with: result)
        }
        state.withLock { state in
          if state.entries[key]?.generation == start { state.entries[key]!.task = task }
        }
      }
    } onCancel: {
      let (waiter, orphaned) = state.withLock { state -> (Waiter?, Task<Void, Never>?) in
        guard var entry = state.entries[key], let waiter = entry.waiters.removeValue(forKey: id) else {
          return (nil, nil)
        }
        if entry.waiters.isEmpty {
          state.entries[key] = nil
          return (waiter, entry.task)
        }
        state.entries[key] = entry
        return (waiter, nil)
      }
      waiter?.continuation.resume(throwing: CancellationError())
      orphaned?.cancel()
    }
  }

  private func broadcast(_ event: DownloadProgress, key: Key, generation: UInt64) {
    let sinks = state.withLock { state -> [ProgressSink] in
      guard let entry = state.entries[key], entry.generation == generation else { return [] }
      return entry.waiters.values.compactMap(\.progress)
    }
    for sink in sinks { sink(event) }
  }

  private func finish(key: Key, generation: UInt64, with result: Result<Value, any Error>) {
    let waiters = state.withLock { state -> [Waiter] in
      guard let entry = state.entries[key], entry.generation == generation else { return [] }
      state.entries[key] = nil
      return Array(entry.waiters.values)
    }
    for waiter in waiters { waiter.continuation.resume(with: result) }
  }
}

/// Bounds the decoded pixel bytes in flight: work waits (in order) until its estimated cost
/// fits; work larger than the whole budget runs alone.
final class PixelBudget: Sendable {
  private struct State {
    var inUse = 0
    var waiters: [(id: UInt64, cost: Int, continuation: CheckedContinuation<Void, any Error>)] = []
    var nextID: UInt64 = 0
  }

  let limit: Int
  private let state = Mutex(State())

  init(limit: Int) { self.limit = max(1, limit) }

  var inUse: Int { state.withLock { $0.inUse } }

  func withPermit<T: Sendable>(cost: Int, _ body: () async throws -> T) async throws -> T {
    try await acquire(cost)
    defer { release(cost) }
    return try await body()
  }

  private func acquire(_ cost: Int) async throws {
    let id = state.withLock { state -> UInt64 in
      state.nextID += 1
      return state.nextID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        let granted = state.withLock { state -> Bool? in
          if Task.isCancelled { return nil }
          if state.waiters.isEmpty && (state.inUse == 0 || state.inUse + cost <= limit) {
            state.inUse += cost
            return true
          }
          state.waiters.append((id, cost, continuation))
          return false
        }
        switch granted {
        case true?: continuation.resume()
        case nil: continuation.resume(throwing: CancellationError())
        case false?: break
        }
      }
    } onCancel: {
      let waiter = state.withLock { state -> CheckedContinuation<Void, any Error>? in
        guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
        return state.waiters.remove(at: index).continuation
      }
      waiter?.resume(throwing: CancellationError())
      grantWaiting()
    }
  }

  private func release(_ cost: Int) {
    state.withLock { $0.inUse -= cost }
    grantWaiting()
  }

  private func grantWaiting() {
    let ready = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
      var ready: [CheckedContinuation<Void, any Error>] = []
      while let first = state.waiters.first, state.inUse == 0 || state.inUse + first.cost <= limit {
        state.inUse += first.cost
        ready.append(state.waiters.removeFirst().continuation)
      }
      return ready
    }
    for continuation in ready { continuation.resume() }
  }
}
