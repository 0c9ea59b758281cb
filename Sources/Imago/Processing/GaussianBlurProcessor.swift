extension ImageProcessors {
  /// Gaussian blur with standard deviation `sigma` in pixels; alpha-aware, preserves the mean.
  ///
  /// Exact up to sigma 8, three box blurs beyond (a close, constant-time approximation).
  ///
  /// ```swift
  /// .resize(width: 32) |> .gaussianBlur(sigma: 4)  // a blurred placeholder
  /// ```
  public struct GaussianBlur: PixelProcessor, Hashable {
    public var sigma: Double

    public init(sigma: Double) { self.sigma = sigma }

    public var identifier: String {
      ProcessorIdentifier.make("blur", version: 1, ["sigma": ProcessorIdentifier.number(sigma)])
    }

    public func validate() throws(ImagoError) {
      guard sigma >= 0, sigma <= 1000, sigma.isFinite else {
        throw .invalidArgument("blur sigma must be in 0...1000, not \(sigma)")
      }
    }

    public func process(_ image: PixelBuffer, context: ImageProcessingContext) throws -> PixelBuffer {
      guard sigma > 0 else { return image }
      return FloatImage(image).blurred(sigma: sigma).pixels(format: image.format)
    }
  }
}

extension ImageProcessing where Self == ImageProcessors.GaussianBlur {
  /// Blur with standard deviation `sigma` pixels.
  public static func gaussianBlur(sigma: Double) -> ImageProcessors.GaussianBlur {
    ImageProcessors.GaussianBlur(sigma: sigma)
  }
}
