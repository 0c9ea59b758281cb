import Foundation
import Imago
import TestSupport
import Testing

/// Our Lanczos3 against ImageMagick's (`-filter Lanczos -resize WxH!`, made by
/// Fixtures/make-fixtures.sh from wizard.png).
@Suite struct ResizeQualityTests {
  @Test(arguments: [(100, 75), (213, 160), (57, 43)])
  func lanczosMatchesImageMagick(size: (Int, Int)) throws {
    let source = try CoderRegistry.default.decode(try TestFiles.fixture("wizard.png")).pixels
    let reference = try CoderRegistry.default.decode(
      try TestFiles.fixture("reference-lanczos-\(size.0)x\(size.1).png")
    ).pixels.converted(to: .rgb8)
    let ours = try source.resized(to: PixelSize(width: size.0, height: size.1), filter: .lanczos3)
    let psnr = ours.psnr(against: reference)
    #expect(psnr >= 35, "PSNR \(psnr) dB at \(size)")
  }
}
