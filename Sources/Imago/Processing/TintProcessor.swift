extension ImageProcessors {
  /// Blends every pixel's colour toward `colour` by `fraction` (times the colour's own alpha);
  /// the image's alpha is kept.
  ///
  /// ```swift
  /// .tint(RGBAColor(red: 255, green: 0, blue: 0), fraction: 0.3)
  /// ```
  public struct Tint: PixelProcessor, Hashable {
    public var colour: RGBAColor
    public var fraction: Double

    public init(colour: RGBAColor, fraction: Double) {
      self.colour = colour
      self.fraction = fraction
    }

    public var identifier: String {
      ProcessorIdentifier.make(
        "tint", version: 1, ["colour": colour.description, "fraction": ProcessorIdentifier.number(fraction)])
    }

    public func validate() throws(ImagoError) {
      guard (0...1).contains(fraction) else {
        throw .invalidArgument("tint fraction must be in 0...1, not \(fraction)")
      }
    }

    public func process(_ image: PixelBuffer, context: ImageProcessingContext) throws -> PixelBuffer {
      let weight = Int((fraction * Double(colour.alpha)).rounded())  // 0...255
      guard weight > 0 else { return image }
      let isGrayTint = colour.red == colour.green && colour.green == colour.blue
      let target = image.format.isGray && !isGrayTint ? image.format.straight.colour : image.format.straight
      let tint = [Int(colour.red), Int(colour.green), Int(colour.blue)]
      let colourChannels = target.hasAlpha ? target.channelCount - 1 : target.channelCount
      return image.converted(to: target).mappingPixels { pixel, _, _ in
        for channel in 0..<colourChannels {
          let value = Int(pixel[channel])
          pixel[channel] = UInt8(value + PixelMath.multiply(tint[min(channel, 2)] - value, weight))
        }
      }
    }
  }
}

extension ImageProcessing where Self == ImageProcessors.Tint {
  /// Blend toward `colour` by `fraction` (0...1).
  public static func tint(_ colour: RGBAColor, fraction: Double) -> ImageProcessors.Tint {
    ImageProcessors.Tint(colour: colour, fraction: fraction)
  }
}
