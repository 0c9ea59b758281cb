extension PixelBuffer {
  /// The same image in another pixel format.
  ///
  /// Dropping alpha blends onto `background`; gray from colour uses BT.601 luma; straight and
  /// premultiplied alpha convert both ways.
  ///
  /// ```swift
  /// let opaque = rgbaImage.converted(to: .rgb8, background: .white)
  /// ```
  public func converted(to target: PixelFormat, background: RGBAColor = .white) -> PixelBuffer {
    if target == format { return self }
    let source = format.alpha == .premultiplied ? unpremultiplied() : self
    if target.layout == source.format.layout {
      return target.alpha == .premultiplied ? source.premultiplied() : source
    }
    let straightTarget = target.straight
    let converted = source.convertedLayout(to: straightTarget, background: background)
    return target.alpha == .premultiplied ? converted.premultiplied() : converted
  }

  /// Colour channels multiplied by alpha; itself when there is no alpha or it is already so.
  public func premultiplied() -> PixelBuffer {
    guard format.alpha == .straight else { return self }
    return mapAlphaPixels(to: format.premultiplied) { value, alpha in
      UInt8(truncatingIfNeeded: PixelMath.multiply(Int(value), Int(alpha)))
    }
  }

  /// Colour channels divided by alpha; itself when there is no alpha or it is already so.
  public func unpremultiplied() -> PixelBuffer {
    guard format.alpha == .premultiplied else { return self }
    return mapAlphaPixels(to: format.straight) { value, alpha in
      alpha == 0 ? 0 : UInt8(truncatingIfNeeded: min(255, (Int(value) * 255 + Int(alpha) / 2) / Int(alpha)))
    }
  }

  private func mapAlphaPixels(to target: PixelFormat, _ transform: (UInt8, UInt8) -> UInt8) -> PixelBuffer {
    let channels = format.channelCount
    let alphaIndex = channels - 1
    return PixelBuffer(width: width, height: height, format: target) { output in
      self.withUnsafeBytes { input in
        var outIndex = 0
        for y in 0..<height {
          var inIndex = y * bytesPerRow
          for _ in 0..<width {
            let alpha = input[inIndex + alphaIndex]
            for channel in 0..<alphaIndex {
              output[outIndex + channel] = transform(input[inIndex + channel], alpha)
            }
            output[outIndex + alphaIndex] = alpha
            inIndex += channels
            outIndex += channels
          }
        }
      }
    }
  }

  /// Layout change between straight-alpha formats.
  private func convertedLayout(to target: PixelFormat, background: RGBAColor) -> PixelBuffer {
    let sourceLayout = format.layout
    let inChannels = format.channelCount
    let outChannels = target.channelCount
    let targetLayout = target.layout
    let backgroundGray = background.luma
    return PixelBuffer(width: width, height: height, format: target) { output in
      self.withUnsafeBytes { input in
        var outIndex = 0
        for y in 0..<height {
          var inIndex = y * bytesPerRow
          for _ in 0..<width {
            let r: UInt8
            let g: UInt8
            let b: UInt8
            let a: UInt8
            switch sourceLayout {
            case .gray: (r, g, b, a) = (input[inIndex], input[inIndex], input[inIndex], 255)
            case .grayAlpha: (r, g, b, a) = (input[inIndex], input[inIndex], input[inIndex], input[inIndex + 1])
            case .rgb: (r, g, b, a) = (input[inIndex], input[inIndex + 1], input[inIndex + 2], 255)
            case .rgba: (r, g, b, a) = (input[inIndex], input[inIndex + 1], input[inIndex + 2], input[inIndex + 3])
            }
            switch targetLayout {
            case .gray:
              let gray = sourceLayout == .gray || sourceLayout == .grayAlpha ? r : PixelMath.luma(r, g, b)
              output[outIndex] = PixelMath.blend(gray, alpha: a, over: backgroundGray)
            case .grayAlpha:
              output[outIndex] = sourceLayout == .gray || sourceLayout == .grayAlpha ? r : PixelMath.luma(r, g, b)
              output[outIndex + 1] = a
            case .rgb:
              output[outIndex] = PixelMath.blend(r, alpha: a, over: background.red)
              output[outIndex + 1] = PixelMath.blend(g, alpha: a, over: background.green)
              output[outIndex + 2] = PixelMath.blend(b, alpha: a, over: background.blue)
            case .rgba:
              output[outIndex] = r
              output[outIndex + 1] = g
              output[outIndex + 2] = b
              output[outIndex + 3] = a
            }
            inIndex += inChannels
            outIndex += outChannels
          }
        }
      }
    }
  }
}
