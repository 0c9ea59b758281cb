import Foundation

/// Self-describing test payloads: "key|version|" then 64 bytes derived from both, repeated to a
/// length of 2-40 KB (cheap to make even in a debug build), so any mix-up of keys, versions or
/// bytes is detectable.
public enum CacheWriterPayload {
  public static func make(key: String, version: Int) -> Data {
    var data = Data("\(key)|\(version)|".utf8)
    let length = 2_000 + (version * 7919 + key.utf8.count * 104_729) % 38_000
    let seed = UInt64(truncatingIfNeeded: version) &* 31 &+ key.hashValueStable
    let pattern = TestImages.randomBytes(count: 64, seed: seed)
    var body = [UInt8](repeating: 0, count: length)
    body.withUnsafeMutableBufferPointer { buffer in
      for start in stride(from: 0, to: length, by: 64) {
        for offset in 0..<min(64, length - start) { buffer[start + offset] = pattern[offset] }
      }
    }
    data.append(contentsOf: body)
    return data
  }

  /// Whether `payload` is exactly what `make` gives for `key` and the version it names.
  public static func isValid(_ payload: Data, key: String) -> Bool {
    let parts = payload.prefix(200).split(separator: UInt8(ascii: "|"), maxSplits: 2, omittingEmptySubsequences: false)
    guard parts.count == 3, String(decoding: parts[0], as: UTF8.self) == key,
      let version = Int(String(decoding: parts[1], as: UTF8.self))
    else { return false }
    return make(key: key, version: version) == payload
  }
}

extension String {
  /// FNV-1a: stable across processes, unlike `hashValue`.
  var hashValueStable: UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    return hash
  }
}
