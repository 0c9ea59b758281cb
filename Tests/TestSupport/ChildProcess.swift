import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Runs a program to completion (or kills it at a deadline) and reports how it ended, what it
/// printed and, when asked, its peak memory.
public struct ChildProcess {
  public struct Result: Sendable {
    /// Exit status, when it exited.
    public var status: Int32?
    /// Signal number, when a signal ended it (a crash, or our kill at the deadline).
    public var signal: Int32?
    public var standardOutput: String
    public var standardError: String
    /// Peak resident set size in KiB, when asked for.
    public var maxResidentKiB: Int?
    public var timedOut: Bool
  }

  public enum Failure: Error {
    case cannotSpawn(Int32)
    case missingTimeCommand
  }

  /// GNU time, which the test set-up installs: it forks from a small process, so the child's
  /// peak RSS is its own. (A child spawned straight from the test runner inherits the runner's
  /// high-water mark across exec, because posix_spawn shares the parent's memory until exec.)
  public static let timeCommand = "/usr/bin/time"

  public static func run(
    _ executable: String, _ arguments: [String], timeout: Double = 60, measuringMemory: Bool = false,
    environment overrides: [String: String] = [:]
  ) throws -> Result {
    let directory = try TestFiles.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let outPath = directory.appendingPathComponent("stdout").path
    let errPath = directory.appendingPathComponent("stderr").path
    let rssPath = directory.appendingPathComponent("rss").path
    var executable = executable
    var arguments = arguments
    if measuringMemory {
      guard FileManager.default.isExecutableFile(atPath: timeCommand) else { throw Failure.missingTimeCommand }
      arguments = ["-f", "%M", "-o", rssPath, executable] + arguments
      executable = timeCommand
    }

    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)

    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    // The child's environment is built here, never by setenv: tests run in parallel.
    let variables = ProcessInfo.processInfo.environment.merging(overrides) { $1 }
    let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for pointer in envp { free(pointer) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
    guard spawned == 0 else { throw Failure.cannotSpawn(spawned) }

    var status: Int32 = 0
    let deadline = Date().addingTimeInterval(timeout)
    var timedOut = false
    while true {
      let waited = waitpid(pid, &status, WNOHANG)
      if waited == pid { break }
      if Date() > deadline && !timedOut {
        timedOut = true
        kill(pid, SIGKILL)
      }
      usleep(2_000)
    }
    let exited = status & 0x7F == 0
    return Result(
      status: exited ? (status >> 8) & 0xFF : nil,
      signal: exited ? nil : status & 0x7F,
      standardOutput: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "",
      standardError: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "",
      maxResidentKiB: measuringMemory ? Self.lastInteger(inFile: rssPath) : nil,
      timedOut: timedOut)
  }

  private static func lastInteger(inFile path: String) -> Int? {
    let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    return text.split(whereSeparator: \.isNewline).last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
  }

  /// Starts a program and returns at once; its output goes to /dev/null.
  public static func start(_ executable: String, _ arguments: [String]) throws -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for descriptor in [Int32(0), 1, 2] {
      posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
    }
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
    guard spawned == 0 else { throw Failure.cannotSpawn(spawned) }
    return pid
  }

  /// Waits for a started program; returns its exit status, or nil when a signal ended it.
  @discardableResult
  public static func wait(_ pid: pid_t) -> Int32? {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return status & 0x7F == 0 ? (status >> 8) & 0xFF : nil
  }

  /// The directory holding the test binaries (and the package's executables beside them).
  public static let productsDirectory: URL = {
    let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    if FileManager.default.isExecutableFile(atPath: besideTests.appendingPathComponent("imgcli").path) {
      return besideTests
    }
    return TestFiles.repositoryRoot.appendingPathComponent(".build/debug")
  }()
}
