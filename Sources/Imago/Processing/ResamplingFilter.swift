import Foundation

/// The kernel used to resample pixels when resizing.
///
/// ```swift
/// let small = try image.resized(to: PixelSize(width: 400, height: 300), filter: .lanczos3)
/// ```
public enum ResamplingFilter: String, Hashable, Sendable, CaseIterable {
  /// Picks the nearest source pixel: fastest, blocky.
  case nearest
  /// Triangle filter: linear interpolation, area average when shrinking.
  case bilinear
  /// Catmull-Rom cubic (B=0, C=0.5): sharp.
  case catmullRom
  /// Mitchell-Netravali cubic (B=1/3, C=1/3): soft, few ringing artefacts.
  case mitchell
  /// Lanczos windowed sinc with 3 lobes: the default for downscaling.
  case lanczos3

  /// Half-width of the kernel, in source pixels at scale 1.
  var support: Double {
    switch self {
    case .nearest: 0.5
    case .bilinear: 1
    case .catmullRom, .mitchell: 2
    case .lanczos3: 3
    }
  }

  func weight(_ x: Double) -> Double {
    let x = abs(x)
    switch self {
    case .nearest:
      return x < 0.5 ? 1 : 0
    case .bilinear:
      return x < 1 ? 1 - x : 0
    case .catmullRom:
      return Self.cubic(x, b: 0, c: 0.5)
    case .mitchell:
      return Self.cubic(x, b: 1.0 / 3, c: 1.0 / 3)
    case .lanczos3:
      if x < 1e-8 { return 1 }
      if x >= 3 { return 0 }
      let px = Double.pi * x
      return 3 * sin(px) * sin(px / 3) / (px * px)
    }
  }

  private static func cubic(_ x: Double, b: Double, c: Double) -> Double {
    if x < 1 {
      return ((12 - 9 * b - 6 * c) * x * x * x + (-18 + 12 * b + 6 * c) * x * x + (6 - 2 * b)) / 6
    }
    if x < 2 {
      return ((-b - 6 * c) * x * x * x + (6 * b + 30 * c) * x * x + (-12 * b - 48 * c) * x + (8 * b + 24 * c)) / 6
    }
    return 0
  }
}
