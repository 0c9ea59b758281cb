import Foundation

extension PixelBuffer {
  /// The image resampled to exactly `size` with a separable filter.
  ///
  /// Alpha is premultiplied while filtering, so transparent pixels do not bleed dark halos
  /// into their neighbours; the result keeps this buffer's format. Large images are split
  /// across all cores.
  ///
  /// ```swift
  /// let thumb = try photo.resized(to: PixelSize(width: 400, height: 225))
  /// ```
  public func resized(to size: PixelSize, filter: ResamplingFilter = .lanczos3) throws(ImagoError) -> PixelBuffer {
    guard size.width > 0, size.height > 0 else { throw .invalidArgument("resize to \(size)") }
    guard size.width.multipliedReportingOverflow(by: size.height).overflow == false,
      size.width * size.height <= DecodingLimits.default.maxPixels * 4
    else { throw .tooLarge(width: size.width, height: size.height, limit: "the resize output limit") }
    if size == PixelSize(width: width, height: height) { return self }
    return Resampler(source: self, size: size, filter: filter).run()
  }
}

/// Contributions of source pixels to one output pixel along one axis.
struct ResamplingKernel {
  /// For each output index, the first source index it reads.
  var starts: [Int]
  /// Taps per output index (the same for all; unused taps weigh 0).
  var tapCount: Int
  /// `tapCount` weights per output index, summing to 1.
  var weights: [Float]

  init(inputSize: Int, outputSize: Int, filter: ResamplingFilter) {
    let scale = Double(inputSize) / Double(outputSize)
    let filterScale = max(scale, 1)
    let support = filter == .nearest ? 0.5 : filter.support * filterScale
    tapCount = max(1, Int((support * 2).rounded(.up)) + 1)
    starts = [Int](repeating: 0, count: outputSize)
    weights = [Float](repeating: 0, count: outputSize * tapCount)
    for index in 0..<outputSize {
      let center = (Double(index) + 0.5) * scale
      if filter == .nearest {
        starts[index] = min(inputSize - 1, Int(center))
        weights[index * tapCount] = 1
        continue
      }
      var first = Int((center - support).rounded(.down))
      first = max(0, min(first, inputSize - 1))
      let last = min(inputSize - 1, Int((center + support).rounded(.up)))
      let taps = min(tapCount, last - first + 1)
      var total = 0.0
      var local = [Double](repeating: 0, count: taps)
      for tap in 0..<taps {
        let w = filter.weight((Double(first + tap) + 0.5 - center) / filterScale)
        local[tap] = w
        total += w
      }
      starts[index] = first
      if total == 0 {
        weights[index * tapCount] = 1
        continue
      }
      for tap in 0..<taps { weights[index * tapCount + tap] = Float(local[tap] / total) }
    }
  }
}

/// Two passes: horizontal into a float buffer (premultiplying alpha on the way), then vertical
/// back to 8 bits (unpremultiplying on the way out).
struct Resampler {
  let source: PixelBuffer
  let size: PixelSize
  let filter: ResamplingFilter
  /// How many threads; `nil` picks from the amount of work.
  var workers: Int? = nil

  func run() -> PixelBuffer {
    let channels = source.format.channelCount
    let alphaMode = source.format.alpha
    let horizontal = ResamplingKernel(inputSize: source.width, outputSize: size.width, filter: filter)
    let vertical = ResamplingKernel(inputSize: source.height, outputSize: size.height, filter: filter)
    let rowFloats = size.width * channels
    var intermediate = [Float](repeating: 0, count: rowFloats * source.height)
    let workers = self.workers ?? Self.workerCount(work: source.height * size.width + size.height * size.width)

    intermediate.withUnsafeMutableBufferPointer { middle in
      source.withUnsafeBytes { input in
        let middle = UncheckedSendable(middle)
        let input = UncheckedSendable(input)
        Self.parallelRows(source.height, workers: workers) { rows in
          for y in rows {
            Self.horizontalRow(
              input.value.baseAddress!.assumingMemoryBound(to: UInt8.self) + y * source.bytesPerRow,
              into: middle.value.baseAddress! + y * rowFloats, kernel: horizontal, channels: channels,
              premultiply: alphaMode == .straight)
          }
        }
      }
    }

    return PixelBuffer(width: size.width, height: size.height, format: source.format) { output in
      intermediate.withUnsafeBufferPointer { middle in
        let middle = UncheckedSendable(middle)
        let output = UncheckedSendable(output)
        Self.parallelRows(size.height, workers: workers) { rows in
          var accumulator = [Float](repeating: 0, count: rowFloats)
          for y in rows {
            Self.verticalRow(
              y, middle: middle.value, rowFloats: rowFloats, kernel: vertical, accumulator: &accumulator,
              into: output.value.baseAddress!.assumingMemoryBound(to: UInt8.self) + y * rowFloats,
              channels: channels, unpremultiply: alphaMode == .straight)
          }
        }
      }
    }
  }

  private static func horizontalRow(
    _ row: UnsafePointer<UInt8>, into out: UnsafeMutablePointer<Float>, kernel: ResamplingKernel, channels: Int,
    premultiply: Bool
  ) {
    let taps = kernel.tapCount
    kernel.weights.withUnsafeBufferPointer { weights in
      for x in 0..<kernel.starts.count {
        let start = kernel.starts[x]
        let weightBase = x * taps
        let outBase = x * channels
        for channel in 0..<channels { out[outBase + channel] = 0 }
        for tap in 0..<taps {
          let weight = weights[weightBase + tap]
          if weight == 0 { continue }
          let inBase = (start + tap) * channels
          if premultiply {
            let alpha = Float(row[inBase + channels - 1])
            let colourWeight = weight * alpha * (1.0 / 255)
            for channel in 0..<(channels - 1) { out[outBase + channel] += Float(row[inBase + channel]) * colourWeight }
            out[outBase + channels - 1] += alpha * weight
          } else {
            for channel in 0..<channels { out[outBase + channel] += Float(row[inBase + channel]) * weight }
          }
        }
      }
    }
  }

  private static func verticalRow(
    _ y: Int, middle: UnsafeBufferPointer<Float>, rowFloats: Int, kernel: ResamplingKernel,
    accumulator: inout [Float], into out: UnsafeMutablePointer<UInt8>, channels: Int, unpremultiply: Bool
  ) {
    let taps = kernel.tapCount
    let start = kernel.starts[y]
    accumulator.withUnsafeMutableBufferPointer { sum in
      for index in 0..<rowFloats { sum[index] = 0 }
      for tap in 0..<taps {
        let weight = kernel.weights[y * taps + tap]
        if weight == 0 { continue }
        let row = middle.baseAddress! + (start + tap) * rowFloats
        for index in 0..<rowFloats { sum[index] += row[index] * weight }
      }
      if unpremultiply {
        var pixel = 0
        while pixel < rowFloats {
          let alpha = min(max(sum[pixel + channels - 1], 0), 255)
          let scale: Float = alpha > 0.5 ? 255 / alpha : 0
          for channel in 0..<(channels - 1) { out[pixel + channel] = clampByte(sum[pixel + channel] * scale) }
          out[pixel + channels - 1] = clampByte(alpha)
          pixel += channels
        }
      } else {
        for index in 0..<rowFloats { out[index] = clampByte(sum[index]) }
      }
    }
  }

  @inline(__always) private static func clampByte(_ value: Float) -> UInt8 {
    UInt8(min(max(value + 0.5, 0), 255))
  }

  /// Both cores only when there is enough work to pay for the hand-off.
  static func workerCount(work: Int) -> Int {
    work < 250_000 ? 1 : ProcessInfoCores.active
  }

  static func parallelRows(_ count: Int, workers: Int, _ body: @Sendable (Range<Int>) -> Void) {
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

enum ProcessInfoCores {
  static let active: Int = max(1, min(64, ProcessInfo.processInfo.activeProcessorCount))
}
