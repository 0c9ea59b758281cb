import Foundation

/// Float images for filters that mix neighbours (blur, sharpen): interleaved channels, colour
/// premultiplied by alpha so transparent pixels do not bleed their colour.
struct FloatImage: Sendable {
  var width: Int
  var height: Int
  var channels: Int
  var hasAlpha: Bool
  var values: [Float]

  init(_ image: PixelBuffer) {
    let straight = image.unpremultiplied()
    width = straight.width
    height = straight.height
    channels = straight.format.channelCount
    hasAlpha = straight.format.hasAlpha
    values = [Float](repeating: 0, count: width * height * channels)
    let (channels, hasAlpha, width) = (self.channels, self.hasAlpha, self.width)
    values.withUnsafeMutableBufferPointer { out in
      straight.withUnsafeBytes { input in
        for y in 0..<straight.height {
          for x in 0..<width {
            let inBase = y * straight.bytesPerRow + x * channels
            let outBase = (y * width + x) * channels
            let alpha: Float = hasAlpha ? Float(input[inBase + channels - 1]) / 255 : 1
            for channel in 0..<channels {
              let value = Float(input[inBase + channel])
              out[outBase + channel] = hasAlpha && channel < channels - 1 ? value * alpha : value
            }
          }
        }
      }
    }
  }

  /// Back to 8 bits in `format` (straight alpha when it has alpha).
  func pixels(format: PixelFormat) -> PixelBuffer {
    PixelBuffer(width: width, height: height, format: format.straight) { output in
      values.withUnsafeBufferPointer { values in
        let count = width * height
        for pixel in 0..<count {
          let base = pixel * channels
          if hasAlpha {
            let alpha = min(max(values[base + channels - 1], 0), 255)
            let scale: Float = alpha > 0.5 ? 255 / alpha : 0
            for channel in 0..<(channels - 1) {
              output[base + channel] = Resampler.clampByte(values[base + channel] * scale)
            }
            output[base + channels - 1] = Resampler.clampByte(alpha)
          } else {
            for channel in 0..<channels { output[base + channel] = Resampler.clampByte(values[base + channel]) }
          }
        }
      }
    }
  }

  /// Gaussian blur: an exact separable kernel up to sigma 8, three box blurs beyond (within a
  /// few percent of Gaussian, at a cost that does not grow with sigma).
  func blurred(sigma: Double) -> FloatImage {
    guard sigma > 0 else { return self }
    if sigma <= 8 {
      let kernel = Self.gaussianKernel(sigma: sigma)
      return convolvedRows(kernel).convolvedColumns(kernel)
    }
    var result = self
    for radius in Self.boxRadii(sigma: sigma, passes: 3) {
      result = result.boxRows(radius: radius).boxColumns(radius: radius)
    }
    return result
  }

  /// Mirrors an index that falls outside `0..<count` back inside (edge pixels repeated once,
  /// period 2 * count). With a symmetric kernel this keeps the image's mean exactly, which
  /// clamping to the edge does not.
  @inline(__always) static func mirror(_ index: Int, _ count: Int) -> Int {
    if index >= 0 && index < count { return index }
    let period = 2 * count
    var folded = index % period
    if folded < 0 { folded += period }
    return folded < count ? folded : period - 1 - folded
  }

  static func gaussianKernel(sigma: Double) -> [Float] {
    let radius = max(1, Int((3 * sigma).rounded(.up)))
    let weights = (-radius...radius).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
    let total = weights.reduce(0, +)
    return weights.map { Float($0 / total) }
  }

  /// Radii of `passes` box blurs whose combination has standard deviation `sigma`.
  static func boxRadii(sigma: Double, passes: Int) -> [Int] {
    let n = Double(passes)
    let ideal = (12 * sigma * sigma / n + 1).squareRoot()
    var lower = Int(ideal.rounded(.down))
    if lower % 2 == 0 { lower -= 1 }
    let upper = lower + 2
    let l = Double(lower)
    let m = Int(((12 * sigma * sigma - n * l * l - 4 * n * l - 3 * n) / (-4 * l - 4)).rounded())
    return (0..<passes).map { ($0 < m ? lower : upper) / 2 }
  }

  /// A copy whose values `fill` writes, reading this image's: both handed over ready for
  /// disjoint row ranges on several threads.
  private func mapped(
    _ fill: (
      _ input: UncheckedSendable<UnsafeBufferPointer<Float>>,
      _ out: UncheckedSendable<UnsafeMutableBufferPointer<Float>>
    ) -> Void
  ) -> FloatImage {
    var output = self
    output.values.withUnsafeMutableBufferPointer { out in
      values.withUnsafeBufferPointer { input in fill(UncheckedSendable(input), UncheckedSendable(out)) }
    }
    return output
  }

  private func convolvedRows(_ kernel: [Float]) -> FloatImage {
    let radius = kernel.count / 2
    let (width, channels) = (self.width, self.channels)
    return mapped { input, out in
      ParallelRows.run(height, workers: ParallelRows.workerCount(work: width * height * kernel.count / 4)) { rows in
        for y in rows {
          let row = y * width * channels
          for x in 0..<width {
            for channel in 0..<channels {
              var sum: Float = 0
              for tap in 0..<kernel.count {
                let sx = Self.mirror(x + tap - radius, width)
                sum += input.value[row + sx * channels + channel] * kernel[tap]
              }
              out.value[row + x * channels + channel] = sum
            }
          }
        }
      }
    }
  }

  private func convolvedColumns(_ kernel: [Float]) -> FloatImage {
    let radius = kernel.count / 2
    let (width, height, rowFloats) = (self.width, self.height, self.width * self.channels)
    return mapped { input, out in
      ParallelRows.run(height, workers: ParallelRows.workerCount(work: width * height * kernel.count / 4)) { rows in
        for y in rows {
          let target = out.value.baseAddress! + y * rowFloats
          for index in 0..<rowFloats { target[index] = 0 }
          for tap in 0..<kernel.count {
            let sy = Self.mirror(y + tap - radius, height)
            let source = input.value.baseAddress! + sy * rowFloats
            let weight = kernel[tap]
            for index in 0..<rowFloats { target[index] += source[index] * weight }
          }
        }
      }
    }
  }

  private func boxRows(radius: Int) -> FloatImage {
    let (width, channels) = (self.width, self.channels)
    let scale = 1 / Float(2 * radius + 1)
    return mapped { input, out in
      ParallelRows.run(height, workers: ParallelRows.workerCount(work: width * height * 4)) { rows in
        var sums = [Float](repeating: 0, count: channels)
        for y in rows {
          let row = y * width * channels
          for channel in 0..<channels {
            var sum: Float = 0
            for offset in -radius...radius {
              sum += input.value[row + Self.mirror(offset, width) * channels + channel]
            }
            sums[channel] = sum
          }
          for x in 0..<width {
            for channel in 0..<channels {
              out.value[row + x * channels + channel] = sums[channel] * scale
              let entering = Self.mirror(x + radius + 1, width)
              let leaving = Self.mirror(x - radius, width)
              sums[channel] +=
                input.value[row + entering * channels + channel] - input.value[row + leaving * channels + channel]
            }
          }
        }
      }
    }
  }

  private func boxColumns(radius: Int) -> FloatImage {
    let (height, rowFloats) = (self.height, self.width * self.channels)
    let scale = 1 / Float(2 * radius + 1)
    return mapped { input, out in
      // Column bands: each worker slides a window down its own columns.
      let bands = ParallelRows.workerCount(work: rowFloats * height * 4)
      ParallelRows.run(bands, workers: bands) { bandRange in
        for band in bandRange {
          let lower = rowFloats * band / bands
          let upper = rowFloats * (band + 1) / bands
          var sums = [Float](repeating: 0, count: upper - lower)
          for offset in -radius...radius {
            let row = Self.mirror(offset, height) * rowFloats
            for index in lower..<upper { sums[index - lower] += input.value[row + index] }
          }
          for y in 0..<height {
            let entering = Self.mirror(y + radius + 1, height) * rowFloats
            let leaving = Self.mirror(y - radius, height) * rowFloats
            for index in lower..<upper {
              out.value[y * rowFloats + index] = sums[index - lower] * scale
              sums[index - lower] += input.value[entering + index] - input.value[leaving + index]
            }
          }
        }
      }
    }
  }
}
