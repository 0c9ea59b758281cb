public import Foundation

/// The front door: from a request to processed pixels (or encoded bytes), through the caches,
/// downloading each source once however many callers ask at the same moment.
///
/// Identical in-flight requests share one download, one decode and one processing run;
/// requests for the same source with different processors share the download. A caller that
/// is cancelled leaves at once; when the last caller of a piece of work leaves, it stops.
/// Decoding and processing run off the caller's executor, within a budget of decoded pixel
/// bytes in flight.
///
/// ```swift
/// let manager = ImageManager(cache: ImageCache(disk: try DiskCache(directory: cacheURL)))
/// let request = ImageRequest(url: photoURL, processors: [ImageProcessors.Resize(width: 400)])
/// let webp = try await manager.encodedImage(for: request, as: .webp, quality: 80)
/// ```
public final class ImageManager: Sendable {
  public struct Configuration: Sendable {
    public var decodingLimits: DecodingLimits
    /// Decoded pixel bytes allowed in flight at once. Default 512 MiB.
    public var pixelBudget: Int
    /// How long a downloaded original stays fresh when the server gives no max-age. Default 1 h.
    public var defaultFreshness: TimeInterval
    /// Keep the encoded bytes of processed images in memory too, so that servers can answer a
    /// memory hit without encoding. Default: on.
    public var keepsEncodedInMemory: Bool
    public var clock: any WallClock

    public init(
      decodingLimits: DecodingLimits = .default, pixelBudget: Int = 512 << 20, defaultFreshness: TimeInterval = 3600,
      keepsEncodedInMemory: Bool = true, clock: any WallClock = SystemWallClock()
    ) {
      self.decodingLimits = decodingLimits
      self.pixelBudget = pixelBudget
      self.defaultFreshness = defaultFreshness
      self.keepsEncodedInMemory = keepsEncodedInMemory
      self.clock = clock
    }
  }

  /// A manager with a memory cache only and the default downloader.
  public static let shared = ImageManager()

  public let cache: ImageCache
  public let loader: any ImageDataLoading
  public let coders: CoderRegistry
  public let configuration: Configuration
  /// The policy for `file:` sources (the downloader applies its own to network sources).
  public let filePolicy: SourcePolicy

  private let processedWork = TaskCoalescer<String, ImageResult>()
  private let sourceWork = TaskCoalescer<String, SourceBytes>()
  private let budget: PixelBudget

  public init(
    cache: ImageCache = ImageCache(), loader: any ImageDataLoading = ImageDownloader(),
    coders: CoderRegistry = .default, configuration: Configuration = Configuration(),
    filePolicy: SourcePolicy = SourcePolicy(allowedSchemes: [])
  ) {
    self.cache = cache
    self.loader = loader
    self.coders = coders
    self.configuration = configuration
    self.filePolicy = filePolicy
    self.budget = PixelBudget(limit: configuration.pixelBudget)
  }

  /// Pieces of work (processing or loading) running now.
  public var inFlightCount: Int { processedWork.inFlightCount + sourceWork.inFlightCount }

  // MARK: Public calls

  /// The processed image for `request`, from a cache when possible.
  public func image(
    for request: ImageRequest, progress: (@Sendable (DownloadProgress) -> Void)? = nil
  ) async throws -> ImageResult {
    let key = request.cacheKey
    let options = request.options
    if !options.forceRefresh, let (cached, level) = cache.image(for: key, memoryExpiration: options.memoryExpiration) {
      return ImageResult(
        pixels: cached.pixels, cacheType: level, source: request.source, format: cached.format, encoded: cached.encoded)
    }
    if options.onlyFromCache { throw ImagoError.notCached(key: key.description) }
    let coalescingKey =
      key.persistentString + "\u{0}" + (options.forceRefresh ? "r" : "") + (options.cacheMemoryOnly ? "m" : "")
    return try await processedWork.value(for: coalescingKey, priority: options.priority, progress: progress) { sink in
      try await self.loadAndProcess(request, progress: sink)
    }
  }

  /// The processed image encoded as `format`: the cached bytes when they are already in that
  /// format (at the cache serializer's quality), otherwise encoded now at `quality`. A server
  /// that answers in one format should give the cache a ``FormatIndicatedCacheSerializer`` for it.
  public func encodedImage(
    for request: ImageRequest, as format: ImageFormat, quality: Int = 85,
    progress: (@Sendable (DownloadProgress) -> Void)? = nil
  ) async throws -> EncodedImageResult {
    let result = try await image(for: request, progress: progress)
    if let encoded = result.encoded, result.format == format {
      return EncodedImageResult(data: encoded, format: format, size: result.size, cacheType: result.cacheType)
    }
    let data = try coders.encode(result.pixels, as: format, options: EncodingOptions(quality: quality))
    return EncodedImageResult(data: data, format: format, size: result.size, cacheType: result.cacheType)
  }

  /// A handle with a progress stream, for callers that show progress.
  public func task(for request: ImageRequest) -> ImageTask {
    let (stream, continuation) = AsyncStream.makeStream(of: DownloadProgress.self)
    let task = Task(priority: request.options.priority) {
      defer { continuation.finish() }
      return try await self.image(for: request) { continuation.yield($0) }
    }
    return ImageTask(progress: stream, task: task)
  }

  // MARK: Work

  /// Original bytes, with what the caches need to know about them.
  struct SourceBytes: Sendable {
    var data: Data
    /// Metadata to store with the original once it has decoded; `nil` when it needs no storing.
    var originalMetadata: [String: String]?
  }

  private func loadAndProcess(
    _ request: ImageRequest, progress: @escaping @Sendable (DownloadProgress) -> Void
  ) async throws -> ImageResult {
    let source = try await sourceBytes(for: request, progress: progress)
    try Task.checkCancellation()
    let (pixels, info) = try await decodeAndProcess(source.data, processors: request.processors)
    try Task.checkCancellation()
    let options = request.options
    let key = request.cacheKey
    // Only now, with a good image, does anything go into the caches.
    if let metadata = source.originalMetadata, options.cachesOriginalData, !options.cacheMemoryOnly,
      !key.processor.isEmpty
    {
      try? cache.storeOriginalData(source.data, forSource: key.source, format: info.format, metadata: metadata)
    }
    let stored = try? cache.store(
      pixels, for: key, original: (source.data, info.format), memoryOnly: options.cacheMemoryOnly,
      keepsEncoded: configuration.keepsEncodedInMemory, memoryExpiration: options.memoryExpiration,
      serializer: options.cacheSerializer)
    return ImageResult(
      pixels: pixels, cacheType: .none, source: request.source, format: stored?.format ?? info.format,
      encoded: stored?.data)
  }

  private func decodeAndProcess(_ data: Data, processors: ImageProcessorChain) async throws -> (PixelBuffer, ImageInfo)
  {
    let info = try coders.info(for: data, limits: configuration.decodingLimits)
    try configuration.decodingLimits.check(width: info.width, height: info.height)
    let context = ImageProcessingContext(
      coders: coders, decodingOptions: DecodingOptions(limits: configuration.decodingLimits))
    let pixels = try await budget.withPermit(cost: estimatedDecodeBytes(info, processors)) {
      try await Self.offCooperativePool { try processors.process(.data(data), context: context) }
    }
    return (pixels, info)
  }

  /// CPU-heavy work runs on Dispatch's own threads: on the cooperative pool it would hold
  /// threads that timers, network callbacks and other requests need.
  private static let workQueue = DispatchQueue(label: "imago.decode", qos: .userInitiated, attributes: .concurrent)

  private static func offCooperativePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
      workQueue.async { continuation.resume(with: Result { try work() }) }
    }
  }

  /// Decoded bytes the first processor will need: the full image, or (with shrink-on-load)
  /// up to twice its target per side, as a JPEG scale step may leave.
  private func estimatedDecodeBytes(_ info: ImageInfo, _ processors: ImageProcessorChain) -> Int {
    let full = info.width * info.height * 4
    guard let first = processors.processors.first as? any PixelProcessor,
      let target = first.decodingTarget(for: info.orientedSize)
    else { return full }
    return min(full, target.width * target.height * 16)
  }

  private func sourceBytes(
    for request: ImageRequest, progress: @escaping @Sendable (DownloadProgress) -> Void
  ) async throws -> SourceBytes {
    switch request.source {
    case .data(let data, _):
      return SourceBytes(data: data, originalMetadata: nil)
    case .provider(let provider):
      return try await sourceWork.value(
        for: "provider:" + provider.cacheKey, priority: request.options.priority, progress: progress
      ) { _ in
        SourceBytes(data: try await provider.data(), originalMetadata: nil)
      }
    case .file(let url):
      try filePolicy.check(url)
      do {
        return SourceBytes(data: try Data(contentsOf: url, options: .mappedIfSafe), originalMetadata: nil)
      } catch {
        throw ImagoError.invalidArgument("cannot read \(url.path)")
      }
    case .network(let url):
      if url.scheme?.lowercased() == "data" { return SourceBytes(data: try DataURL.decode(url), originalMetadata: nil) }
      let options = request.options
      let key = "net:" + url.absoluteString + (options.forceRefresh ? "\u{0}r" : "")
      return try await sourceWork.value(for: key, priority: options.priority, progress: progress) { sink in
        try await self.download(url, options: options, progress: sink)
      }
    }
  }

  private static let etagKey = "etag"
  private static let lastModifiedKey = "last-modified"
  private static let freshUntilKey = "fresh-until"

  /// The original bytes of a network source: the kept original while fresh; revalidated with
  /// its ETag / Last-Modified once stale (reused on 304); downloaded otherwise.
  private func download(
    _ url: URL, options: ImageRequestOptions, progress: @escaping @Sendable (DownloadProgress) -> Void
  ) async throws -> SourceBytes {
    let now = configuration.clock.now()
    let kept = options.forceRefresh ? nil : cache.originalData(forSource: url.absoluteString)
    if let kept, let freshUntil = kept.metadata[Self.freshUntilKey].flatMap(Double.init),
      freshUntil > now.timeIntervalSince1970
    {
      return SourceBytes(data: kept.payload, originalMetadata: nil)
    }
    let validators = kept.map {
      HTTPValidators(etag: $0.metadata[Self.etagKey], lastModified: $0.metadata[Self.lastModifiedKey])
    }.flatMap { $0.etag == nil && $0.lastModified == nil ? nil : $0 }
    let loaded = try await loader.loadData(for: url, validators: validators, options: options, progress: progress)
    let freshUntil = now.addingTimeInterval(loaded.maxAge ?? configuration.defaultFreshness).timeIntervalSince1970
    if loaded.notModified, let kept {
      var metadata = kept.metadata
      metadata[Self.freshUntilKey] = String(freshUntil)
      if let etag = loaded.etag { metadata[Self.etagKey] = etag }
      return SourceBytes(data: kept.payload, originalMetadata: metadata)
    }
    guard !loaded.notModified else {
      throw ImagoError.httpStatus(code: 304, url: url.absoluteString)
    }
    var metadata = [Self.freshUntilKey: String(freshUntil)]
    if let etag = loaded.etag { metadata[Self.etagKey] = etag }
    if let lastModified = loaded.lastModified { metadata[Self.lastModifiedKey] = lastModified }
    return SourceBytes(data: loaded.data, originalMetadata: metadata)
  }
}

/// A running request: its progress and its result.
public struct ImageTask: Sendable {
  /// Bytes received so far, ending when the request does.
  public let progress: AsyncStream<DownloadProgress>
  let task: Task<ImageResult, any Error>

  public var result: ImageResult {
    get async throws { try await task.value }
  }

  public func cancel() { task.cancel() }
}
