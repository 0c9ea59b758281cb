import Foundation

extension ImageProcessors {
  /// Rounds the chosen corners with an antialiased edge; the output has alpha.
  ///
  /// ```swift
  /// .resize(width: 128, height: 128, mode: .fill()) |> .roundCorner(radius: 64)  // a round avatar
  /// ```
  public struct RoundCorner: PixelProcessor, Hashable {
    public struct Corners: OptionSet, Hashable, Sendable {
      public let rawValue: Int
      public init(rawValue: Int) { self.rawValue = rawValue }
      public static let topLeft = Corners(rawValue: 1)
      public static let topRight = Corners(rawValue: 2)
      public static let bottomLeft = Corners(rawValue: 4)
      public static let bottomRight = Corners(rawValue: 8)
      public static let all: Corners = [.topLeft, .topRight, .bottomLeft, .bottomRight]

      var canonical: String {
        let names: [(Corners, String)] = [
          (.topLeft, "tl"), (.topRight, "tr"), (.bottomLeft, "bl"), (.bottomRight, "br"),
        ]
        return names.filter { contains($0.0) }.map(\.1).joined(separator: "+")
      }
    }

    /// In pixels; clipped to half the shorter side.
    public var radius: Double
    public var corners: Corners

    public init(radius: Double, corners: Corners = .all) {
      self.radius = radius
      self.corners = corners
    }

    public var identifier: String {
      ProcessorIdentifier.make(
        "roundcorner", version: 1, ["r": ProcessorIdentifier.number(radius), "corners": corners.canonical])
    }

    public func validate() throws(ImagoError) {
      guard radius >= 0, radius.isFinite else {
        throw .invalidArgument("corner radius must be 0 or more, not \(radius)")
      }
    }

    public func process(_ image: PixelBuffer, context: ImageProcessingContext) throws -> PixelBuffer {
      let r = min(radius, Double(min(image.width, image.height)) / 2)
      let withAlpha = image.converted(to: image.format.withAlpha)
      guard r > 0, !corners.isEmpty else { return withAlpha }
      let (width, height) = (image.width, image.height)
      let alphaIndex = withAlpha.format.channelCount - 1
      let corners = self.corners
      return withAlpha.mappingPixels { pixel, x, y in
        let px = Double(x) + 0.5
        let py = Double(y) + 0.5
        let left = px < r
        let right = px > Double(width) - r
        let top = py < r
        let bottom = py > Double(height) - r
        let corner: Corners? =
          top && left
          ? .topLeft : top && right ? .topRight : bottom && left ? .bottomLeft : bottom && right ? .bottomRight : nil
        guard let corner, corners.contains(corner) else { return }
        let cx = left ? r : Double(width) - r
        let cy = top ? r : Double(height) - r
        let distance = ((px - cx) * (px - cx) + (py - cy) * (py - cy)).squareRoot()
        let coverage = min(max(r - distance + 0.5, 0), 1)
        pixel[alphaIndex] = UInt8((Double(pixel[alphaIndex]) * coverage).rounded())
      }
    }
  }
}

extension ImageProcessing where Self == ImageProcessors.RoundCorner {
  /// Round `corners` with `radius` pixels.
  public static func roundCorner(
    radius: Double, corners: ImageProcessors.RoundCorner.Corners = .all
  ) -> ImageProcessors.RoundCorner {
    ImageProcessors.RoundCorner(radius: radius, corners: corners)
  }
}
