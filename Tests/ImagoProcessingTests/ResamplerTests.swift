import Foundation
import TestSupport
import Testing

@testable import Imago

@Suite struct ResamplerTests {
  @Test(arguments: ResamplingFilter.allCases)
  func solidColourStaysSolid(filter: ResamplingFilter) throws {
    let solid = PixelBuffer(width: 97, height: 61, format: .rgba8, repeating: [12, 200, 99, 255])
    for size in [PixelSize(width: 40, height: 25), PixelSize(width: 150, height: 90), PixelSize(width: 1, height: 1)] {
      let resized = try solid.resized(to: size, filter: filter)
      #expect(resized.width == size.width && resized.height == size.height)
      #expect(Set(resized.bytes.chunked(4)) == [[12, 200, 99, 255]], "\(filter) to \(size)")
    }
  }

  @Test func transparentNeighboursDoNotDarkenEdges() throws {
    // Left half opaque white, right half transparent black: the edge must stay white.
    var bytes = [UInt8]()
    for _ in 0..<20 {
      for x in 0..<40 { bytes += x < 20 ? [255, 255, 255, 255] : [0, 0, 0, 0] }
    }
    let image = try PixelBuffer(width: 40, height: 20, format: .rgba8, bytes: bytes)
    let resized = try image.resized(to: PixelSize(width: 13, height: 7), filter: .lanczos3)
    for x in 0..<13 {
      let pixel = resized[pixel: x, 3]
      if pixel[3] > 16 { #expect(pixel[0] > 240, "column \(x): \(pixel)") }
    }
  }

  @Test func downscalingPreservesTheMean() throws {
    let image = TestImages.gradient(width: 640, height: 480)
    let resized = try image.resized(to: PixelSize(width: 160, height: 120))
    for (before, after) in zip(image.channelMeans(), resized.channelMeans()) {
      #expect(abs(before - after) < 1.5)
    }
  }

  @Test func parallelAndSerialResamplingAgreeExactly() throws {
    let image = TestImages.gradient(width: 1200, height: 800, format: .rgba8)
    let size = PixelSize(width: 700, height: 500)
    let serial = Resampler(source: image, size: size, filter: .lanczos3, workers: 1).run()
    let parallel = Resampler(source: image, size: size, filter: .lanczos3, workers: 2).run()
    #expect(serial == parallel)
    #expect(try image.resized(to: size) == parallel)
  }
}

extension Array {
  func chunked(_ size: Int) -> [[Element]] {
    stride(from: 0, to: count, by: size).map { Array(self[$0..<Swift.min($0 + size, count)]) }
  }
}
