import Foundation
import Imago

// In-process figures for Imago's parts: decode (full and shrunk on load) per format, resize
// per filter, encode per format. Whole-process comparisons with the peers are in
// peers/process_bench.py; `bash Benchmarks/run` runs both.
//
//   ImagoBench --corpus DIR [--quick] [--json FILE]

struct Report: Codable {
  var kind: String
  var allocationsCounted: Bool
  var results: [Measurement]
}

@main
struct ImagoBench {
  static func main() async throws {
    var arguments = CommandLine.arguments.dropFirst()
    var corpus = ".corpus"
    var quick = false
    var jsonPath: String?
    var managerPython: String?
    while let argument = arguments.popFirst() {
      switch argument {
      case "--corpus": corpus = arguments.popFirst() ?? corpus
      case "--quick": quick = true
      case "--json": jsonPath = arguments.popFirst()
      case "--manager":
        managerPython = arguments.popFirst()
      default:
        FileHandle.standardError.write(
          Data("usage: ImagoBench --corpus DIR [--quick] [--json FILE] [--manager PYTHON]\n".utf8))
        exit(2)
      }
    }

    if let managerPython {
      // A process of its own, so that its peak RSS is the manager's.
      let (rows, peak) = try await ManagerBench.run(corpus: corpus, python: managerPython)
      for row in rows {
        print(
          "manager  \(row.name): \(row.requests) requests in \(String(format: "%.2f", row.seconds)) s, "
            + "\(String(format: "%.0f", row.requestsPerSecond)) req/s, p50 \(String(format: "%.3f", row.p50Milliseconds)) ms, "
            + "p99 \(String(format: "%.3f", row.p99Milliseconds)) ms")
      }
      print("manager  peak RSS of the whole run: \(String(format: "%.1f", peak)) MiB")
      if let jsonPath {
        struct ManagerReport: Codable {
          var kind = "manager"
          var rows: [ManagerBench.Row]
          var peakRSSMiB: Double
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(ManagerReport(rows: rows, peakRSSMiB: peak)).write(to: URL(fileURLWithPath: jsonPath))
      }
      return
    }

    let bench =
      quick
      ? Bench(budget: .milliseconds(300), minimumIterations: 3, maximumIterations: 200)
      : Bench(budget: .seconds(2), minimumIterations: 10, maximumIterations: 5000)
    let registry = CoderRegistry.default

    func load(_ name: String) -> Data {
      do {
        return try Data(contentsOf: URL(fileURLWithPath: corpus).appendingPathComponent(name))
      } catch {
        FileHandle.standardError.write(
          Data("error: cannot read \(corpus)/\(name); run ../shared/corpus/fetch.sh\n".utf8))
        exit(1)
      }
    }

    var results: [Measurement] = []
    func record(_ measurement: Measurement) {
      results.append(measurement)
      let allocations = measurement.mallocsPerIteration.map { "\($0) mallocs" } ?? "-"
      print(
        String(
          format: "%-10@ %-44@ p50 %10.1f µs  p99 %10.1f µs  n=%-5d %@", measurement.group as NSString,
          measurement.name as NSString, measurement.p50Microseconds, measurement.p99Microseconds,
          measurement.iterations,
          allocations as NSString))
    }

    let inputs = [
      ("JPEG 5120x2880 baseline", "photo-5k-baseline.jpg"), ("JPEG 5120x2880 progressive", "photo-5k-progressive.jpg"),
      ("PNG 5120x2880", "art-5k.png"), ("WebP 4096x4096", "art-4k.webp"),
    ]
    for (label, file) in inputs {
      let data = load(file)
      record(try bench.measure("decode", "\(label), full size") { _ = try registry.decode(data) })
      record(
        try bench.measure("decode", "\(label), shrunk for 400 px") {
          _ = try registry.decode(data, options: DecodingOptions(targetSize: PixelSize(width: 400, height: 225)))
        })
    }

    let photo = try registry.decode(load("photo-2k-kite.jpg")).pixels
    for filter in ResamplingFilter.allCases {
      record(
        try bench.measure("resize", "2560x1600 -> 400x250, \(filter.rawValue)") {
          _ = try photo.resized(to: PixelSize(width: 400, height: 250), filter: filter)
        })
    }
    let shrunk = try registry.decode(
      load("photo-2k-kite.jpg"), options: DecodingOptions(targetSize: PixelSize(width: 400, height: 250))
    ).pixels
    record(
      try bench.measure("resize", "640x400 (shrunk on load) -> 400x250, lanczos3") {
        _ = try shrunk.resized(to: PixelSize(width: 400, height: 250), filter: .lanczos3)
      })

    let thumbnail = try photo.resized(to: PixelSize(width: 400, height: 250))
    let encodings: [(String, ImageFormat, EncodingOptions)] = [
      ("JPEG q80", .jpeg, EncodingOptions(quality: 80)),
      ("JPEG q80 progressive", .jpeg, EncodingOptions(quality: 80, progressive: true)),
      ("PNG level 6", .png, EncodingOptions(compressionLevel: 6)),
      ("PNG level 1", .png, EncodingOptions(compressionLevel: 1)),
      ("WebP q80", .webp, EncodingOptions(quality: 80)),
      ("WebP lossless", .webp, EncodingOptions(lossless: true)),
    ]
    for (label, format, options) in encodings {
      record(
        try bench.measure("encode", "400x250 \(label)") {
          _ = try registry.encode(thumbnail, as: format, options: options)
        })
    }

    // Caches: a hit in memory (decoded pixels), and a hit on disk returning the stored bytes of
    // a 400 px JPEG (what a server sends back).
    // Through ImageCache, as the manager and users reach it (MemoryCache is generic: called from
    // this module directly it would run unspecialised, which is not what users get).
    let memoryCache = ImageCache(memory: MemoryCache(configuration: .init(costLimit: 512 << 20)))
    let keys = (0..<1000).map {
      CacheKey(source: "https://images.example.com/photo-\($0).jpg", processor: "imago.resize.v1(w=400)")
    }
    for key in keys { try memoryCache.store(thumbnail, for: key, memoryOnly: true) }
    var probe = 0
    record(
      bench.measure("cache", "memory hit (400x250 pixels, 1000 entries)") {
        probe = (probe + 7) % keys.count
        _ = memoryCache.image(for: keys[probe])
      })
    let diskDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("imago-bench-\(getpid())")
    defer { try? FileManager.default.removeItem(at: diskDirectory) }
    let disk = try DiskCache(directory: diskDirectory)
    let jpegThumbnail = try registry.encode(thumbnail, as: .jpeg, options: EncodingOptions(quality: 80))
    for key in keys.prefix(200) { try disk.store(jpegThumbnail, for: key, format: .jpeg) }
    record(
      bench.measure("cache", "disk hit (400 px JPEG, \(jpegThumbnail.count) bytes)") {
        probe = (probe + 7) % 200
        _ = disk.entry(for: keys[probe])
      })

    if let jsonPath {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
      let report = Report(kind: "in-process", allocationsCounted: Bench.countsAllocations, results: results)
      try encoder.encode(report).write(to: URL(fileURLWithPath: jsonPath))
    }
  }
}
