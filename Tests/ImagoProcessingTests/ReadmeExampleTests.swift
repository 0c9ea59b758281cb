import Foundation
import Imago
import TestSupport
import Testing

/// The README's library example, compiled and run (with a fixture instead of a download).
@Suite struct ReadmeExampleTests {
  @Test func partsOnTheirOwn() throws {
    let data = try TestFiles.fixture("wizard.jpg")
    let thumbnail = try (.resize(width: 400) |> .roundCorner(radius: 16)).process(.data(data), context: .default)
    #expect(thumbnail.width == 400 && thumbnail.format == .rgba8)
    let png = try CoderRegistry.default.encode(thumbnail, as: .png)
    #expect(ImageFormat.detect(in: png) == .png)
  }

  @Test func managerConfigurationCompiles() throws {
    let manager = ImageManager(
      cache: ImageCache(
        disk: try DiskCache(directory: TestFiles.temporaryDirectory()),
        serializer: FormatIndicatedCacheSerializer(.webp(quality: 80))),
      loader: ImageDownloader(
        configuration: .init(maxBytes: 20 << 20, timeout: 10, policy: SourcePolicy(refusesPrivateAddresses: true))))
    let request = ImageRequest(
      url: URL(string: "https://example.com/photo.jpg")!,
      processors: [
        ImageProcessors.Resize(width: 400, height: 400, mode: .fill()), ImageProcessors.Sharpen(amount: 0.5),
      ])
    #expect(request.cacheKey.processor.contains("imago.resize.v1"))
    #expect(manager.inFlightCount == 0)
  }
}
