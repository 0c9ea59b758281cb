import Foundation
import Imago
import TestSupport
import Testing

/// Every valid PngSuite file decodes to its reference pixels; every corrupt `x*` file is refused.
@Suite struct PngSuiteTests {
  static let directory = TestFiles.pngSuite.appendingPathComponent("png")
  static let names: [String] =
    ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { $0.hasSuffix(".png") }
    .sorted()
  static let validNames = names.filter { !$0.hasPrefix("x") }
  static let corruptNames = names.filter { $0.hasPrefix("x") }

  @Test func suiteIsPresent() {
    #expect(Self.names.count == 175, "PngSuite not found at \(Self.directory.path)")
    #expect(Self.corruptNames.count == 14)
  }

  @Test(arguments: validNames)
  func decodesToReferencePixels(name: String) throws {
    let data = try Data(contentsOf: Self.directory.appendingPathComponent(name))
    let image = try CoderRegistry.default.decode(data).pixels.converted(to: .rgba8)
    let reference = try Self.reference(for: String(name.dropLast(4)))
    #expect(reference.count == image.pixelCount * 4)
    guard reference.count == image.pixelCount * 4 else { return }
    var mismatches = 0
    for pixel in 0..<image.pixelCount {
      let expected = Array(reference[pixel * 4..<pixel * 4 + 4])
      let actual = image.bytes[pixel * 4..<pixel * 4 + 4].map(Int.init)
      let channels = expected[3] == 0 ? 3..<4 : 0..<4
      if channels.contains(where: { abs(expected[$0] - actual[$0]) > 1 }) { mismatches += 1 }
    }
    #expect(mismatches == 0, "\(name): \(mismatches) of \(image.pixelCount) pixels differ")
  }

  @Test(arguments: corruptNames)
  func rejectsCorruptFile(name: String) throws {
    let data = try Data(contentsOf: Self.directory.appendingPathComponent(name))
    #expect(throws: ImagoError.self) { try CoderRegistry.default.decode(data) }
  }

  /// The RGBA reference, reduced to 8 bits the way the suite's README says.
  static func reference(for name: String) throws -> [Int] {
    let json = TestFiles.pngSuite.appendingPathComponent("json")
    let reduced = json.appendingPathComponent("\(name)_to8.json")
    let url =
      FileManager.default.fileExists(atPath: reduced.path) ? reduced : json.appendingPathComponent("\(name).json")
    let values = try JSONDecoder().decode([Int].self, from: Data(contentsOf: url))
    guard values.contains(where: { $0 > 255 }) else { return values }
    return values.map { Int((Double($0) / 257).rounded()) }
  }
}
