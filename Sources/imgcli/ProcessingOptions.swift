import ArgumentParser
import Foundation
import Imago

extension ResamplingFilter: ExpressibleByArgument {}

enum ResizeMode: String, ExpressibleByArgument, CaseIterable {
  case fit, fill, stretch
}

/// The size, processor and encoding options `resize` and `fetch` share.
struct ProcessingOptions: ParsableArguments {
  @Option(help: "Output width in pixels.")
  var width: Int?

  @Option(help: "Output height in pixels.")
  var height: Int?

  @Option(help: "How the image meets a box given by --width and --height: fit, fill or stretch.")
  var mode: ResizeMode = .fit

  @Option(help: "What --mode fill keeps: center, top, bottom-left, ... or X:Y.")
  var anchor: String = "center"

  @Option(help: "Resampling filter: nearest, bilinear, catmullRom, mitchell, lanczos3.")
  var filter: ResamplingFilter = .lanczos3

  @Option(name: .customLong("op"), help: "A processor to append, e.g. blur=2 (repeatable; see `imgcli ops`).")
  var operations: [String] = []

  @Option(help: "Output format: jpeg, png or webp (default: the output's extension, or the input's format).")
  var format: String?

  @Option(help: "Quality for JPEG and lossy WebP, 1-100.")
  var quality: Int = 85

  @Flag(help: "Allow the output to be larger than the input.")
  var upscale = false

  @Flag(help: "Progressive JPEG (or interlaced PNG).")
  var progressive = false

  @Flag(help: "Lossless WebP.")
  var lossless = false

  func validate() throws {
    if let width, width <= 0 { throw ValidationError("--width must be a positive number of pixels, not \(width)") }
    if let height, height <= 0 { throw ValidationError("--height must be a positive number of pixels, not \(height)") }
    if !(1...100).contains(quality) { throw ValidationError("--quality must be in 1...100, not \(quality)") }
    if let format { _ = try Self.format(named: format, given: format, for: format) }
    _ = try pipeline()
  }

  var encodingOptions: EncodingOptions {
    EncodingOptions(quality: quality, progressive: progressive, lossless: lossless)
  }

  var explicitFormat: ImageFormat? { format.flatMap(ImageFormat.init(fileExtension:)) }

  /// The format for an output file: --format, else the file's extension.
  func outputFormat(for path: String) throws -> ImageFormat {
    try Self.format(named: format ?? URL(fileURLWithPath: path).pathExtension, given: format, for: path)
  }

  /// The processors: the resize the size options ask for, then every --op in order.
  func pipeline() throws -> ImageProcessorChain {
    var processors: [any ImageProcessing] = []
    if width != nil || height != nil {
      let resizeMode: ImageProcessors.Resize.ContentMode
      switch mode {
      case .fit: resizeMode = .fit
      case .stretch: resizeMode = .stretch
      case .fill:
        guard let parsed = Anchor(text: anchor) else {
          throw ValidationError("--anchor: unknown anchor '\(anchor)' (center, top, bottom-left, ... or X:Y)")
        }
        resizeMode = .fill(parsed)
      }
      processors.append(
        ImageProcessors.Resize(width: width, height: height, mode: resizeMode, filter: filter, allowsUpscaling: upscale)
      )
    }
    do {
      processors += try ProcessorParser.parseChain(operations).processors
    } catch {
      throw ValidationError("\(error)")
    }
    return ImageProcessorChain(processors)
  }

  /// The format named by `name` (an extension or a format name), if imgcli can write it.
  static func format(named name: String, given: String?, for path: String) throws -> ImageFormat {
    guard let format = ImageFormat(fileExtension: name) else {
      if given == nil {
        throw ValidationError("cannot tell the output format from '\(path)': use --format jpeg|png|webp")
      }
      throw ValidationError("unknown output format '\(name)': use jpeg, png or webp")
    }
    guard [.jpeg, .png, .webp].contains(format) else {
      throw ValidationError("unsupported output format: \(format) (imgcli writes jpeg, png or webp)")
    }
    return format
  }
}

/// Where results go: one file, or a directory for any number of them.
struct Destination: ParsableArguments {
  @Option(name: .shortAndLong, help: "The output file (one input).")
  var output: String?

  @Option(name: .customLong("out-dir"), help: "Directory for the outputs (any number of inputs).")
  var directory: String?

  /// Exactly one of the two, and -o only for a single input.
  func validate(inputs: Int, noun: String) throws {
    switch (output, directory) {
    case (nil, nil): throw ValidationError("give -o OUTPUT (one \(noun)) or --out-dir DIR")
    case (_?, _?): throw ValidationError("give either -o or --out-dir, not both")
    case (_?, nil) where inputs > 1: throw ValidationError("\(inputs) \(noun)s need --out-dir, not -o")
    default: break
    }
  }
}
