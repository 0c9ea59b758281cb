import Foundation
import Imago
import Testing

@Suite struct MemoryCacheTests {
  static func key(_ name: String) -> CacheKey { CacheKey(source: name) }

  func cache(
    costLimit: Int = 1_000, countLimit: Int = .max, expiration: CacheExpiration = .seconds(300),
    extends: Bool = false, clock: ManualWallClock = ManualWallClock()
  ) -> MemoryCache<Int> {
    MemoryCache(
      configuration: .init(
        costLimit: costLimit, countLimit: countLimit, expiration: expiration, extendsExpirationOnAccess: extends,
        clock: clock))
  }

  @Test func leastRecentlyUsedIsEvictedFirst() {
    let cache = cache(countLimit: 3)
    for (index, name) in ["a", "b", "c"].enumerated() { cache.insert(index, for: Self.key(name), cost: 1) }
    _ = cache.value(for: Self.key("a"))  // a is now the most recent
    cache.insert(3, for: Self.key("d"), cost: 1)
    #expect(cache.value(for: Self.key("b")) == nil)
    #expect(cache.keysByRecency == ["d", "a", "c"].map(Self.key))
  }

  @Test func costLimitHolds() {
    let cache = cache(costLimit: 100)
    for index in 0..<10 { cache.insert(index, for: Self.key("\(index)"), cost: 30) }
    #expect(cache.totalCost <= 100)
    #expect(cache.count == 3)
    #expect(cache.value(for: Self.key("9")) == 9 && cache.value(for: Self.key("0")) == nil)
    // Larger than the whole limit: not stored, nothing evicted for it.
    cache.insert(99, for: Self.key("huge"), cost: 101)
    #expect(cache.value(for: Self.key("huge")) == nil && cache.count == 3)
  }

  @Test func replacingAnEntryUpdatesItsCost() {
    let cache = cache(costLimit: 100)
    cache.insert(1, for: Self.key("a"), cost: 60)
    cache.insert(2, for: Self.key("a"), cost: 10)
    #expect(cache.totalCost == 10 && cache.value(for: Self.key("a")) == 2)
  }

  @Test func entriesExpire() {
    let clock = ManualWallClock()
    let cache = cache(clock: clock)
    cache.insert(1, for: Self.key("default"), cost: 1)
    cache.insert(2, for: Self.key("never"), cost: 1, expiration: .never)
    cache.insert(3, for: Self.key("short"), cost: 1, expiration: .seconds(10))
    cache.insert(4, for: Self.key("date"), cost: 1, expiration: .date(clock.now().addingTimeInterval(100)))
    clock.advance(by: 11)
    #expect(cache.value(for: Self.key("short")) == nil)
    #expect(cache.value(for: Self.key("date")) == 4)
    clock.advance(by: 100)
    #expect(cache.value(for: Self.key("date")) == nil)
    #expect(cache.value(for: Self.key("default")) == 1)
    clock.advance(by: 200)  // 311 s: past the default 5 minutes
    #expect(cache.value(for: Self.key("default")) == nil)
    clock.advance(by: 1e9)
    #expect(cache.value(for: Self.key("never")) == 2)
  }

  @Test func accessCanExtendExpiration() {
    let clock = ManualWallClock()
    let extending = cache(expiration: .seconds(10), extends: true, clock: clock)
    let fixed = cache(expiration: .seconds(10), clock: clock)
    extending.insert(1, for: Self.key("a"), cost: 1)
    fixed.insert(1, for: Self.key("a"), cost: 1)
    for _ in 0..<5 {
      clock.advance(by: 6)
      _ = extending.value(for: Self.key("a"))
      _ = fixed.value(for: Self.key("a"))
    }
    #expect(extending.value(for: Self.key("a")) == 1)
    #expect(fixed.value(for: Self.key("a")) == nil)
  }

  @Test func removeExpiredRemoveAndRemoveAll() {
    let clock = ManualWallClock()
    let cache = cache(clock: clock)
    cache.insert(1, for: Self.key("a"), cost: 1, expiration: .seconds(1))
    cache.insert(2, for: Self.key("b"), cost: 1)
    cache.insert(3, for: Self.key("c"), cost: 1)
    clock.advance(by: 2)
    cache.removeExpired()
    #expect(cache.count == 2 && cache.totalCost == 2)
    #expect(cache.removeValue(for: Self.key("b")) == 2)
    #expect(cache.count == 1)
    cache.removeAll()
    #expect(cache.count == 0 && cache.totalCost == 0 && cache.value(for: Self.key("c")) == nil)
  }

  @Test func processedVariantsAreSeparateEntries() {
    let cache = cache()
    let original = CacheKey(source: "https://x/a.jpg")
    let thumb = CacheKey(source: "https://x/a.jpg", processor: "imago.resize.v1(w=10)")
    cache.insert(1, for: original, cost: 1)
    cache.insert(2, for: thumb, cost: 1)
    #expect(cache.value(for: original) == 1 && cache.value(for: thumb) == 2)
    #expect(thumb.original == original)
  }

  @Test func concurrentReadersAndWritersKeepTheLimits() async {
    let cache = cache(costLimit: 500, countLimit: 40)
    await withTaskGroup(of: Void.self) { group in
      for worker in 0..<16 {
        group.addTask {
          for step in 0..<2_000 {
            let key = Self.key("k\((worker * 7 + step) % 97)")
            if step % 3 == 0 {
              cache.insert(step, for: key, cost: 1 + step % 20)
            } else if let value = cache.value(for: key) {
              #expect(value >= 0)
            }
            if step % 500 == 0 { cache.removeExpired() }
          }
        }
      }
    }
    #expect(cache.totalCost <= 500 && cache.count <= 40)
    #expect(cache.keysByRecency.count == cache.count)
  }
}
