extension ImageProcessors {
  /// Cuts out a rectangle: given by position and size, or by size and an anchor.
  ///
  /// The rectangle is clipped to the image; one that misses the image entirely is an error.
  ///
  /// ```swift
  /// .crop(x: 10, y: 20, width: 100, height: 80)
  /// .crop(width: 100, height: 100, anchor: .center)
  /// ```
  public struct Crop: PixelProcessor, Hashable {
    public enum Placement: Hashable, Sendable {
      case origin(x: Int, y: Int)
      case anchor(Anchor)
    }

    public var width: Int
    public var height: Int
    public var placement: Placement

    public init(x: Int, y: Int, width: Int, height: Int) {
      self.width = width
      self.height = height
      self.placement = .origin(x: x, y: y)
    }

    public init(width: Int, height: Int, anchor: Anchor = .center) {
      self.width = width
      self.height = height
      self.placement = .anchor(anchor)
    }

    public var identifier: String {
      switch placement {
      case .origin(let x, let y):
        ProcessorIdentifier.make("crop", version: 1, ["x": "\(x)", "y": "\(y)", "w": "\(width)", "h": "\(height)"])
      case .anchor(let anchor):
        ProcessorIdentifier.make("crop", version: 1, ["w": "\(width)", "h": "\(height)", "anchor": "\(anchor)"])
      }
    }

    public func validate() throws(ImagoError) {
      guard width > 0, height > 0 else { throw .invalidArgument("crop size must be positive, not \(width)x\(height)") }
    }

    public func process(_ image: PixelBuffer, context: ImageProcessingContext) throws -> PixelBuffer {
      var (x, y) = (0, 0)
      var (w, h) = (min(width, image.width), min(height, image.height))
      switch placement {
      case .origin(let left, let top):
        let right = min(image.width, left.addingReportingOverflow(width).partialValue)
        let bottom = min(image.height, top.addingReportingOverflow(height).partialValue)
        (x, y) = (max(0, left), max(0, top))
        (w, h) = (right - x, bottom - y)
      case .anchor(let anchor):
        x = Int((Double(image.width - w) * anchor.x).rounded())
        y = Int((Double(image.height - h) * anchor.y).rounded())
      }
      guard w > 0, h > 0 else {
        throw ImagoError.invalidArgument("crop \(identifier) lies outside the \(image.width)x\(image.height) image")
      }
      if w == image.width && h == image.height { return image }
      let bpp = image.format.bytesPerPixel
      return PixelBuffer(width: w, height: h, format: image.format) { output in
        image.withUnsafeBytes { input in
          for row in 0..<h {
            let source = input.baseAddress! + (y + row) * image.bytesPerRow + x * bpp
            (output.baseAddress! + row * w * bpp).copyMemory(from: source, byteCount: w * bpp)
          }
        }
      }
    }
  }
}

extension ImageProcessing where Self == ImageProcessors.Crop {
  /// Crop the rectangle at (`x`, `y`) of `width` x `height`.
  public static func crop(x: Int, y: Int, width: Int, height: Int) -> ImageProcessors.Crop {
    ImageProcessors.Crop(x: x, y: y, width: width, height: height)
  }

  /// Crop `width` x `height` at `anchor`.
  public static func crop(width: Int, height: Int, anchor: Anchor = .center) -> ImageProcessors.Crop {
    ImageProcessors.Crop(width: width, height: height, anchor: anchor)
  }
}
