public import Foundation

/// When a cache entry stops being served.
///
/// ```swift
/// cache.insert(image, for: key, expiration: .seconds(60))
/// ```
public enum CacheExpiration: Hashable, Sendable {
  /// Never expires (limits may still evict it).
  case never
  /// Expires this many seconds after it was stored (or last accessed, when extended on access).
  case seconds(TimeInterval)
  /// Expires at a fixed date.
  case date(Date)

  /// Seven days, the disk cache's default.
  public static let days7 = CacheExpiration.seconds(7 * 24 * 3600)

  /// The expiry date for an entry stored (or touched) at `now`; `nil` for never.
  public func expiryDate(from now: Date) -> Date? {
    switch self {
    case .never: nil
    case .seconds(let seconds): now.addingTimeInterval(seconds)
    case .date(let date): date
    }
  }
}

/// The wall clock the caches read; injected so tests can move time without sleeping.
///
/// ```swift
/// let clock = ManualWallClock(now: Date(timeIntervalSince1970: 0))
/// let cache = MemoryCache<PixelBuffer>(configuration: .init(clock: clock))
/// clock.advance(by: 301)  // the default 5-minute expiry has passed
/// ```
public protocol WallClock: Sendable {
  func now() -> Date
}

/// The system's clock.
public struct SystemWallClock: WallClock {
  public init() {}
  public func now() -> Date { Date() }
}
