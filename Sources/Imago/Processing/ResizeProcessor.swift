import Foundation

extension ImageProcessors {
  /// Resizes to a width, a height, or a box, keeping the aspect ratio unless told to stretch.
  ///
  /// First in a chain, it asks the decoder for just the size it needs (shrink-on-load), and in
  /// fill mode it resamples only the part of the image the crop keeps.
  ///
  /// ```swift
  /// .resize(width: 400)                                        // height follows
  /// .resize(width: 400, height: 300)                           // fit inside
  /// .resize(width: 400, height: 300, mode: .fill(.top))        // cover, crop from the top
  /// ```
  public struct Resize: PixelProcessor, Hashable {
    /// How the image meets a box given by both width and height.
    public enum ContentMode: Hashable, Sendable {
      /// Fit inside the box: the whole image, aspect ratio kept, one side may be shorter.
      case fit
      /// Cover the box, then crop what sticks out, keeping the part at `anchor`.
      case fill(Anchor = .center)
      /// Exactly the box, aspect ratio ignored.
      case stretch
    }

    public var width: Int?
    public var height: Int?
    public var mode: ContentMode
    public var filter: ResamplingFilter
    /// Allow the output to be larger than the input.
    public var allowsUpscaling: Bool

    public init(
      width: Int? = nil, height: Int? = nil, mode: ContentMode = .fit, filter: ResamplingFilter = .lanczos3,
      allowsUpscaling: Bool = false
    ) {
      self.width = width
      self.height = height
      self.mode = mode
      self.filter = filter
      self.allowsUpscaling = allowsUpscaling
    }

    public var identifier: String {
      let modeText: String
      switch mode {
      case .fit: modeText = "fit"
      case .fill(let anchor): modeText = "fill:\(anchor)"
      case .stretch: modeText = "stretch"
      }
      return ProcessorIdentifier.make(
        "resize", version: 1,
        [
          "w": width.map(String.init) ?? "auto", "h": height.map(String.init) ?? "auto", "mode": modeText,
          "filter": filter.rawValue, "upscale": allowsUpscaling ? "1" : "0",
        ])
    }

    public func validate() throws(ImagoError) {
      if width == nil && height == nil { throw .invalidArgument("resize needs a width, a height or both") }
      if let width, width <= 0 { throw .invalidArgument("resize width must be positive, not \(width)") }
      if let height, height <= 0 { throw .invalidArgument("resize height must be positive, not \(height)") }
    }

    /// The output size, the scale from the source, and the source region the output shows.
    func geometry(for source: PixelSize) -> (size: PixelSize, region: SourceRegion) {
      let (sw, sh) = (Double(source.width), Double(source.height))
      let whole = SourceRegion(x: 0, y: 0, width: sw, height: sh)
      func limited(_ scale: Double) -> Double { allowsUpscaling ? scale : min(scale, 1) }
      func scaled(_ scale: Double) -> PixelSize {
        PixelSize(width: max(1, Int((sw * scale).rounded())), height: max(1, Int((sh * scale).rounded())))
      }
      switch (width, height) {
      case (nil, nil):
        return (source, whole)
      case (let w?, nil):
        return (scaled(limited(Double(w) / sw)), whole)
      case (nil, let h?):
        return (scaled(limited(Double(h) / sh)), whole)
      case (let w?, let h?):
        switch mode {
        case .fit:
          return (scaled(limited(min(Double(w) / sw, Double(h) / sh))), whole)
        case .stretch:
          let size =
            allowsUpscaling
            ? PixelSize(width: w, height: h) : PixelSize(width: min(w, source.width), height: min(h, source.height))
          return (size, whole)
        case .fill(let anchor):
          let scale = limited(max(Double(w) / sw, Double(h) / sh))
          let size = PixelSize(
            width: min(w, max(1, Int((sw * scale).rounded()))), height: min(h, max(1, Int((sh * scale).rounded()))))
          let regionWidth = min(sw, Double(size.width) / scale)
          let regionHeight = min(sh, Double(size.height) / scale)
          let region = SourceRegion(
            x: (sw - regionWidth) * anchor.x, y: (sh - regionHeight) * anchor.y, width: regionWidth,
            height: regionHeight)
          return (size, region)
        }
      }
    }

    /// The whole source must decode at least as large as it appears scaled in the output.
    public func decodingTarget(for sourceSize: PixelSize) -> PixelSize? {
      let (size, region) = geometry(for: sourceSize)
      let scaleX = Double(size.width) / region.width
      let scaleY = Double(size.height) / region.height
      return PixelSize(
        width: max(1, Int((Double(sourceSize.width) * scaleX).rounded(.up))),
        height: max(1, Int((Double(sourceSize.height) * scaleY).rounded(.up))))
    }

    public func process(_ image: PixelBuffer, context: ImageProcessingContext) throws -> PixelBuffer {
      let (size, region) = geometry(for: PixelSize(width: image.width, height: image.height))
      return try image.resized(region: region, to: size, filter: filter, limits: context.decodingOptions.limits)
    }

    /// From encoded data the geometry is computed on the original size, then mapped onto the
    /// smaller image the decoder returned, so the output size never depends on the decode scale.
    public func process(_ item: ImageProcessItem, context: ImageProcessingContext) throws -> PixelBuffer {
      try validate()
      let data: Data
      switch item {
      case .image(let image): return try process(image, context: context)
      case .data(let encoded): data = encoded
      }
      var original = PixelSize(width: 1, height: 1)
      let image = try context.decode(data) { size in
        original = size
        return decodingTarget(for: size)
      }
      let (size, region) = geometry(for: original)
      let scaleX = Double(image.width) / Double(original.width)
      let scaleY = Double(image.height) / Double(original.height)
      let decodedRegion = SourceRegion(
        x: region.x * scaleX, y: region.y * scaleY, width: region.width * scaleX, height: region.height * scaleY)
      return try image.resized(region: decodedRegion, to: size, filter: filter, limits: context.decodingOptions.limits)
    }
  }
}

extension ImageProcessing where Self == ImageProcessors.Resize {
  /// Resize to a width and/or height; see ``ImageProcessors/Resize``.
  public static func resize(
    width: Int? = nil, height: Int? = nil, mode: ImageProcessors.Resize.ContentMode = .fit,
    filter: ResamplingFilter = .lanczos3, allowsUpscaling: Bool = false
  ) -> ImageProcessors.Resize {
    ImageProcessors.Resize(width: width, height: height, mode: mode, filter: filter, allowsUpscaling: allowsUpscaling)
  }
}
