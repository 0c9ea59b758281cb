import Foundation

/// Splits row-wise work over the cores when there is enough of it to pay for the hand-off.
enum ParallelRows {
  static let cores: Int = max(1, min(64, ProcessInfo.processInfo.activeProcessorCount))

  /// Threads worth using for `work` pixel operations.
  static func workerCount(work: Int) -> Int { work < 250_000 ? 1 : cores }

  /// Calls `body` with disjoint row ranges covering `0..<count`, on up to `workers` threads.
  static func run(_ count: Int, workers: Int, _ body: @Sendable (Range<Int>) -> Void) {
    guard workers > 1, count > 1 else { return body(0..<count) }
    let chunks = min(count, workers * 4)
    let chunkSize = (count + chunks - 1) / chunks
    DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
      let lower = chunk * chunkSize
      let upper = min(count, lower + chunkSize)
      if lower < upper { body(lower..<upper) }
    }
  }
}

/// Carries a value the caller guarantees is only used in a data-race-free way (disjoint rows).
struct UncheckedSendable<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}
