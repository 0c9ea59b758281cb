import ArgumentParser
import Foundation
import Imago
import Synchronization

struct ResizeCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "resize",
    abstract: "Resize, process and re-encode images, shrinking while decoding where the format allows.",
    discussion: """
      With neither --width nor --height (and no --op) an image is only re-encoded. With one side
      the other follows the aspect ratio; with both, --mode says how the image meets the box.
      Images are turned upright by their EXIF orientation and never enlarged unless --upscale.
      Each --op appends a processor, in order, after the resize; `imgcli ops` lists them:
        --op resize=400x300,fill --op blur=2 --op round=12 --op grayscale
      Several inputs need --out-dir; they are processed in parallel (-j), a bad file is
      reported and skipped, and the exit status is 1 if any failed.
      """
  )

  @Argument(help: "Input images.")
  var inputs: [String]

  @OptionGroup var destination: Destination

  @OptionGroup var processing: ProcessingOptions

  @Option(name: .short, help: "Files processed at once (default: all cores).")
  var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

  func validate() throws {
    if inputs.isEmpty { throw ValidationError("give at least one input image") }
    try destination.validate(inputs: inputs.count, noun: "input")
    if jobs < 1 { throw ValidationError("-j must be at least 1, not \(jobs)") }
    if let output = destination.output { _ = try processing.outputFormat(for: output) }
    if destination.directory != nil {
      let names = try inputs.map { try outputName(for: $0) }
      if let duplicate = Dictionary(grouping: names, by: { $0 }).first(where: { $0.value.count > 1 })?.key {
        throw ValidationError("two inputs would both write \(duplicate) in the output directory")
      }
    }
  }

  func outputName(for input: String) throws -> String {
    let url = URL(fileURLWithPath: input)
    let base = url.deletingPathExtension().lastPathComponent
    let ext = processing.explicitFormat?.fileExtension ?? url.pathExtension
    return base + "." + (ext.isEmpty ? "jpg" : ext)
  }

  func run() throws {
    let chain = try processing.pipeline()
    let options = processing.encodingOptions
    if let output = destination.output {
      let format = try processing.outputFormat(for: output)
      try Self.process(input: inputs[0], output: output, format: format, chain: chain, options: options)
      return
    }
    guard let outputDirectory = destination.directory else { return }
    do {
      try FileManager.default.createDirectory(atPath: outputDirectory, withIntermediateDirectories: true)
    } catch {
      throw CommandFailure.input("\(outputDirectory): cannot create the output directory")
    }
    let jobs = try inputs.map { input in
      (
        input: input,
        output: URL(fileURLWithPath: outputDirectory).appendingPathComponent(try outputName(for: input)).path
      )
    }
    let explicitFormat = processing.explicitFormat
    let failures = BatchRunner(count: jobs.count, workers: self.jobs, label: { jobs[$0].input }).run { index throws in
      let job = jobs[index]
      let format =
        try explicitFormat
        ?? ProcessingOptions.format(named: URL(fileURLWithPath: job.output).pathExtension, given: nil, for: job.output)
      try Self.process(input: job.input, output: job.output, format: format, chain: chain, options: options)
    }
    for (_, message) in failures.sorted(by: { $0.key < $1.key }) {
      CommandFailure.printToStandardError("error: \(message)")
    }
    CommandFailure.printToStandardError("\(jobs.count - failures.count) done, \(failures.count) failed")
    if !failures.isEmpty { throw CommandFailure.someFailed }
  }

  /// Decodes (shrinking on load for the first processor), runs the chain, encodes, and writes
  /// the output atomically: a failure leaves no output behind.
  static func process(
    input: String, output: String, format: ImageFormat, chain: ImageProcessorChain, options: EncodingOptions
  ) throws {
    let data = try readInput(input)
    do {
      let pixels = try chain.process(.data(data), context: .default)
      let encoded = try CoderRegistry.default.encode(pixels, as: format, options: options)
      try encoded.write(to: URL(fileURLWithPath: output), options: .atomic)
    } catch let error as ImagoError {
      throw CommandFailure.input("\(input): \(error)")
    } catch let error as CocoaError {
      throw CommandFailure.input("\(output): cannot write: \(error.localizedDescription)")
    }
  }
}

/// Runs jobs on a fixed number of threads, collecting failures, with a progress bar on a terminal.
struct BatchRunner: Sendable {
  let count: Int
  let workers: Int
  let label: @Sendable (Int) -> String

  private struct State {
    var next = 0
    var finished = 0
    var failures: [Int: String] = [:]
  }

  func run(_ job: @Sendable @escaping (Int) throws -> Void) -> [Int: String] {
    let state = Mutex(State())
    let showsProgress = isatty(STDERR_FILENO) == 1
    DispatchQueue.concurrentPerform(iterations: min(workers, count)) { _ in
      while true {
        let index = state.withLock { state -> Int? in
          guard state.next < count else { return nil }
          defer { state.next += 1 }
          return state.next
        }
        guard let index else { return }
        var failure: String?
        do {
          try job(index)
        } catch let error as CommandFailure {
          failure = error.message ?? label(index)
        } catch {
          failure = "\(label(index)): \(error)"
        }
        state.withLock { state in
          state.finished += 1
          if let failure { state.failures[index] = failure }
          if showsProgress { Self.drawProgress(done: state.finished, of: count, failed: state.failures.count) }
        }
      }
    }
    if showsProgress { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    return state.withLock { $0.failures }
  }

  private static func drawProgress(done: Int, of total: Int, failed: Int) {
    let width = 30
    let filled = total == 0 ? width : done * width / total
    let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
    FileHandle.standardError.write(Data("\r[\(bar)] \(done)/\(total)\(failed > 0 ? ", \(failed) failed" : "")".utf8))
  }
}
