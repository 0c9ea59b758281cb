extension ImageProcessors {
  /// Adjusts saturation, then brightness, then contrast (in that fixed order).
  ///
  /// Brightness adds `brightness * 255` (-1...1, 0 keeps); contrast scales around mid-gray
  /// (0...4, 1 keeps); saturation blends from the pixel's luma (0 is gray, 1 keeps, up to 4).
  ///
  /// ```swift
  /// .colorControls(brightness: 0.1, contrast: 1.2, saturation: 0.8)
  /// ```
  public struct ColorControls: PixelProcessor, Hashable {
    public var brightness: Double
    public var contrast: Double
    public var saturation: Double

    public init(brightness: Double = 0, contrast: Double = 1, saturation: Double = 1) {
      self.brightness = brightness
      self.contrast = contrast
      self.saturation = saturation
    }

    public var identifier: String {
      ProcessorIdentifier.make(
        "colorcontrols", version: 1,
        [
          "brightness": ProcessorIdentifier.number(brightness), "contrast": ProcessorIdentifier.number(contrast),
          "saturation": ProcessorIdentifier.number(saturation),
        ])
    }

    public func validate() throws(ImagoError) {
      guard (-1...1).contains(brightness) else {
        throw .invalidArgument("brightness must be in -1...1, not \(brightness)")
      }
      guard (0...4).contains(contrast) else { throw .invalidArgument("contrast must be in 0...4, not \(contrast)") }
      guard (0...4).contains(saturation) else {
        throw .invalidArgument("saturation must be in 0...4, not \(saturation)")
      }
    }

    public func process(_ image: PixelBuffer, context: ImageProcessingContext) throws -> PixelBuffer {
      let straight = image.converted(to: image.format.straight)
      // Brightness and contrast act on each channel alone: one lookup table.
      let table: [UInt8] = (0..<256).map { value in
        let shifted = Double(value) + brightness * 255
        let contrasted = (shifted - 127.5) * contrast + 127.5
        return UInt8(min(max(contrasted.rounded(), 0), 255))
      }
      let colour = !straight.format.isGray
      let colourChannels = straight.format.hasAlpha ? straight.format.channelCount - 1 : straight.format.channelCount
      let saturation = Float(self.saturation)
      let adjustsSaturation = colour && self.saturation != 1
      return straight.mappingPixels { pixel, _, _ in
        if adjustsSaturation {
          let luma = Float(PixelMath.luma(pixel[0], pixel[1], pixel[2]))
          for channel in 0..<3 {
            let value = luma + (Float(pixel[channel]) - luma) * saturation
            pixel[channel] = UInt8(min(max(value.rounded(), 0), 255))
          }
        }
        for channel in 0..<colourChannels { pixel[channel] = table[Int(pixel[channel])] }
      }
    }
  }
}

extension ImageProcessing where Self == ImageProcessors.ColorControls {
  /// Adjust brightness, contrast and saturation; see ``ImageProcessors/ColorControls``.
  public static func colorControls(
    brightness: Double = 0, contrast: Double = 1, saturation: Double = 1
  ) -> ImageProcessors.ColorControls {
    ImageProcessors.ColorControls(brightness: brightness, contrast: contrast, saturation: saturation)
  }
}
