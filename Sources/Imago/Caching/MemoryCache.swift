import Foundation
import Synchronization

/// A thread-safe, strictly least-recently-used memory cache bounded by total cost and count,
/// with per-entry expiration.
///
/// ```swift
/// let cache = MemoryCache<PixelBuffer>(configuration: .init(costLimit: 256 << 20))
/// cache.insert(pixels, for: key, cost: pixels.bytes.count)
/// let hit = cache.value(for: key)
/// ```
public final class MemoryCache<Value: Sendable>: Sendable {
  public struct Configuration: Sendable {
    /// Total cost allowed (for images: pixel bytes). Default: an eighth of physical memory.
    public var costLimit: Int
    /// Entries allowed. Default: no limit.
    public var countLimit: Int
    /// Expiration for entries inserted without one. Default: 5 minutes.
    public var expiration: CacheExpiration
    /// Restart an entry's `.seconds` expiration whenever it is read.
    public var extendsExpirationOnAccess: Bool
    public var clock: any WallClock

    public init(
      costLimit: Int = MemoryCache.defaultCostLimit, countLimit: Int = .max,
      expiration: CacheExpiration = .seconds(300), extendsExpirationOnAccess: Bool = false,
      clock: any WallClock = SystemWallClock()
    ) {
      self.costLimit = costLimit
      self.countLimit = countLimit
      self.expiration = expiration
      self.extendsExpirationOnAccess = extendsExpirationOnAccess
      self.clock = clock
    }
  }

  /// An eighth of physical memory: generous for a server, far from starving it.
  public static var defaultCostLimit: Int { Int(clamping: ProcessInfo.processInfo.physicalMemory / 8) }

  public let configuration: Configuration
  private let state: Mutex<LRUList<Value>>

  public init(configuration: Configuration = Configuration()) {
    self.configuration = configuration
    self.state = Mutex(LRUList())
  }

  /// The value for `key`, if present and not expired; marks it most recently used.
  public func value(for key: CacheKey) -> Value? {
    let now = configuration.clock.now()
    let extends = configuration.extendsExpirationOnAccess
    return state.withLock { list in
      guard let index = list.index[key] else { return nil }
      if let expiry = list.nodes[index].expiry, expiry <= now {
        list.remove(at: index)
        return nil
      }
      if extends, case .seconds = list.nodes[index].expiration {
        list.nodes[index].expiry = list.nodes[index].expiration.expiryDate(from: now)
      }
      list.moveToFront(index)
      return list.nodes[index].value
    }
  }

  /// Whether a live entry exists, without touching its recency.
  public func contains(_ key: CacheKey) -> Bool {
    let now = configuration.clock.now()
    return state.withLock { list in
      guard let index = list.index[key] else { return false }
      return list.nodes[index].expiry.map { $0 > now } ?? true
    }
  }

  /// Stores `value` as the most recently used entry, evicting least recently used entries until
  /// both limits hold. A value costing more than the whole limit is not stored.
  public func insert(_ value: Value, for key: CacheKey, cost: Int, expiration: CacheExpiration? = nil) {
    let expiration = expiration ?? configuration.expiration
    let expiry = expiration.expiryDate(from: configuration.clock.now())
    let (costLimit, countLimit) = (configuration.costLimit, configuration.countLimit)
    state.withLock { list in
      if let existing = list.index[key] { list.remove(at: existing) }
      guard cost <= costLimit, countLimit > 0 else { return }
      list.insertAtFront(key: key, value: value, cost: cost, expiration: expiration, expiry: expiry)
      while list.totalCost > costLimit || list.count > countLimit, let last = list.tail {
        list.remove(at: last)
      }
    }
  }

  @discardableResult
  public func removeValue(for key: CacheKey) -> Value? {
    state.withLock { list in
      guard let index = list.index[key] else { return nil }
      let value = list.nodes[index].value
      list.remove(at: index)
      return value
    }
  }

  public func removeAll() { state.withLock { $0 = LRUList() } }

  /// Drops every expired entry now (reads drop expired entries lazily anyway).
  public func removeExpired() {
    let now = configuration.clock.now()
    state.withLock { list in
      for index in list.indicesFromMostRecent() where list.nodes[index].expiry.map({ $0 <= now }) ?? false {
        list.remove(at: index)
      }
    }
  }

  public var count: Int { state.withLock { $0.count } }
  public var totalCost: Int { state.withLock { $0.totalCost } }

  /// Keys from most to least recently used.
  public var keysByRecency: [CacheKey] {
    state.withLock { list in list.indicesFromMostRecent().map { list.nodes[$0].key } }
  }
}

/// A doubly linked list threaded through an array (indices, not references), plus a key index:
/// a hit is one hash lookup and a few integer writes, with no allocation.
struct LRUList<Value> {
  struct Node {
    var key: CacheKey
    /// `nil` once removed, so a free slot does not keep its value's memory alive.
    var value: Value?
    var cost: Int
    var expiration: CacheExpiration
    var expiry: Date?
    var previous: Int?
    var next: Int?
  }

  var nodes: [Node] = []
  var index: [CacheKey: Int] = [:]
  var freeSlots: [Int] = []
  var head: Int?
  var tail: Int?
  var totalCost = 0
  var count: Int { index.count }

  mutating func insertAtFront(key: CacheKey, value: Value, cost: Int, expiration: CacheExpiration, expiry: Date?) {
    let node = Node(
      key: key, value: value, cost: cost, expiration: expiration, expiry: expiry, previous: nil, next: head)
    let slot: Int
    if let free = freeSlots.popLast() {
      nodes[free] = node
      slot = free
    } else {
      nodes.append(node)
      slot = nodes.count - 1
    }
    if let head { nodes[head].previous = slot }
    head = slot
    if tail == nil { tail = slot }
    index[key] = slot
    totalCost += cost
  }

  mutating func moveToFront(_ slot: Int) {
    guard head != slot else { return }
    unlink(slot)
    nodes[slot].previous = nil
    nodes[slot].next = head
    if let head { nodes[head].previous = slot }
    head = slot
    if tail == nil { tail = slot }
  }

  mutating func remove(at slot: Int) {
    unlink(slot)
    index[nodes[slot].key] = nil
    totalCost -= nodes[slot].cost
    nodes[slot].value = nil
    freeSlots.append(slot)
  }

  private mutating func unlink(_ slot: Int) {
    let (previous, next) = (nodes[slot].previous, nodes[slot].next)
    if let previous { nodes[previous].next = next } else { head = next }
    if let next { nodes[next].previous = previous } else { tail = previous }
  }

  func indicesFromMostRecent() -> [Int] {
    var result: [Int] = []
    var cursor = head
    while let slot = cursor {
      result.append(slot)
      cursor = nodes[slot].next
    }
    return result
  }
}
