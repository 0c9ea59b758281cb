public import Foundation

#if canImport(FoundationNetworking)
  public import FoundationNetworking
#endif

/// Supplies image bytes from anywhere (an object store, a database...).
///
/// ```swift
/// struct S3Image: ImageDataProvider {
///   let key: String
///   var cacheKey: String { "s3://bucket/\(key)" }
///   func data() async throws -> Data { try await s3.get(key) }
/// }
/// ```
public protocol ImageDataProvider: Sendable {
  /// Identifies the bytes in the caches.
  var cacheKey: String { get }
  func data() async throws -> Data
}

/// Where an image comes from.
public enum ImageSource: Sendable, CustomStringConvertible {
  /// http(s), or a `data:` URL with base64 content.
  case network(URL)
  /// A local file (allowed only when the source policy lists the `file` scheme).
  case file(URL)
  /// Bytes already in hand, with the key to cache them under.
  case data(Data, cacheKey: String)
  case provider(any ImageDataProvider)

  /// The source part of cache keys: the URL's absolute string, or the given key.
  public var cacheKey: String {
    switch self {
    case .network(let url), .file(let url): url.absoluteString
    case .data(_, let key): key
    case .provider(let provider): provider.cacheKey
    }
  }

  public var description: String { cacheKey.count > 200 ? String(cacheKey.prefix(200)) + "..." : cacheKey }
}

/// One image to load: a source, the processors to apply, and per-request options.
///
/// ```swift
/// let request = ImageRequest(
///   url: URL(string: "https://example.com/photo.jpg")!,
///   processors: [ImageProcessors.Resize(width: 400)],
///   options: ImageRequestOptions(forceRefresh: true))
/// ```
public struct ImageRequest: Sendable {
  public var source: ImageSource
  public var processors: ImageProcessorChain
  public var options: ImageRequestOptions

  public init(source: ImageSource, processors: [any ImageProcessing] = [], options: ImageRequestOptions = .init()) {
    self.source = source
    self.processors = ImageProcessorChain(processors)
    self.options = options
  }

  /// A network request (or a `file:` / `data:` URL, by its scheme).
  public init(url: URL, processors: [any ImageProcessing] = [], options: ImageRequestOptions = .init()) {
    self.init(source: url.isFileURL ? .file(url) : .network(url), processors: processors, options: options)
  }

  /// The key of the processed image.
  public var cacheKey: CacheKey { CacheKey(source: source.cacheKey, processor: processors.identifier) }
}

/// The per-request options bag.
public struct ImageRequestOptions: Sendable {
  /// Skip every cache level for reading (results are still stored).
  public var forceRefresh = false
  /// Fail with ``ImagoError/notCached(key:)`` rather than load anything.
  public var onlyFromCache = false
  /// Store results in memory only.
  public var cacheMemoryOnly = false
  /// Keep the original bytes (with their HTTP validators) so that new processor variants and
  /// revalidation need no new download. Default: on.
  public var cachesOriginalData = true
  /// Overrides the cache's serializer for this request's processed image.
  public var cacheSerializer: (any CacheSerializer)?
  /// Memory expiration for this request's image (default: the memory cache's).
  public var memoryExpiration: CacheExpiration?
  /// Changes the URLRequest before it is sent: headers, authentication...
  public var requestModifier: (@Sendable (inout URLRequest) -> Void)?
  /// Decides each redirect: return `nil` to refuse it. Runs after the source policy's check.
  public var redirectHandler: (@Sendable (_ response: HTTPURLResponse, _ newRequest: URLRequest) -> URLRequest?)?
  /// Total time for the download, all retries included. Default: the downloader's.
  public var timeout: TimeInterval?
  /// Overrides the downloader's retry strategy.
  public var retryStrategy: RetryStrategy?
  public var priority: TaskPriority = .medium

  public init(
    forceRefresh: Bool = false, onlyFromCache: Bool = false, cacheMemoryOnly: Bool = false,
    cachesOriginalData: Bool = true, cacheSerializer: (any CacheSerializer)? = nil,
    memoryExpiration: CacheExpiration? = nil, timeout: TimeInterval? = nil, retryStrategy: RetryStrategy? = nil,
    priority: TaskPriority = .medium,
    requestModifier: (@Sendable (inout URLRequest) -> Void)? = nil
  ) {
    self.forceRefresh = forceRefresh
    self.onlyFromCache = onlyFromCache
    self.cacheMemoryOnly = cacheMemoryOnly
    self.cachesOriginalData = cachesOriginalData
    self.cacheSerializer = cacheSerializer
    self.memoryExpiration = memoryExpiration
    self.timeout = timeout
    self.retryStrategy = retryStrategy
    self.priority = priority
    self.requestModifier = requestModifier
  }
}

/// How far a download has come.
public struct DownloadProgress: Sendable, Hashable {
  public var receivedBytes: Int
  /// From Content-Length, when the server sent one.
  public var expectedBytes: Int?

  public init(receivedBytes: Int, expectedBytes: Int?) {
    self.receivedBytes = receivedBytes
    self.expectedBytes = expectedBytes
  }
}
