/// The memory layout of one pixel: which channels, in which order, 8 bits each.
///
/// ```swift
/// let format = PixelFormat.rgba8
/// format.channelCount  // 4
/// format.alpha         // .straight
/// ```
public struct PixelFormat: Hashable, Sendable, CustomStringConvertible {
  /// The channels of a pixel, in memory order.
  public enum Layout: Hashable, Sendable {
    case gray
    case grayAlpha
    case rgb
    case rgba
  }

  /// How the alpha channel relates to the colour channels.
  public enum AlphaMode: Hashable, Sendable {
    /// No alpha channel: every pixel is opaque.
    case none
    /// Colour channels are independent of alpha (what PNG and WebP store).
    case straight
    /// Colour channels are already multiplied by alpha (what filters want).
    case premultiplied
  }

  public let layout: Layout
  public let alpha: AlphaMode

  /// 8-bit gray, opaque.
  public static let gray8 = PixelFormat(layout: .gray, alpha: .none)
  /// 8-bit gray followed by straight alpha.
  public static let grayAlpha8 = PixelFormat(layout: .grayAlpha, alpha: .straight)
  /// 8-bit gray followed by premultiplied alpha.
  public static let grayAlpha8Premultiplied = PixelFormat(layout: .grayAlpha, alpha: .premultiplied)
  /// 8-bit red, green, blue, opaque.
  public static let rgb8 = PixelFormat(layout: .rgb, alpha: .none)
  /// 8-bit red, green, blue, straight alpha.
  public static let rgba8 = PixelFormat(layout: .rgba, alpha: .straight)
  /// 8-bit red, green, blue, premultiplied alpha.
  public static let rgba8Premultiplied = PixelFormat(layout: .rgba, alpha: .premultiplied)

  private init(layout: Layout, alpha: AlphaMode) {
    self.layout = layout
    self.alpha = alpha
  }

  /// Channels per pixel, which is also bytes per pixel.
  public var channelCount: Int {
    switch layout {
    case .gray: 1
    case .grayAlpha: 2
    case .rgb: 3
    case .rgba: 4
    }
  }

  public var bytesPerPixel: Int { channelCount }
  public var hasAlpha: Bool { alpha != .none }
  public var isGray: Bool { layout == .gray || layout == .grayAlpha }

  /// The same layout with straight alpha (itself when there is no alpha).
  public var straight: PixelFormat {
    alpha == .premultiplied ? PixelFormat(layout: layout, alpha: .straight) : self
  }

  /// The same layout with premultiplied alpha (itself when there is no alpha).
  public var premultiplied: PixelFormat {
    alpha == .straight ? PixelFormat(layout: layout, alpha: .premultiplied) : self
  }

  public var description: String {
    let base =
      switch layout {
      case .gray: "gray8"
      case .grayAlpha: "grayAlpha8"
      case .rgb: "rgb8"
      case .rgba: "rgba8"
      }
    return alpha == .premultiplied ? base + "Premultiplied" : base
  }
}
