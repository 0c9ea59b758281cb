import Foundation
import Imago
import Synchronization
import TestSupport

/// Wraps the real decoders, counting decode calls and the most that ran at once.
final class CountingDecoder: ImageDecoding {
  private let counts = Mutex<(decodes: Int, running: Int, maxRunning: Int)>((0, 0, 0))
  let inner: CoderRegistry = .default
  /// Keeps each decode running a little, so that overlaps are visible.
  let holdMicroseconds: UInt32

  init(holdMicroseconds: UInt32 = 0) { self.holdMicroseconds = holdMicroseconds }

  var decodes: Int { counts.withLock { $0.decodes } }
  var maxRunning: Int { counts.withLock { $0.maxRunning } }

  func canDecode(_ data: Data) -> Bool { (try? inner.decoder(for: data)) != nil }
  func info(for data: Data, limits: DecodingLimits) throws -> ImageInfo { try inner.info(for: data, limits: limits) }
  func decode(_ data: Data, options: DecodingOptions) throws -> DecodedImage {
    counts.withLock {
      $0.decodes += 1
      $0.running += 1
      $0.maxRunning = max($0.maxRunning, $0.running)
    }
    defer { counts.withLock { $0.running -= 1 } }
    if holdMicroseconds > 0 { usleep(holdMicroseconds) }
    return try inner.decode(data, options: options)
  }
}

/// Records the delays a retry strategy asks for, without sleeping.
final class RecordingSleeper: RetrySleeper {
  private let delays = Mutex<[TimeInterval]>([])
  var recorded: [TimeInterval] { delays.withLock { $0 } }
  func sleep(seconds: TimeInterval) async throws { delays.withLock { $0.append(seconds) } }
}

struct LoadingFixture {
  let manager: ImageManager
  let cache: ImageCache
  let decoder: CountingDecoder
  let sleeper: RecordingSleeper
  let clock: ManualWallClock

  init(
    retry: RetryStrategy = .none, timeout: TimeInterval = 10, maxBytes: Int = 64 << 20,
    policy: SourcePolicy = SourcePolicy(), filePolicy: SourcePolicy = SourcePolicy(allowedSchemes: []),
    pixelBudget: Int = 512 << 20, holdMicroseconds: UInt32 = 0
  ) throws {
    clock = ManualWallClock(now: Date())
    decoder = CountingDecoder(holdMicroseconds: holdMicroseconds)
    sleeper = RecordingSleeper()
    let coders = CoderRegistry.default.registering(decoder: decoder)
    cache = ImageCache(
      memory: MemoryCache(configuration: .init(costLimit: 256 << 20, clock: clock)),
      disk: try DiskCache(directory: TestFiles.temporaryDirectory(), configuration: .init(clock: clock)), coders: coders
    )
    let downloader = ImageDownloader(
      configuration: .init(maxBytes: maxBytes, timeout: timeout, retryStrategy: retry, policy: policy), sleeper: sleeper
    )
    manager = ImageManager(
      cache: cache, loader: downloader, coders: coders,
      configuration: .init(pixelBudget: pixelBudget, clock: clock), filePolicy: filePolicy)
  }

  var diskEntries: Int { cache.disk!.statistics.entryCount }
}

enum Images {
  static let wizard = try! TestFiles.fixture("wizard.jpg")
  static let png = try! TestFiles.fixture("wizard.png")
}

func request(_ url: URL, width: Int = 100, options: ImageRequestOptions = .init()) -> ImageRequest {
  ImageRequest(url: url, processors: [ImageProcessors.Resize(width: width)], options: options)
}
