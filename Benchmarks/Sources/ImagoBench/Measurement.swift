import Foundation

/// One benchmark's result: latency percentiles over its iterations and allocations per iteration.
struct Measurement: Codable {
  var group: String
  var name: String
  var iterations: Int
  var p50Microseconds: Double
  var p99Microseconds: Double
  var mallocsPerIteration: Int?
  var mallocBytesPerIteration: Int?
}

nonisolated(unsafe) private var probeAllocation: UnsafeMutableRawPointer?

/// Times a closure: a warm-up, then iterations until both `minimumIterations` and `budget` are
/// spent (capped at `maximumIterations`); then one more iteration under the malloc counter.
struct Bench {
  var budget: Duration
  var minimumIterations: Int
  var maximumIterations: Int

  /// Whether the malloc interposer was preloaded (LD_PRELOAD), so allocations can be counted.
  static let countsAllocations: Bool = {
    guard let counter = MallocCounter.shared else { return false }
    counter.reset()
    counter.enable()
    // The allocation must escape (into a global): the optimiser deletes an allocation that is
    // only freed, even one spelled strdup.
    probeAllocation = malloc(64)
    counter.disable()
    free(probeAllocation)
    return counter.statistics().count > 0
  }()

  func measure(_ group: String, _ name: String, _ body: () throws -> Void) rethrows -> Measurement {
    try body()
    let clock = ContinuousClock()
    var samples: [Duration] = []
    let start = clock.now
    while samples.count < maximumIterations && (samples.count < minimumIterations || clock.now - start < budget) {
      samples.append(try clock.measure(body))
    }
    samples.sort()
    func percentile(_ p: Double) -> Double {
      let index = min(samples.count - 1, Int((Double(samples.count) * p).rounded(.up)) - 1)
      let duration = samples[max(0, index)]
      return Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
    }
    var mallocs: Int?
    var bytes: Int?
    if Self.countsAllocations, let counter = MallocCounter.shared {
      counter.reset()
      counter.enable()
      try body()
      counter.disable()
      (mallocs, bytes) = counter.statistics()
    }
    return Measurement(
      group: group, name: name, iterations: samples.count, p50Microseconds: percentile(0.5),
      p99Microseconds: percentile(0.99), mallocsPerIteration: mallocs, mallocBytesPerIteration: bytes)
  }
}

/// The C entry points of ordo-one's malloc interposer, found with dlsym when its library is
/// preloaded (`bash Benchmarks/run` builds it and sets LD_PRELOAD). The harness does not link
/// the library: linked into the executable it counted nothing here, while preloaded into a
/// program that does not link it, it counts every allocation.
struct MallocCounter: @unchecked Sendable {
  typealias Toggle = @convention(c) () -> Void
  typealias Stats =
    @convention(c) (
      UnsafeMutablePointer<Int64>, UnsafeMutablePointer<Int64>, UnsafeMutablePointer<Int64>,
      UnsafeMutablePointer<Int64>, UnsafeMutablePointer<Int64>, UnsafeMutablePointer<Int64>
    ) -> Void

  let enable: Toggle
  let disable: Toggle
  let reset: Toggle
  private let stats: Stats

  static let shared: MallocCounter? = {
    let handle = dlopen(nil, RTLD_NOW)
    func symbol<T>(_ name: String, as type: T.Type) -> T? {
      dlsym(handle, name).map { unsafeBitCast($0, to: type) }
    }
    guard let enable = symbol("malloc_interposer_enable", as: Toggle.self),
      let disable = symbol("malloc_interposer_disable", as: Toggle.self),
      let reset = symbol("malloc_interposer_reset", as: Toggle.self),
      let stats = symbol("malloc_interposer_get_stats", as: Stats.self)
    else { return nil }
    return MallocCounter(enable: enable, disable: disable, reset: reset, stats: stats)
  }()

  /// Allocation calls and requested bytes since the last reset.
  func statistics() -> (count: Int, bytes: Int) {
    var (count, bytes, small, large, frees, freedBytes): (Int64, Int64, Int64, Int64, Int64, Int64) = (0, 0, 0, 0, 0, 0)
    stats(&count, &bytes, &small, &large, &frees, &freedBytes)
    return (Int(count), Int(bytes))
  }
}
