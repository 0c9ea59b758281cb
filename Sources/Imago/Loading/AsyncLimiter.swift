import Synchronization

/// A counting semaphore for async code: at most `limit` holders; the rest wait in order.
/// A waiter cancelled while waiting leaves the queue.
final class AsyncLimiter: Sendable {
  private struct State {
    var available: Int
    var waiters: [(id: UInt64, continuation: CheckedContinuation<Void, any Error>)] = []
    var nextID: UInt64 = 0
  }

  private let state: Mutex<State>

  init(limit: Int) { state = Mutex(State(available: max(1, limit))) }

  func acquire() async throws {
    let id = state.withLock { state -> UInt64 in
      state.nextID += 1
      return state.nextID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        let resumeNow = state.withLock { state -> Bool in
          if Task.isCancelled { return false }
          if state.available > 0 && state.waiters.isEmpty {
            state.available -= 1
            return true
          }
          state.waiters.append((id, continuation))
          return false
        }
        if resumeNow {
          continuation.resume()
        } else if Task.isCancelled, state.withLock({ state in !state.waiters.contains { $0.id == id } }) {
          continuation.resume(throwing: CancellationError())
        }
      }
    } onCancel: {
      let waiter = state.withLock { state -> CheckedContinuation<Void, any Error>? in
        guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
        return state.waiters.remove(at: index).continuation
      }
      waiter?.resume(throwing: CancellationError())
    }
  }

  func release() {
    let next = state.withLock { state -> CheckedContinuation<Void, any Error>? in
      if state.waiters.isEmpty {
        state.available += 1
        return nil
      }
      return state.waiters.removeFirst().continuation
    }
    next?.resume()
  }

  func withPermit<T: Sendable>(_ body: () async throws -> T) async throws -> T {
    try await acquire()
    defer { release() }
    return try await body()
  }
}
