/// An 8-bit colour with straight alpha.
///
/// ```swift
/// let halfRed = RGBAColor(red: 255, green: 0, blue: 0, alpha: 128)
/// ```
public struct RGBAColor: Hashable, Sendable, CustomStringConvertible {
  public var red: UInt8
  public var green: UInt8
  public var blue: UInt8
  public var alpha: UInt8

  public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
    self.red = red
    self.green = green
    self.blue = blue
    self.alpha = alpha
  }

  public static let white = RGBAColor(red: 255, green: 255, blue: 255)
  public static let black = RGBAColor(red: 0, green: 0, blue: 0)
  public static let clear = RGBAColor(red: 0, green: 0, blue: 0, alpha: 0)

  /// Parses `#rgb`, `#rrggbb`, `#rrggbbaa`, `white`, `black` or `transparent`.
  public init?(text: String) {
    switch text.lowercased() {
    case "white": self = .white
    case "black": self = .black
    case "transparent", "clear": self = .clear
    default:
      var hex = Array(text.lowercased().utf8)
      guard hex.first == UInt8(ascii: "#") else { return nil }
      hex.removeFirst()
      if hex.count == 3 { hex = hex.flatMap { [$0, $0] } }
      guard hex.count == 6 || hex.count == 8, hex.allSatisfy({ $0.isHexDigit }),
        let value = UInt32(String(decoding: hex, as: UTF8.self), radix: 16)
      else { return nil }
      let full = hex.count == 6 ? value << 8 | 0xFF : value
      self.init(
        red: UInt8(full >> 24), green: UInt8(full >> 16 & 0xFF), blue: UInt8(full >> 8 & 0xFF),
        alpha: UInt8(full & 0xFF))
    }
  }

  /// BT.601 luma, the gray value of this colour.
  public var luma: UInt8 { PixelMath.luma(red, green, blue) }

  /// Lower-case hexadecimal, `#rrggbbaa`.
  public var description: String {
    "#" + [red, green, blue, alpha].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
  }
}

/// Small integer formulas shared by every pixel loop.
enum PixelMath {
  /// BT.601 luma in 8.8 fixed point.
  @inline(__always) static func luma(_ red: UInt8, _ green: UInt8, _ blue: UInt8) -> UInt8 {
    UInt8(truncatingIfNeeded: (77 * Int(red) + 150 * Int(green) + 29 * Int(blue) + 128) >> 8)
  }

  /// `a * b / 255`, rounded.
  @inline(__always) static func multiply(_ a: Int, _ b: Int) -> Int {
    let t = a * b + 128
    return (t + (t >> 8)) >> 8
  }

  /// Blends `value` with coverage `alpha` over `background`.
  @inline(__always) static func blend(_ value: UInt8, alpha: UInt8, over background: UInt8) -> UInt8 {
    UInt8(truncatingIfNeeded: multiply(Int(value), Int(alpha)) + multiply(Int(background), 255 - Int(alpha)))
  }
}

extension UInt8 {
  fileprivate var isHexDigit: Bool {
    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
  }
}
