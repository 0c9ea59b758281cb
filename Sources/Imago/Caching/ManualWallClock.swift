public import Foundation
import Synchronization

/// A clock that moves only when told to: for tests and simulations.
public final class ManualWallClock: WallClock {
  private let current: Mutex<Date>

  public init(now: Date = Date(timeIntervalSince1970: 1_000_000_000)) { current = Mutex(now) }

  public func now() -> Date { current.withLock { $0 } }

  public func advance(by seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }

  public func set(_ date: Date) { current.withLock { $0 = date } }
}
