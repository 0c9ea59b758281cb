import ArgumentParser
import Foundation
import Imago
import Synchronization

/// `imgcli fetch`: download, process and save images, through the disk cache.
struct FetchCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "fetch",
    abstract: "Download images (through the cache), process them like resize, and save them.",
    discussion: """
      Exit status: 0 done; 3 a network or HTTP error (the message says which); 1 any other
      failure; 2 usage errors. With several URLs the others still run, and the status is 3 if
      any failed on the network, else 1 if any failed.
      """
  )

  @Argument(help: "Image URLs (http, https or data:).")
  var urls: [String]

  @OptionGroup var destination: Destination

  @OptionGroup var processing: ProcessingOptions

  @Option(
    name: .customLong("cache-dir"), help: "The cache directory (default: $XDG_CACHE_HOME/imgcli or ~/.cache/imgcli).")
  var cacheDirectory: String = CacheCommand.defaultDirectory

  @Flag(name: .customLong("no-cache"), help: "Neither read nor write the disk cache.")
  var noCache = false

  @Flag(name: .customLong("force-refresh"), help: "Download again even when cached.")
  var forceRefresh = false

  @Flag(name: .customLong("only-from-cache"), help: "Never download: fail when an image is not cached.")
  var onlyFromCache = false

  @Option(help: "Seconds allowed per download, retries included.")
  var timeout: Double = 30

  @Option(name: .customLong("header"), help: "A request header, 'Name: value' (repeatable).")
  var headers: [String] = []

  @Option(name: .short, help: "URLs fetched at once.")
  var jobs: Int = 4

  func validate() throws {
    if urls.isEmpty { throw ValidationError("give at least one URL") }
    try destination.validate(inputs: urls.count, noun: "URL")
    for url in urls where URL(string: url)?.scheme == nil { throw ValidationError("not a URL: '\(url)'") }
    if timeout <= 0 { throw ValidationError("--timeout must be positive") }
    if jobs < 1 { throw ValidationError("-j must be at least 1") }
    for header in headers where !header.contains(":") {
      throw ValidationError("--header must look like 'Name: value', not '\(header)'")
    }
    if let output = destination.output { _ = try processing.outputFormat(for: output) }
  }

  func run() async throws {
    let chain = try processing.pipeline()
    let manager = try makeManager()
    let parsedHeaders = headers.map { header -> (String, String) in
      let colon = header.firstIndex(of: ":")!
      return (
        String(header[..<colon]).trimmingCharacters(in: .whitespaces),
        String(header[header.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
      )
    }
    let options = ImageRequestOptions(
      forceRefresh: forceRefresh, onlyFromCache: onlyFromCache, cacheMemoryOnly: noCache, cachesOriginalData: !noCache,
      timeout: timeout,
      requestModifier: { request in
        for (name, value) in parsedHeaders { request.setValue(value, forHTTPHeaderField: name) }
      })
    let requests = urls.map { ImageRequest(url: URL(string: $0)!, processors: chain.processors, options: options) }
    let plan = OutputPlan(
      output: destination.output, outputDirectory: destination.directory, formatName: processing.format,
      explicitFormat: processing.explicitFormat, encoding: processing.encodingOptions)
    let showsProgress = isatty(STDERR_FILENO) == 1
    let tally = Tally()
    await withTaskGroup(of: Void.self) { group in
      var next = 0
      func addNext() {
        guard next < requests.count else { return }
        let index = next
        next += 1
        group.addTask {
          do {
            try await Self.fetch(
              requests[index], index: index, manager: manager, plan: plan,
              showsProgress: showsProgress && requests.count == 1)
          } catch {
            tally.failures.withLock { $0.append((index, error)) }
          }
          let finished = tally.done.withLock { count -> Int in
            count += 1
            return count
          }
          if showsProgress && requests.count > 1 { Self.drawCount(finished, of: requests.count) }
        }
      }
      for _ in 0..<jobs { addNext() }
      while await group.next() != nil { addNext() }
    }
    if showsProgress { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    let failed = tally.failures.withLock { $0 }.sorted { $0.index < $1.index }
    for failure in failed { CommandFailure.printToStandardError("error: \(Self.describe(failure.error))") }
    if urls.count > 1 {
      CommandFailure.printToStandardError("\(urls.count - failed.count) done, \(failed.count) failed")
    }
    guard !failed.isEmpty else { return }
    let network = failed.contains { ($0.error as? ImagoError)?.isNetworkError ?? false }
    throw CommandFailure(status: network ? 3 : 1, message: nil)
  }

  /// Where and how results are written; Sendable, for the concurrent fetches.
  struct OutputPlan: Sendable {
    var output: String?
    var outputDirectory: String?
    var formatName: String?
    var explicitFormat: ImageFormat?
    var encoding: EncodingOptions
  }

  final class Tally: Sendable {
    let failures = Mutex<[(index: Int, error: any Error)]>([])
    let done = Mutex(0)
  }

  private func makeManager() throws -> ImageManager {
    let disk: DiskCache?
    if noCache {
      disk = nil
    } else {
      do {
        disk = try DiskCache(directory: URL(fileURLWithPath: cacheDirectory))
      } catch {
        throw CommandFailure.input("\(error)")
      }
    }
    let cache = ImageCache(memory: MemoryCache(configuration: .init(costLimit: 256 << 20)), disk: disk)
    let downloader = ImageDownloader(configuration: .init(timeout: timeout))
    return ImageManager(cache: cache, loader: downloader)
  }

  private static func fetch(
    _ request: ImageRequest, index: Int, manager: ImageManager, plan: OutputPlan, showsProgress: Bool
  ) async throws {
    let result: ImageResult
    if showsProgress {
      let task = manager.task(for: request)
      for await event in task.progress { Self.drawBytes(event) }
      result = try await task.result
    } else {
      result = try await manager.image(for: request)
    }
    let format: ImageFormat
    let destination: String
    if let output = plan.output {
      format = try ProcessingOptions.format(
        named: plan.formatName ?? URL(fileURLWithPath: output).pathExtension, given: plan.formatName, for: output)
      destination = output
    } else {
      let sourceFormat = result.format.flatMap { [.jpeg, .png, .webp].contains($0) ? $0 : nil } ?? .jpeg
      format = plan.explicitFormat ?? sourceFormat
      destination =
        URL(fileURLWithPath: plan.outputDirectory ?? ".").appendingPathComponent(
          outputName(for: request.source, index: index, format: format)
        ).path
    }
    let data = try CoderRegistry.default.encode(result.pixels, as: format, options: plan.encoding)
    do {
      try FileManager.default.createDirectory(
        at: URL(fileURLWithPath: destination).deletingLastPathComponent(), withIntermediateDirectories: true)
      try data.write(to: URL(fileURLWithPath: destination), options: .atomic)
    } catch {
      throw CommandFailure.input("\(destination): cannot write: \(error.localizedDescription)")
    }
  }

  /// The URL's last path component with the output format's extension (image-N when it has none).
  static func outputName(for source: ImageSource, index: Int, format: ImageFormat) -> String {
    var base = "image-\(index + 1)"
    if case .network(let url) = source, url.scheme != "data" {
      let last = url.deletingPathExtension().lastPathComponent
      if !last.isEmpty && last != "/" { base = last }
    }
    return base + "." + format.fileExtension
  }

  static func describe(_ error: any Error) -> String {
    if let failure = error as? CommandFailure { return failure.message ?? "failed" }
    return "\(error)"
  }

  private static func drawBytes(_ progress: DownloadProgress) {
    let received = ByteCountFormatter.string(fromByteCount: Int64(progress.receivedBytes), countStyle: .file)
    let line: String
    if let expected = progress.expectedBytes, expected > 0 {
      let width = 30
      let filled = min(width, progress.receivedBytes * width / expected)
      line = "[\(String(repeating: "#", count: filled))\(String(repeating: "-", count: width - filled))] \(received)"
    } else {
      line = "\(received)"
    }
    FileHandle.standardError.write(Data("\r\u{1B}[K\(line)".utf8))
  }

  private static func drawCount(_ done: Int, of total: Int) {
    FileHandle.standardError.write(Data("\r\u{1B}[K\(done)/\(total) fetched".utf8))
  }
}
