// Test helper, not shipped: writes disk cache entries in a loop until killed or done, so the
// cache tests can SIGKILL a writer mid-write and run two writers on one directory.
//
//   CacheWriter DIRECTORY WRITER-ID ITERATIONS SIZE-LIMIT
import Foundation
import Imago
import TestSupport

let arguments = CommandLine.arguments
guard arguments.count == 5, let writer = Int(arguments[2]), let iterations = Int(arguments[3]),
  let sizeLimit = Int(arguments[4])
else {
  FileHandle.standardError.write(Data("usage: CacheWriter DIRECTORY WRITER-ID ITERATIONS SIZE-LIMIT\n".utf8))
  exit(2)
}
let cache = try DiskCache(
  directory: URL(fileURLWithPath: arguments[1]), configuration: DiskCache.Configuration(sizeLimit: sizeLimit))
// Each key's payload is made once, so that the loop is all writing (and a kill lands mid-write).
var payloads: [Int: Data] = [:]
var iteration = 0
while iterations == 0 || iteration < iterations {
  let slot = iteration % 40
  let key = CacheKey(source: "key-\(slot)")
  if payloads[slot] == nil {
    payloads[slot] = CacheWriterPayload.make(key: key.source, version: writer * 1_000_000 + slot)
  }
  try cache.store(payloads[slot]!, for: key)
  iteration += 1
}
