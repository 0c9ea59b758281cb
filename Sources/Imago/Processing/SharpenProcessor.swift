extension ImageProcessors {
  /// Unsharp mask: adds `amount` times the difference from a Gaussian blur of `sigma`, where that
  /// difference exceeds `threshold` (0...255). Restores crispness after large reductions.
  ///
  /// ```swift
  /// .resize(width: 400) |> .sharpen(amount: 0.5)
  /// ```
  public struct Sharpen: PixelProcessor, Hashable {
    public var amount: Double
    public var sigma: Double
    public var threshold: Double

    public init(amount: Double = 1, sigma: Double = 1, threshold: Double = 0) {
      self.amount = amount
      self.sigma = sigma
      self.threshold = threshold
    }

    public var identifier: String {
      ProcessorIdentifier.make(
        "sharpen", version: 1,
        [
          "amount": ProcessorIdentifier.number(amount), "sigma": ProcessorIdentifier.number(sigma),
          "threshold": ProcessorIdentifier.number(threshold),
        ])
    }

    public func validate() throws(ImagoError) {
      guard (0...10).contains(amount) else { throw .invalidArgument("sharpen amount must be in 0...10, not \(amount)") }
      guard sigma > 0, sigma <= 100 else { throw .invalidArgument("sharpen sigma must be in (0, 100], not \(sigma)") }
      guard (0...255).contains(threshold) else {
        throw .invalidArgument("sharpen threshold must be in 0...255, not \(threshold)")
      }
    }

    public func process(_ image: PixelBuffer, context: ImageProcessingContext) throws -> PixelBuffer {
      guard amount > 0 else { return image }
      let original = FloatImage(image)
      let blurred = original.blurred(sigma: sigma)
      var sharpened = original
      let channels = original.channels
      let colourChannels = original.hasAlpha ? channels - 1 : channels
      let (amount, threshold) = (Float(self.amount), Float(self.threshold))
      sharpened.values.withUnsafeMutableBufferPointer { values in
        blurred.values.withUnsafeBufferPointer { blur in
          for pixel in 0..<(original.width * original.height) {
            for channel in 0..<colourChannels {
              let index = pixel * channels + channel
              let difference = values[index] - blur[index]
              if abs(difference) > threshold { values[index] += amount * difference }
            }
          }
        }
      }
      return sharpened.pixels(format: image.format)
    }
  }
}

extension ImageProcessing where Self == ImageProcessors.Sharpen {
  /// Unsharp mask; see ``ImageProcessors/Sharpen``.
  public static func sharpen(amount: Double = 1, sigma: Double = 1, threshold: Double = 0) -> ImageProcessors.Sharpen {
    ImageProcessors.Sharpen(amount: amount, sigma: sigma, threshold: threshold)
  }
}
