import ArgumentParser
import Foundation
import Imago

extension ResamplingFilter: ExpressibleByArgument {}

struct ResizeCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "resize",
    abstract: "Resize and/or re-encode an image, shrinking while decoding where the format allows.",
    discussion: """
      With neither --width nor --height the image is only re-encoded. With one of them the other
      follows the aspect ratio; with both the image fits inside the box. Images are turned upright
      by their EXIF orientation and are never enlarged unless --upscale is given.
      """
  )

  @Argument(help: "The input image.")
  var input: String

  @Option(name: .shortAndLong, help: "The output file.")
  var output: String

  @Option(help: "Output width in pixels.")
  var width: Int?

  @Option(help: "Output height in pixels.")
  var height: Int?

  @Option(help: "Output format: jpeg, png or webp (default: from the output's extension).")
  var format: String?

  @Option(help: "Quality for JPEG and lossy WebP, 1-100.")
  var quality: Int = 85

  @Option(help: "Resampling filter: nearest, bilinear, catmullRom, mitchell, lanczos3.")
  var filter: ResamplingFilter = .lanczos3

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
    _ = try outputFormat()
  }

  func outputFormat() throws -> ImageFormat {
    let name = format ?? URL(fileURLWithPath: output).pathExtension
    guard let format = ImageFormat(fileExtension: name) else {
      if self.format == nil {
        throw ValidationError("cannot tell the output format from '\(output)': use --format jpeg|png|webp")
      }
      throw ValidationError("unknown output format '\(name)': use jpeg, png or webp")
    }
    guard [.jpeg, .png, .webp].contains(format) else {
      throw ValidationError("unsupported output format: \(format) (imgcli writes jpeg, png or webp)")
    }
    return format
  }

  func run() throws {
    let data = try readInput(input)
    let registry = CoderRegistry.default
    do {
      let info = try registry.info(for: data)
      let size = ResizePlan.outputSize(
        source: info.orientedSize, width: width, height: height, allowsUpscaling: upscale)
      let decoded = try registry.decode(data, options: DecodingOptions(targetSize: size))
      let pixels = try decoded.pixels.resized(to: size, filter: filter)
      let encoded = try registry.encode(
        pixels, as: try outputFormat(),
        options: EncodingOptions(quality: quality, progressive: progressive, lossless: lossless))
      try encoded.write(to: URL(fileURLWithPath: output), options: .atomic)
    } catch let error as ImagoError {
      throw CommandFailure.input("\(input): \(error)")
    } catch let error as CocoaError {
      throw CommandFailure.input("\(output): cannot write: \(error.localizedDescription)")
    }
  }
}

/// The size `imgcli resize` produces from the requested width and/or height.
enum ResizePlan {
  static func outputSize(source: PixelSize, width: Int?, height: Int?, allowsUpscaling: Bool) -> PixelSize {
    let (sw, sh) = (Double(source.width), Double(source.height))
    var scale: Double
    switch (width, height) {
    case (nil, nil): return source
    case (let w?, nil): scale = Double(w) / sw
    case (nil, let h?): scale = Double(h) / sh
    case (let w?, let h?): scale = min(Double(w) / sw, Double(h) / sh)
    }
    if !allowsUpscaling { scale = min(scale, 1) }
    return PixelSize(width: max(1, Int((sw * scale).rounded())), height: max(1, Int((sh * scale).rounded())))
  }
}
