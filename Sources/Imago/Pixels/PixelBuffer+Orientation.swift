extension PixelBuffer {
  /// The pixels turned and flipped so that an image stored with `orientation` shows upright.
  ///
  /// ```swift
  /// let upright = stored.oriented(.right)  // rotated 90° clockwise
  /// ```
  public func oriented(_ orientation: ImageOrientation) -> PixelBuffer {
    if orientation == .up { return self }
    let bpp = format.bytesPerPixel
    let (w, h, stride) = (width, height, bytesPerRow)
    // Output pixel (x, y) reads input pixel (a + bx*x + cx*y, d + by*x + cy*y).
    let (a, bx, cx, d, by, cy): (Int, Int, Int, Int, Int, Int) =
      switch orientation {
      case .up: (0, 1, 0, 0, 0, 1)
      case .upMirrored: (w - 1, -1, 0, 0, 0, 1)
      case .down: (w - 1, -1, 0, h - 1, 0, -1)
      case .downMirrored: (0, 1, 0, h - 1, 0, -1)
      case .leftMirrored: (0, 0, 1, 0, 1, 0)
      case .right: (0, 0, 1, h - 1, -1, 0)
      case .rightMirrored: (w - 1, 0, -1, h - 1, -1, 0)
      case .left: (w - 1, 0, -1, 0, 1, 0)
      }
    let outWidth = orientation.swapsDimensions ? h : w
    let outHeight = orientation.swapsDimensions ? w : h
    let origin = a * bpp + d * stride
    let stepX = bx * bpp + by * stride
    let stepY = cx * bpp + cy * stride
    return PixelBuffer(width: outWidth, height: outHeight, format: format) { output in
      self.withUnsafeBytes { input in
        let source = input.baseAddress!
        let destination = output.baseAddress!
        var outOffset = 0
        for y in 0..<outHeight {
          var inOffset = origin + y * stepY
          for _ in 0..<outWidth {
            destination.advanced(by: outOffset).copyMemory(from: source.advanced(by: inOffset), byteCount: bpp)
            outOffset += bpp
            inOffset += stepX
          }
        }
      }
    }
  }
}
