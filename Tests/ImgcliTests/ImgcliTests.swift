import Foundation
import Imago
import TestSupport
import Testing

/// End-to-end: the real `imgcli` binary, run as a child process.
@Suite struct ImgcliTests {
  static let binary: String = {
    let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("imgcli").path
    if FileManager.default.isExecutableFile(atPath: besideTests) { return besideTests }
    return TestFiles.repositoryRoot.appendingPathComponent(".build/debug/imgcli").path
  }()

  static func imgcli(_ arguments: String...) throws -> ChildProcess.Result {
    try ChildProcess.run(binary, arguments)
  }

  static func fixture(_ name: String) -> String { TestFiles.fixtures.appendingPathComponent(name).path }

  @Test func infoPrintsOneLinePerFile() throws {
    let result = try Self.imgcli("info", Self.fixture("wizard.jpg"), Self.fixture("animated.webp"))
    #expect(result.status == 0)
    let lines = result.standardOutput.split(separator: "\n")
    #expect(lines.count == 2)
    #expect(lines.first?.contains("jpeg 640x480, alpha no, orientation 1, frames 1, 55396 bytes") == true)
    #expect(lines.last?.contains("frames 3") == true)
    #expect(lines.last?.contains("first frame") == true)
  }

  @Test func infoJSONHasTheDocumentedKeys() throws {
    let names = ["wizard.jpg", "alpha.png", "orientation-6.jpg", "animated.webp"]
    let result = try ChildProcess.run(Self.binary, ["info", "--json"] + names.map(Self.fixture))
    #expect(result.status == 0)
    let objects = try result.standardOutput.split(separator: "\n").map {
      try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
    }
    #expect(objects.count == 4)
    for object in objects {
      #expect(Set(object.keys) == ["path", "format", "width", "height", "hasAlpha", "orientation", "frames", "bytes"])
    }
    #expect(objects[1]["hasAlpha"] as? Bool == true)
    #expect(objects[2]["orientation"] as? Int == 6)
    #expect(objects[2]["width"] as? Int == 32)  // as stored
    #expect(objects[3]["frames"] as? Int == 3)
    #expect(objects[0]["bytes"] as? Int == 55396)
  }

  @Test func infoReportsBadFilesAndGoesOn() throws {
    let directory = try TestFiles.temporaryDirectory()
    let bad = directory.appendingPathComponent("bad.png").path
    try Data("not an image".utf8).write(to: URL(fileURLWithPath: bad))
    let result = try Self.imgcli("info", bad, Self.fixture("wizard.png"))
    #expect(result.status == 1)
    #expect(result.standardOutput.contains("png 320x240"))
    #expect(
      result.standardError
        == "error: \(bad): unknown format: not a JPEG, PNG, WebP, GIF, BMP, TIFF, HEIF or AVIF image\n")
  }

  @Test func resizeWithAWidthKeepsTheAspectRatio() throws {
    let directory = try TestFiles.temporaryDirectory()
    let output = directory.appendingPathComponent("thumb.webp")
    let result = try Self.imgcli("resize", Self.fixture("wizard.jpg"), "-o", output.path, "--width", "100")
    #expect(result.status == 0, "\(result.standardError)")
    let info = try CoderRegistry.default.info(for: Data(contentsOf: output))
    #expect(info.format == .webp && info.width == 100 && info.height == 75)
  }

  @Test func resizeWithAHeightOnlyAndBothSides() throws {
    let directory = try TestFiles.temporaryDirectory()
    let tall = directory.appendingPathComponent("h.png")
    #expect(try Self.imgcli("resize", Self.fixture("wizard.jpg"), "-o", tall.path, "--height", "60").status == 0)
    let tallInfo = try CoderRegistry.default.info(for: Data(contentsOf: tall))
    #expect(tallInfo.width == 80 && tallInfo.height == 60)
    let boxed = directory.appendingPathComponent("b.jpg")
    #expect(
      try Self.imgcli("resize", Self.fixture("wizard.jpg"), "-o", boxed.path, "--width", "100", "--height", "100")
        .status == 0)
    let boxedInfo = try CoderRegistry.default.info(for: Data(contentsOf: boxed))
    #expect(boxedInfo.width == 100 && boxedInfo.height == 75)
  }

  @Test func resizeAppliesOrientation() throws {
    let directory = try TestFiles.temporaryDirectory()
    let output = directory.appendingPathComponent("upright.png")
    #expect(
      try Self.imgcli("resize", Self.fixture("orientation-6.jpg"), "-o", output.path, "--width", "24").status == 0)
    let image = try CoderRegistry.default.decode(Data(contentsOf: output)).pixels
    #expect(image.width == 24 && image.height == 16)
    #expect(image[pixel: 5, 4].map(Int.init)[0] > 200)  // red stays top-left
  }

  @Test func withoutASizeResizeOnlyReencodes() throws {
    let directory = try TestFiles.temporaryDirectory()
    let output = directory.appendingPathComponent("copy.bin")
    let result = try Self.imgcli("resize", Self.fixture("wizard.png"), "-o", output.path, "--format", "png")
    #expect(result.status == 0)
    let original = try CoderRegistry.default.decode(try TestFiles.fixture("wizard.png")).pixels
    #expect(try CoderRegistry.default.decode(Data(contentsOf: output)).pixels == original)
  }

  @Test func neverUpscalesUnlessAsked() throws {
    let directory = try TestFiles.temporaryDirectory()
    let output = directory.appendingPathComponent("big.jpg")
    #expect(try Self.imgcli("resize", Self.fixture("gray.jpg"), "-o", output.path, "--width", "320").status == 0)
    #expect(try CoderRegistry.default.info(for: Data(contentsOf: output)).width == 160)
    #expect(
      try Self.imgcli("resize", Self.fixture("gray.jpg"), "-o", output.path, "--width", "320", "--upscale").status == 0)
    #expect(try CoderRegistry.default.info(for: Data(contentsOf: output)).width == 320)
  }

  @Test(arguments: [
    ["resize", "IN"],
    ["resize", "IN", "-o", "OUT.gif"],
    ["resize", "IN", "-o", "OUT.txt"],
    ["resize", "IN", "-o", "OUT.jpg", "--quality", "0"],
    ["resize", "IN", "-o", "OUT.jpg", "--width", "-3"],
    ["resize", "IN", "-o", "OUT.jpg", "--filter", "sinc"],
    ["info"],
    ["frobnicate"],
  ])
  func usageErrorsExitWithStatus2(arguments: [String]) throws {
    let output = try TestFiles.temporaryDirectory().appendingPathComponent("out").path
    let resolved = arguments.map {
      $0 == "IN" ? Self.fixture("wizard.jpg") : $0.replacingOccurrences(of: "OUT", with: output)
    }
    let result = try ChildProcess.run(Self.binary, resolved)
    #expect(result.status == 2, "\(arguments): \(result.standardError)")
    #expect(!result.standardError.isEmpty)
  }

  @Test func helpExitsWithStatus0() throws {
    let result = try Self.imgcli("resize", "--help")
    #expect(result.status == 0)
    #expect(result.standardOutput.contains("--width"))
  }

  /// Every kind of bad input: exit status 1 and exactly one `error:` line, never a signal.
  @Test func hostileFilesEndInStatus1WithOneErrorLine() throws {
    let directory = try TestFiles.temporaryDirectory()
    let wizard = try TestFiles.fixture("wizard.jpg")
    let png = try TestFiles.fixture("wizard.png")
    var files: [String: Data] = [
      "empty.jpg": Data(),
      "random.jpg": Data(TestImages.randomBytes(count: 5000, seed: 1)),
      "random-behind-jpeg-magic.jpg": Data([0xFF, 0xD8, 0xFF] + TestImages.randomBytes(count: 5000, seed: 2)),
      "half.jpg": wizard.prefix(wizard.count / 2),
      "half.png": png.prefix(png.count / 2),
      "header-only.png": png.prefix(40),
      "giant.png": TestImages.png(
        width: 100_000, height: 100_000, idat: [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]),
      "gif.gif": Data(Array("GIF89a".utf8) + [1, 0, 1, 0, 0, 0, 0]),
    ]
    files["text.webp"] = Data("RIFF....WEBPnot really".utf8)
    for (name, data) in files { try data.write(to: directory.appendingPathComponent(name)) }
    let paths =
      files.keys.sorted().map { directory.appendingPathComponent($0).path } + [
        directory.appendingPathComponent("missing.jpg").path, directory.path,
      ]
    for path in paths {
      let output = directory.appendingPathComponent("out.jpg").path
      let result = try Self.imgcli("resize", path, "-o", output, "--width", "50")
      #expect(result.signal == nil && result.status == 1, "\(path): \(result)")
      let lines = result.standardError.split(separator: "\n")
      #expect(lines.count == 1 && lines[0].hasPrefix("error: "), "\(path): \(result.standardError)")
      #expect(!FileManager.default.fileExists(atPath: output), "no output is left for \(path)")
    }
    let info = try ChildProcess.run(Self.binary, ["info"] + paths)
    #expect(info.signal == nil && info.status == 1)
    let errorLines = info.standardError.split(separator: "\n")
    // giant.png, half.jpg and half.png have intact headers, which is all info reads.
    #expect(errorLines.count == paths.count - 3, "\(info.standardError)")
    #expect(errorLines.allSatisfy { $0.hasPrefix("error: ") })
    #expect(info.standardError.contains("unsupported format: gif"))
    #expect(info.standardOutput.contains("png 100000x100000"))
  }

  /// Shrink-on-load for PNG: a 5120x2880 PNG resized to 400 px never holds its 44 MB full-size
  /// buffer, which a plain re-encode of the same file must.
  @Test func pngThumbnailNeverAllocatesTheFullSizeBuffer() throws {
    let directory = try TestFiles.temporaryDirectory()
    let input = directory.appendingPathComponent("big.png")
    let big = TestImages.gradient(width: 5120, height: 2880)
    try PNGEncoder().encode(big, options: EncodingOptions(compressionLevel: 1)).write(to: input)
    let thumb = try ChildProcess.run(
      Self.binary, ["resize", input.path, "-o", directory.appendingPathComponent("t.jpg").path, "--width", "400"],
      measuringMemory: true)
    let full = try ChildProcess.run(
      Self.binary, ["resize", input.path, "-o", directory.appendingPathComponent("f.jpg").path], measuringMemory: true)
    #expect(thumb.status == 0 && full.status == 0)
    let fullBufferKiB = 5120 * 2880 * 3 / 1024
    let thumbKiB = try #require(thumb.maxResidentKiB)
    let fullKiB = try #require(full.maxResidentKiB)
    // A run that held the full-size buffer would peak within a few MB of the full run; the
    // thumbnail must stay below it by at least half that buffer (measured: 34 MB against 77 MB).
    #expect(thumbKiB + fullBufferKiB / 2 < fullKiB, "thumbnail \(thumbKiB) KiB, full \(fullKiB) KiB")
  }

  @Test func opsBuildAPipelineInOrder() throws {
    let directory = try TestFiles.temporaryDirectory()
    let output = directory.appendingPathComponent("avatar.png")
    let result = try ChildProcess.run(
      Self.binary,
      [
        "resize", Self.fixture("wizard.jpg"), "-o", output.path, "--op", "resize=120x120,fill", "--op", "round=60",
        "--op", "grayscale",
      ])
    #expect(result.status == 0, "\(result.standardError)")
    let image = try CoderRegistry.default.decode(Data(contentsOf: output)).pixels
    #expect(image.width == 120 && image.height == 120 && image.format == .grayAlpha8)
    #expect(image[pixel: 0, 0][1] == 0 && image[pixel: 60, 60][1] == 255)
  }

  @Test func modeFillWithWidthAndHeight() throws {
    let directory = try TestFiles.temporaryDirectory()
    let output = directory.appendingPathComponent("square.jpg")
    let result = try Self.imgcli(
      "resize", Self.fixture("wizard.jpg"), "-o", output.path, "--width", "90", "--height", "90", "--mode", "fill")
    #expect(result.status == 0)
    let info = try CoderRegistry.default.info(for: Data(contentsOf: output))
    #expect(info.width == 90 && info.height == 90)
  }

  @Test(arguments: [["--op", "blurr=2"], ["--op", "blur=x"], ["--op", "resize=10x10,sideways"], ["--mode", "zoom"]])
  func malformedOpsExitWithStatus2NamingTheProblem(arguments: [String]) throws {
    let output = try TestFiles.temporaryDirectory().appendingPathComponent("o.jpg").path
    let result = try ChildProcess.run(Self.binary, ["resize", Self.fixture("wizard.jpg"), "-o", output] + arguments)
    #expect(result.status == 2)
    #expect(result.standardError.contains(arguments[1].split(separator: "=").first.map(String.init) ?? ""))
  }

  @Test func opsListsEveryProcessor() throws {
    let result = try Self.imgcli("ops")
    #expect(result.status == 0)
    for operation in ProcessorParser.operations { #expect(result.standardOutput.contains(operation.syntax)) }
  }

  @Test func batchGoesPastBadFilesAndSummarises() throws {
    let directory = try TestFiles.temporaryDirectory()
    let bad = directory.appendingPathComponent("broken.jpg")
    try Data([0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3]).write(to: bad)
    let outputs = directory.appendingPathComponent("out")
    let inputs = ["wizard.jpg", "gray.jpg", "lossy.webp", "alpha.png"].map(Self.fixture) + [bad.path]
    let result = try ChildProcess.run(
      Self.binary, ["resize"] + inputs + ["--out-dir", outputs.path, "--width", "40", "-j", "2"])
    #expect(result.status == 1)
    #expect(result.standardError.contains("error: \(bad.path): "))
    #expect(result.standardError.hasSuffix("4 done, 1 failed\n"))
    let written = try FileManager.default.contentsOfDirectory(atPath: outputs.path).sorted()
    #expect(written == ["alpha.png", "gray.jpg", "lossy.webp", "wizard.jpg"])
    for name in written {
      let info = try CoderRegistry.default.info(for: Data(contentsOf: outputs.appendingPathComponent(name)))
      #expect(info.width == 40)
    }
    // Not a terminal: no progress bar characters.
    #expect(!result.standardError.contains("[#"))
  }

  @Test func batchWithAFormatRenamesOutputs() throws {
    let directory = try TestFiles.temporaryDirectory()
    let result = try ChildProcess.run(
      Self.binary,
      [
        "resize", Self.fixture("wizard.jpg"), Self.fixture("alpha.png"), "--out-dir", directory.path, "--format",
        "webp",
        "--width", "30",
      ])
    #expect(result.status == 0)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["alpha.webp", "wizard.webp"])
  }

  @Test func severalInputsNeedAnOutputDirectory() throws {
    let result = try Self.imgcli("resize", Self.fixture("wizard.jpg"), Self.fixture("gray.jpg"), "-o", "/tmp/x.jpg")
    #expect(result.status == 2)
  }

  @Test func cacheStatsTrimAndClear() throws {
    let directory = try TestFiles.temporaryDirectory()
    let cache = try DiskCache(directory: directory)
    for index in 0..<5 { try cache.store(Data(count: 10_000), for: CacheKey(source: "k\(index)")) }
    let stats = try Self.imgcli("cache", "stats", "--cache-dir", directory.path, "--json")
    #expect(stats.status == 0)
    let object = try JSONSerialization.jsonObject(with: Data(stats.standardOutput.utf8)) as? [String: Any]
    #expect(object?["entries"] as? Int == 5)
    #expect((object?["bytes"] as? Int ?? 0) > 50_000)
    let trim = try Self.imgcli("cache", "trim", "--cache-dir", directory.path, "--max-size", "25K")
    #expect(trim.status == 0, "\(trim.standardError)")
    #expect(cache.statistics.totalBytes <= 25 * 1024)
    let clear = try Self.imgcli("cache", "clear", "--cache-dir", directory.path)
    #expect(clear.status == 0 && clear.standardOutput.hasPrefix("removed "))
    #expect(cache.statistics.entryCount == 0)
  }

  @Test func cacheDefaultsToXDGCacheHome() throws {
    let home = try TestFiles.temporaryDirectory()
    let result = try ChildProcess.run(Self.binary, ["cache", "stats"], environment: ["XDG_CACHE_HOME": home.path])
    #expect(result.status == 0)
    #expect(result.standardOutput.hasPrefix(home.path + "/imgcli: 0 entries"))
  }

  @Test func cacheTrimRejectsABadSize() throws {
    #expect(try Self.imgcli("cache", "trim", "--max-size", "lots").status == 2)
  }

  @Test func fetchDownloadsProcessesAndCaches() throws {
    let wizard = try TestFiles.fixture("wizard.jpg")
    let server = try TestHTTPServer { _ in .ok(wizard) }
    let directory = try TestFiles.temporaryDirectory()
    let cacheDirectory = directory.appendingPathComponent("cache").path
    let output = directory.appendingPathComponent("thumb.webp").path
    let first = try Self.imgcli(
      "fetch", server.url("/photos/wizard.jpg").absoluteString, "-o", output, "--width", "120", "--cache-dir",
      cacheDirectory, "--header", "X-Token: secret")
    #expect(first.status == 0, "\(first.standardError)")
    let info = try CoderRegistry.default.info(for: Data(contentsOf: URL(fileURLWithPath: output)))
    #expect(info.format == .webp && info.width == 120)
    #expect(server.requests.first?.headers["x-token"] == "secret")
    // From the disk cache, with the server gone.
    server.stop()
    let cached = try Self.imgcli(
      "fetch", server.url("/photos/wizard.jpg").absoluteString, "-o", output, "--width", "120", "--cache-dir",
      cacheDirectory, "--only-from-cache")
    #expect(cached.status == 0, "\(cached.standardError)")
    #expect(server.hits("/photos/wizard.jpg") == 1)
  }

  @Test func fetchExitsWithStatus3OnHTTPErrors() throws {
    let server = try TestHTTPServer { _ in .status(404) }
    let output = try TestFiles.temporaryDirectory().appendingPathComponent("x.jpg").path
    let result = try Self.imgcli("fetch", server.url("/missing.jpg").absoluteString, "-o", output, "--no-cache")
    #expect(result.status == 3)
    #expect(result.standardError == "error: HTTP 404 from \(server.url("/missing.jpg").absoluteString)\n")
    #expect(!FileManager.default.fileExists(atPath: output))
  }

  @Test func fetchOnlyFromCacheWithNothingCachedIsStatus1() throws {
    let directory = try TestFiles.temporaryDirectory()
    let result = try Self.imgcli(
      "fetch", "http://127.0.0.1:9/never.jpg", "-o", directory.appendingPathComponent("o.jpg").path, "--cache-dir",
      directory.path, "--only-from-cache")
    #expect(result.status == 1)
    #expect(result.standardError.contains("not in the cache"))
  }

  @Test func fetchManyIntoADirectory() throws {
    let wizard = try TestFiles.fixture("wizard.jpg")
    let server = try TestHTTPServer { request in request.path == "/a.jpg" ? .ok(wizard) : .status(500) }
    let directory = try TestFiles.temporaryDirectory()
    let result = try Self.imgcli(
      "fetch", server.url("/a.jpg").absoluteString, server.url("/b.jpg").absoluteString, "--out-dir", directory.path,
      "--width", "64", "--no-cache", "--timeout", "5")
    #expect(result.status == 3)
    #expect(result.standardError.hasSuffix("1 done, 1 failed\n"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["a.jpg"])
  }

  /// The handmade hostile files through imgcli: exit status 0 or 1 with one error line, never a
  /// signal; and the 100-megapixel PNG bomb, thumbnailed, never needs its 100 MB of pixels.
  @Test func hostileFilesThroughImgcli() throws {
    let hostile = TestFiles.fixtures.appendingPathComponent("hostile")
    let files = try FileManager.default.contentsOfDirectory(atPath: hostile.path).filter {
      !$0.hasSuffix(".md") && $0 != "fuzz"
    }
    #expect(files.count >= 4)
    let output = try TestFiles.temporaryDirectory().appendingPathComponent("out.jpg").path
    for name in files {
      let path = hostile.appendingPathComponent(name).path
      let result = try ChildProcess.run(Self.binary, ["resize", path, "-o", output, "--width", "64"], timeout: 60)
      #expect(result.signal == nil && !result.timedOut, "\(name): \(result)")
      #expect(
        result.status == 0 || (result.status == 1 && result.standardError.hasPrefix("error: ")), "\(name): \(result)")
    }
    let info = try ChildProcess.run(Self.binary, ["info"] + files.map { hostile.appendingPathComponent($0).path })
    #expect(info.signal == nil && info.status == 0, "headers are all readable: \(info.standardError)")
    let bomb = try ChildProcess.run(
      Self.binary,
      ["resize", hostile.appendingPathComponent("png-bomb-at-limit.png").path, "-o", output, "--width", "100"],
      timeout: 60, measuringMemory: true)
    #expect(bomb.status == 0)
    #expect(try #require(bomb.maxResidentKiB) < 80 * 1024, "peak \(bomb.maxResidentKiB ?? 0) KiB for a 100 MB image")
  }
}
