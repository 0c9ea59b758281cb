import Foundation
import Imago
import TestSupport
import Testing

@Suite struct ImageManagerTests {
  @Test func loadsProcessesAndCachesOnBothLevels() async throws {
    let server = try TestHTTPServer { _ in .ok(Images.wizard, headers: ["Content-Type": "image/jpeg"]) }
    let fixture = try LoadingFixture()
    let first = try await fixture.manager.image(for: request(server.url("/a.jpg")))
    #expect(first.cacheType == .none && first.size == PixelSize(width: 100, height: 75) && first.format == .jpeg)
    #expect(try await fixture.manager.image(for: request(server.url("/a.jpg"))).cacheType == .memory)
    fixture.cache.clear(memoryOnly: true)
    #expect(try await fixture.manager.image(for: request(server.url("/a.jpg"))).cacheType == .disk)
    #expect(server.hits("/a.jpg") == 1)
    #expect(fixture.decoder.decodes == 2)  // the download, and the disk entry read back
  }

  @Test func fiftyIdenticalRequestsShareOneDownloadAndOneDecode() async throws {
    let server = try TestHTTPServer { _ in .slow(Images.wizard, chunkSize: 8192, delay: 0.02) }
    let fixture = try LoadingFixture()
    let url = server.url("/same.jpg")
    let results = try await withThrowingTaskGroup(of: ImageResult.self) { group in
      for _ in 0..<50 { group.addTask { try await fixture.manager.image(for: request(url)) } }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(results.count == 50 && results.allSatisfy { $0.size.width == 100 })
    #expect(server.hits("/same.jpg") == 1)
    #expect(fixture.decoder.decodes == 1)
  }

  @Test func differentProcessorsShareTheDownload() async throws {
    let server = try TestHTTPServer { _ in .slow(Images.wizard, chunkSize: 8192, delay: 0.02) }
    let fixture = try LoadingFixture()
    let url = server.url("/shared.jpg")
    let widths = try await withThrowingTaskGroup(of: Int.self) { group in
      for width in [40, 80, 120] {
        group.addTask { try await fixture.manager.image(for: request(url, width: width)).size.width }
      }
      return try await group.reduce(into: Set<Int>()) { $0.insert($1) }
    }
    #expect(widths == [40, 80, 120])
    #expect(server.hits("/shared.jpg") == 1)
    // A later variant uses the kept original: still no new download.
    #expect(try await fixture.manager.image(for: request(url, width: 60)).size.width == 60)
    #expect(server.hits("/shared.jpg") == 1)
  }

  @Test func oneCallerCancellingDoesNotDisturbTheOthers() async throws {
    let server = try TestHTTPServer { _ in .slow(Images.wizard, chunkSize: 4096, delay: 0.03) }
    let fixture = try LoadingFixture()
    let url = server.url("/slow.jpg")
    let leaving = Task { try await fixture.manager.image(for: request(url)) }
    let staying = Task { try await fixture.manager.image(for: request(url)) }
    try await Task.sleep(nanoseconds: 100_000_000)
    leaving.cancel()
    await #expect(throws: CancellationError.self) { try await leaving.value }
    #expect(try await staying.value.size.width == 100)
    #expect(server.hits("/slow.jpg") == 1)
  }

  @Test func whenTheLastCallerCancelsTheDownloadStops() async throws {
    let server = try TestHTTPServer { _ in .slow(Images.wizard, chunkSize: 1024, delay: 0.1) }
    let fixture = try LoadingFixture()
    let task = fixture.manager.task(for: request(server.url("/abandoned.jpg")))
    // Cancel once bytes are arriving: the download is certainly mid-body (about 5 s remain).
    for await _ in task.progress { break }
    task.cancel()
    await #expect(throws: CancellationError.self) { try await task.result }
    // The server sees the client go away: a later write fails.
    for _ in 0..<500 where server.abortedResponses == 0 { try await Task.sleep(nanoseconds: 20_000_000) }
    #expect(server.abortedResponses == 1)
    #expect(fixture.manager.inFlightCount == 0)
    #expect(fixture.diskEntries == 0)
  }

  @Test func progressReportsBytesAsTheyArrive() async throws {
    let server = try TestHTTPServer { _ in .slow(Images.wizard, chunkSize: 8192, delay: 0.01) }
    let fixture = try LoadingFixture()
    let task = fixture.manager.task(for: request(server.url("/progress.jpg")))
    var events: [DownloadProgress] = []
    for await event in task.progress { events.append(event) }
    #expect(try await task.result.size.width == 100)
    #expect(events.count >= 3)
    #expect(events.map(\.receivedBytes) == events.map(\.receivedBytes).sorted())
    #expect(events.allSatisfy { $0.expectedBytes == Images.wizard.count })
    #expect(events.last?.receivedBytes == Images.wizard.count)
  }

  @Test func onlyFromCacheAndForceRefresh() async throws {
    let server = try TestHTTPServer { _ in .ok(Images.wizard) }
    let fixture = try LoadingFixture()
    let url = server.url("/c.jpg")
    await #expect(throws: ImagoError.self) {
      try await fixture.manager.image(for: request(url, options: ImageRequestOptions(onlyFromCache: true)))
    }
    #expect(server.hits("/c.jpg") == 0)
    _ = try await fixture.manager.image(for: request(url))
    #expect(
      try await fixture.manager.image(for: request(url, options: ImageRequestOptions(onlyFromCache: true))).cacheType
        == .memory)
    let refreshed = try await fixture.manager.image(for: request(url, options: ImageRequestOptions(forceRefresh: true)))
    #expect(refreshed.cacheType == .none && server.hits("/c.jpg") == 2)
  }

  @Test func revalidatesAStaleOriginalAndReusesItOn304() async throws {
    let server = try TestHTTPServer { request in
      if request.headers["if-none-match"] == "\"v1\"" { return .status(304, headers: ["ETag": "\"v1\""]) }
      return .ok(Images.wizard, headers: ["ETag": "\"v1\"", "Cache-Control": "max-age=60"])
    }
    let fixture = try LoadingFixture()
    let url = server.url("/etag.jpg")
    _ = try await fixture.manager.image(for: request(url, width: 100))
    // Fresh: a new variant needs no request at all.
    _ = try await fixture.manager.image(for: request(url, width: 90))
    #expect(server.hits("/etag.jpg") == 1)
    fixture.clock.advance(by: 120)
    let revalidated = try await fixture.manager.image(for: request(url, width: 50))
    #expect(revalidated.size.width == 50)
    #expect(server.requests.count == 2 && server.requests[1].headers["if-none-match"] == "\"v1\"")
    // The 304 made it fresh again.
    _ = try await fixture.manager.image(for: request(url, width: 30))
    #expect(server.requests.count == 2)
  }

  @Test func otherSources() async throws {
    let fixture = try LoadingFixture(filePolicy: SourcePolicy(allowedSchemes: ["file"]))
    let base64 = Images.png.base64EncodedString()
    let fromDataURL = try await fixture.manager.image(
      for: request(URL(string: "data:image/png;base64,\(base64)")!, width: 32))
    #expect(fromDataURL.size.width == 32)
    let fromData = try await fixture.manager.image(
      for: ImageRequest(
        source: .data(Images.wizard, cacheKey: "wizard"), processors: [ImageProcessors.Resize(width: 20)]))
    #expect(fromData.size.width == 20)
    let file = TestFiles.fixtures.appendingPathComponent("gray.jpg")
    #expect(try await fixture.manager.image(for: request(file, width: 16)).size.width == 16)
    struct Provider: ImageDataProvider {
      var cacheKey: String { "provider://wizard" }
      func data() async throws -> Data { Images.png }
    }
    let provided = try await fixture.manager.image(
      for: ImageRequest(source: .provider(Provider()), processors: [ImageProcessors.Resize(width: 10)]))
    #expect(provided.size.width == 10)
  }

  @Test func fileSourcesAreRefusedUnlessAllowed() async throws {
    let fixture = try LoadingFixture()
    await #expect {
      try await fixture.manager.image(for: request(TestFiles.fixtures.appendingPathComponent("gray.jpg")))
    } throws: { error in
      if case ImagoError.policyRefused = error { return true }
      return false
    }
  }

  @Test func encodedImageReturnsTheRequestedFormat() async throws {
    let server = try TestHTTPServer { _ in .ok(Images.wizard) }
    let fixture = try LoadingFixture()
    let webp = try await fixture.manager.encodedImage(for: request(server.url("/e.jpg")), as: .webp, quality: 80)
    #expect(ImageFormat.detect(in: webp.data) == .webp && webp.size.width == 100)
    // The cache holds it as JPEG (the original's format): a JPEG answer reuses those bytes.
    let jpeg = try await fixture.manager.encodedImage(for: request(server.url("/e.jpg")), as: .jpeg)
    #expect(jpeg.cacheType == .memory && ImageFormat.detect(in: jpeg.data) == .jpeg)
  }

  @Test func decodingStaysWithinThePixelBudget() async throws {
    // Budget for one 640x480 decode at a time: ten different sources never decode together.
    let fixture = try LoadingFixture(pixelBudget: 640 * 480 * 4, holdMicroseconds: 20_000)
    try await withThrowingTaskGroup(of: Void.self) { group in
      for index in 0..<10 {
        group.addTask {
          _ = try await fixture.manager.image(
            for: ImageRequest(
              source: .data(Images.wizard, cacheKey: "w\(index)"), processors: [ImageProcessors.Grayscale()]))
        }
      }
      try await group.waitForAll()
    }
    #expect(fixture.decoder.decodes == 10)
    #expect(fixture.decoder.maxRunning == 1)
  }

  @Test func prefetcherReportsCompletedFailedAndSkipped() async throws {
    let server = try TestHTTPServer { request in request.path.hasPrefix("/ok") ? .ok(Images.wizard) : .status(404) }
    let fixture = try LoadingFixture()
    let prefetcher = ImagePrefetcher(manager: fixture.manager, maxConcurrent: 2)
    let requests = ["/ok1", "/ok2", "/ok3", "/missing1", "/missing2"].map { request(server.url($0)) }
    let first = await prefetcher.prefetch(requests)
    #expect(first.completed == 3 && first.failed.count == 2 && first.skipped == 0)
    #expect(first.failed.allSatisfy { $0.error.contains("HTTP 404") })
    let second = await prefetcher.prefetch(requests)
    #expect(second.skipped == 3 && second.failed.count == 2)
  }
}
