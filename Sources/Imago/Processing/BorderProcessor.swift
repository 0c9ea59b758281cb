extension ImageProcessors {
  /// Paints a border of `width` pixels in `colour` over the image's edges, inside its bounds,
  /// so the size a resize produced is kept. A translucent colour is blended over the pixels.
  ///
  /// ```swift
  /// .resize(width: 300, height: 300, mode: .fill()) |> .border(width: 4, colour: .white)
  /// ```
  public struct Border: PixelProcessor, Hashable {
    public var width: Int
    public var colour: RGBAColor

    public init(width: Int, colour: RGBAColor = .black) {
      self.width = width
      self.colour = colour
    }

    public var identifier: String {
      ProcessorIdentifier.make("border", version: 1, ["w": "\(width)", "colour": colour.description])
    }

    public func validate() throws(ImagoError) {
      guard width >= 0 else { throw .invalidArgument("border width must be 0 or more, not \(width)") }
    }

    public func process(_ image: PixelBuffer, context: ImageProcessingContext) throws -> PixelBuffer {
      guard width > 0, colour.alpha > 0 else { return image }
      let isGrayColour = colour.red == colour.green && colour.green == colour.blue
      let target = image.format.isGray && !isGrayColour ? image.format.straight.colour : image.format.straight
      let hasAlpha = target.hasAlpha
      let colourChannels = hasAlpha ? target.channelCount - 1 : target.channelCount
      let paint = colourChannels == 1 ? [Int(colour.red)] : [Int(colour.red), Int(colour.green), Int(colour.blue)]
      let coverage = Int(colour.alpha)
      let (imageWidth, imageHeight, border) = (image.width, image.height, width)
      return image.converted(to: target).mappingPixels { pixel, x, y in
        guard x < border || y < border || x >= imageWidth - border || y >= imageHeight - border else { return }
        // Source-over: the border colour on top of the pixel.
        let below = hasAlpha ? Int(pixel[colourChannels]) : 255
        let outAlpha = coverage + PixelMath.multiply(below, 255 - coverage)
        for channel in 0..<colourChannels {
          let mixed = paint[channel] * coverage + PixelMath.multiply(Int(pixel[channel]) * below, 255 - coverage)
          pixel[channel] = outAlpha == 0 ? 0 : UInt8(min(255, (mixed + outAlpha / 2) / outAlpha))
        }
        if hasAlpha { pixel[colourChannels] = UInt8(outAlpha) }
      }
    }
  }
}

extension ImageProcessing where Self == ImageProcessors.Border {
  /// A `width`-pixel border in `colour`, inside the image.
  public static func border(width: Int, colour: RGBAColor = .black) -> ImageProcessors.Border {
    ImageProcessors.Border(width: width, colour: colour)
  }
}
