extension PixelFormat {
  /// The same colour layout with a straight alpha channel.
  var withAlpha: PixelFormat {
    switch layout {
    case .gray, .grayAlpha: .grayAlpha8
    case .rgb, .rgba: .rgba8
    }
  }

  /// The same alpha with colour channels (gray becomes RGB).
  var colour: PixelFormat {
    switch layout {
    case .gray: .rgb8
    case .grayAlpha: alpha == .premultiplied ? .rgba8Premultiplied : .rgba8
    case .rgb, .rgba: self
    }
  }
}

extension PixelBuffer {
  /// Calls `body(pixel)` for every pixel of a tightly packed copy of this buffer, letting it
  /// rewrite the pixel's channels in place; returns the copy.
  func mappingPixels(
    _ body: (_ pixel: UnsafeMutableBufferPointer<UInt8>, _ x: Int, _ y: Int) -> Void
  ) -> PixelBuffer {
    let channels = format.channelCount
    return PixelBuffer(width: width, height: height, format: format) { output in
      self.withUnsafeBytes { input in
        for y in 0..<height {
          let rowStart = output.baseAddress!.assumingMemoryBound(to: UInt8.self) + y * width * channels
          rowStart.update(
            from: input.baseAddress!.assumingMemoryBound(to: UInt8.self) + y * bytesPerRow, count: width * channels)
          for x in 0..<width {
            body(UnsafeMutableBufferPointer(start: rowStart + x * channels, count: channels), x, y)
          }
        }
      }
    }
  }
}
