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
    try resized(
      region: SourceRegion(x: 0, y: 0, width: Double(width), height: Double(height)), to: size, filter: filter)
  }

  /// The part of the image inside `region` (in source pixels, fractions allowed), resampled to
  /// `size`. Filter taps reach past the region into real neighbours, so crop edges stay clean.
  /// The output obeys the same pixel limits as decoding: a request cannot ask for a bigger image
  /// than it may decode.
  func resized(
    region: SourceRegion, to size: PixelSize, filter: ResamplingFilter, limits: DecodingLimits = .default
  ) throws(ImagoError) -> PixelBuffer {
    guard size.width > 0, size.height > 0 else { throw .invalidArgument("resize to \(size)") }
    try limits.check(width: size.width, height: size.height)
    if size == PixelSize(width: width, height: height) && region.isWhole(of: self) { return self }
    return Resampler(source: self, region: region, size: size, filter: filter).run()
  }
}

/// A rectangle of source pixels, with fractional edges.
struct SourceRegion: Hashable {
  var x: Double
  var y: Double
  var width: Double
  var height: Double

  func isWhole(of image: PixelBuffer) -> Bool {
    x == 0 && y == 0 && width == Double(image.width) && height == Double(image.height)
  }
}

/// Contributions of source pixels to one output pixel along one axis.
///
/// Every output reads the same number of taps, and every window lies inside the input
/// (windows at the edges are shifted inward and padded with zero weights), so the inner
/// loops need no bounds checks or branches.
struct ResamplingKernel {
  /// For each output index, the first source index it reads.
  var starts: [Int]
  /// Taps per output index.
  var tapCount: Int
  /// `tapCount` weights per output index, summing to 1.
  var weights: [Float]

  init(inputSize: Int, regionStart: Double = 0, regionLength: Double? = nil, outputSize: Int, filter: ResamplingFilter)
  {
    let length = regionLength ?? Double(inputSize)
    let scale = length / Double(outputSize)
    let filterScale = max(scale, 1)
    let support = filter == .nearest ? 0.5 : filter.support * filterScale
    tapCount = min(inputSize, max(1, Int((support * 2).rounded(.up)) + 1))
    starts = [Int](repeating: 0, count: outputSize)
    weights = [Float](repeating: 0, count: outputSize * tapCount)
    var local = [Double](repeating: 0, count: tapCount)
    for index in 0..<outputSize {
      let center = regionStart + (Double(index) + 0.5) * scale
      if filter == .nearest {
        let source = max(0, min(inputSize - 1, Int(center)))
        let start = min(source, inputSize - tapCount)
        starts[index] = start
        weights[index * tapCount + source - start] = 1
        continue
      }
      let first = max(0, min(Int((center - support).rounded(.down)), inputSize - 1))
      let last = min(inputSize - 1, Int((center + support).rounded(.up)))
      let taps = min(tapCount, last - first + 1)
      var total = 0.0
      for tap in 0..<taps {
        let weight = filter.weight((Double(first + tap) + 0.5 - center) / filterScale)
        local[tap] = weight
        total += weight
      }
      let start = min(first, inputSize - tapCount)
      let offset = first - start
      starts[index] = start
      if total == 0 {
        weights[index * tapCount + offset] = 1
        continue
      }
      for tap in 0..<taps { weights[index * tapCount + offset + tap] = Float(local[tap] / total) }
    }
  }

  /// The source indices any output reads.
  var inputRange: Range<Int> {
    guard let first = starts.min(), let last = starts.max() else { return 0..<0 }
    return first..<(last + tapCount)
  }
}

/// Two passes: horizontal into a float buffer (premultiplying alpha on the way), then vertical
/// back to 8 bits (unpremultiplying on the way out). Only the rows the vertical pass reads are
/// filtered horizontally.
struct Resampler {
  let source: PixelBuffer
  var region: SourceRegion
  let size: PixelSize
  let filter: ResamplingFilter
  /// How many threads; `nil` picks from the amount of work.
  var workers: Int? = nil

  init(source: PixelBuffer, region: SourceRegion? = nil, size: PixelSize, filter: ResamplingFilter, workers: Int? = nil)
  {
    self.source = source
    self.region = region ?? SourceRegion(x: 0, y: 0, width: Double(source.width), height: Double(source.height))
    self.size = size
    self.filter = filter
    self.workers = workers
  }

  func run() -> PixelBuffer {
    let channels = source.format.channelCount
    let premultiply = source.format.alpha == .straight
    let horizontal = ResamplingKernel(
      inputSize: source.width, regionStart: region.x, regionLength: region.width, outputSize: size.width,
      filter: filter)
    let vertical = ResamplingKernel(
      inputSize: source.height, regionStart: region.y, regionLength: region.height, outputSize: size.height,
      filter: filter)
    let rows = vertical.inputRange.clamped(to: 0..<source.height)
    let rowFloats = size.width * channels
    var intermediate = [Float](repeating: 0, count: rowFloats * rows.count)
    let workers = self.workers ?? ParallelRows.workerCount(work: rows.count * size.width + size.height * size.width)
    let stride = source.bytesPerRow

    intermediate.withUnsafeMutableBufferPointer { middle in
      source.withUnsafeBytes { input in
        let middle = UncheckedSendable(middle)
        let input = UncheckedSendable(input)
        ParallelRows.run(rows.count, workers: workers) { band in
          for row in band {
            Self.horizontalRow(
              input.value.baseAddress!.assumingMemoryBound(to: UInt8.self) + (rows.lowerBound + row) * stride,
              into: middle.value.baseAddress! + row * rowFloats, kernel: horizontal, channels: channels,
              premultiply: premultiply)
          }
        }
      }
    }

    return PixelBuffer(width: size.width, height: size.height, format: source.format) { output in
      intermediate.withUnsafeBufferPointer { middle in
        let middle = UncheckedSendable(middle)
        let output = UncheckedSendable(output)
        ParallelRows.run(size.height, workers: workers) { band in
          var accumulator = [Float](repeating: 0, count: rowFloats)
          for y in band {
            Self.verticalRow(
              y, middle: middle.value, firstRow: rows.lowerBound, rowFloats: rowFloats, kernel: vertical,
              accumulator: &accumulator,
              into: output.value.baseAddress!.assumingMemoryBound(to: UInt8.self) + y * rowFloats,
              channels: channels, unpremultiply: premultiply)
          }
        }
      }
    }
  }

  /// One row through the horizontal kernel, with the channel count fixed per loop so each
  /// tap is a few multiply-adds into registers.
  private static func horizontalRow(
    _ row: UnsafePointer<UInt8>, into out: UnsafeMutablePointer<Float>, kernel: ResamplingKernel, channels: Int,
    premultiply: Bool
  ) {
    let taps = kernel.tapCount
    kernel.weights.withUnsafeBufferPointer { weightBuffer in
      kernel.starts.withUnsafeBufferPointer { starts in
        let allWeights = weightBuffer.baseAddress!
        switch (channels, premultiply) {
        case (1, _):
          for x in 0..<starts.count {
            let weights = allWeights + x * taps
            let source = row + starts[x]
            var v: Float = 0
            for tap in 0..<taps { v += Float(source[tap]) * weights[tap] }
            out[x] = v
          }
        case (3, _):
          for x in 0..<starts.count {
            let weights = allWeights + x * taps
            var source = row + starts[x] * 3
            var (r, g, b): (Float, Float, Float) = (0, 0, 0)
            for tap in 0..<taps {
              let weight = weights[tap]
              r += Float(source[0]) * weight
              g += Float(source[1]) * weight
              b += Float(source[2]) * weight
              source += 3
            }
            out[x * 3] = r
            out[x * 3 + 1] = g
            out[x * 3 + 2] = b
          }
        case (4, false):
          for x in 0..<starts.count {
            let weights = allWeights + x * taps
            var source = row + starts[x] * 4
            var sum = SIMD4<Float>()
            for tap in 0..<taps {
              sum += SIMD4<Float>(Float(source[0]), Float(source[1]), Float(source[2]), Float(source[3])) * weights[tap]
              source += 4
            }
            (out + x * 4).withMemoryRebound(to: SIMD4<Float>.self, capacity: 1) { $0.pointee = sum }
          }
        case (4, true):
          for x in 0..<starts.count {
            let weights = allWeights + x * taps
            var source = row + starts[x] * 4
            var sum = SIMD4<Float>()
            for tap in 0..<taps {
              let alpha = Float(source[3])
              let colourWeight = weights[tap] * alpha * (1.0 / 255)
              sum += SIMD4<Float>(
                Float(source[0]) * colourWeight, Float(source[1]) * colourWeight, Float(source[2]) * colourWeight,
                alpha * weights[tap])
              source += 4
            }
            (out + x * 4).withMemoryRebound(to: SIMD4<Float>.self, capacity: 1) { $0.pointee = sum }
          }
        default:
          // Two channels (gray + alpha).
          for x in 0..<starts.count {
            let weights = allWeights + x * taps
            var source = row + starts[x] * 2
            var (v, a): (Float, Float) = (0, 0)
            for tap in 0..<taps {
              let alpha = Float(source[1])
              v += Float(source[0]) * weights[tap] * (premultiply ? alpha * (1.0 / 255) : 1)
              a += alpha * weights[tap]
              source += 2
            }
            out[x * 2] = v
            out[x * 2 + 1] = a
          }
        }
      }
    }
  }

  private static func verticalRow(
    _ y: Int, middle: UnsafeBufferPointer<Float>, firstRow: Int, rowFloats: Int, kernel: ResamplingKernel,
    accumulator: inout [Float], into out: UnsafeMutablePointer<UInt8>, channels: Int, unpremultiply: Bool
  ) {
    let taps = kernel.tapCount
    let start = kernel.starts[y] - firstRow
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

  @inline(__always) static func clampByte(_ value: Float) -> UInt8 {
    UInt8(min(max(value + 0.5, 0), 255))
  }
}
