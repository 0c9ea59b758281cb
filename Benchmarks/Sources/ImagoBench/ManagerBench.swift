import Foundation
import Imago

/// ImageManager end to end against a local HTTP server (Python's http.server on 127.0.0.1
/// serving the corpus): cold cache, warm memory, warm disk, and 50 coalesced requests.
enum ManagerBench {
  struct Row: Codable {
    var name: String
    var requests: Int
    var seconds: Double
    var requestsPerSecond: Double
    var p50Milliseconds: Double
    var p99Milliseconds: Double
  }

  static func run(corpus: String, python: String) async throws -> (rows: [Row], peakRSSMiB: Double) {
    let port = 18_000 + Int(getpid() % 2000)
    let server = Process()
    server.executableURL = URL(fileURLWithPath: python)
    server.arguments = ["-m", "http.server", "\(port)", "--bind", "127.0.0.1", "--directory", corpus]
    server.standardOutput = FileHandle.nullDevice
    server.standardError = FileHandle.nullDevice
    try server.run()
    defer { server.terminate() }
    try await waitForServer(port: port)

    let files = try FileManager.default.contentsOfDirectory(atPath: corpus)
      .filter { $0.hasSuffix(".jpg") || $0.hasSuffix(".png") || $0.hasSuffix(".webp") }.sorted()
    let requests = files.map {
      ImageRequest(
        url: URL(string: "http://127.0.0.1:\(port)/\($0)")!, processors: [ImageProcessors.Resize(width: 400)])
    }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("imago-manager-bench-\(getpid())")
    defer { try? FileManager.default.removeItem(at: directory) }
    func makeManager() throws -> ImageManager {
      ImageManager(cache: ImageCache(disk: try DiskCache(directory: directory)))
    }

    var rows: [Row] = []
    let manager = try makeManager()
    rows.append(try await measure("cold cache: \(requests.count) corpus images -> 400 px", requests, manager))
    rows.append(try await measure("warm memory", Array(repeating: requests, count: 200).flatMap { $0 }, manager))
    rows.append(try await measure("warm disk (new manager, same directory)", requests, try makeManager()))
    let baseline = requests.first { $0.source.cacheKey.hasSuffix("photo-5k-baseline.jpg") } ?? requests[0]
    let coalesced = ImageManager(cache: ImageCache())
    rows.append(
      try await measure(
        "50 identical concurrent requests (5K JPEG), cold", Array(repeating: baseline, count: 50), coalesced,
        concurrency: 50))
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return (rows, Double(usage.ru_maxrss) / 1024)
  }

  private static func measure(
    _ name: String, _ requests: [ImageRequest], _ manager: ImageManager, concurrency: Int = 4
  ) async throws -> Row {
    let clock = ContinuousClock()
    let start = clock.now
    let latencies = try await withThrowingTaskGroup(of: Double.self) { group in
      var next = 0
      var latencies: [Double] = []
      func addNext() {
        guard next < requests.count else { return }
        let request = requests[next]
        next += 1
        group.addTask {
          let began = clock.now
          _ = try await manager.image(for: request)
          let elapsed = clock.now - began
          return Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        }
      }
      for _ in 0..<concurrency { addNext() }
      while let latency = try await group.next() {
        latencies.append(latency)
        addNext()
      }
      return latencies.sorted()
    }
    let total = clock.now - start
    let seconds = Double(total.components.seconds) + Double(total.components.attoseconds) / 1e18
    func percentile(_ p: Double) -> Double { latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))] }
    return Row(
      name: name, requests: requests.count, seconds: seconds, requestsPerSecond: Double(requests.count) / seconds,
      p50Milliseconds: percentile(0.5), p99Milliseconds: percentile(0.99))
  }

  private static func waitForServer(port: Int) async throws {
    for _ in 0..<100 {
      if let data = try? Data(contentsOf: URL(string: "http://127.0.0.1:\(port)/MANIFEST")!), !data.isEmpty { return }
      try await Task.sleep(nanoseconds: 50_000_000)
    }
    throw ImagoError.network(url: "http://127.0.0.1:\(port)/", reason: "the benchmark's HTTP server did not start")
  }
}
