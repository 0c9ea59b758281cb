import Foundation

/// A tiny tmpfs, mounted for a test that needs a disk to run full for real.
public struct TinyFileSystem {
  public let directory: URL

  /// Whether this process may mount one (it must be root, in a system that allows it).
  public static let canMount: Bool = {
    guard getuid() == 0, let probe = try? TinyFileSystem(kibibytes: 16) else { return false }
    probe.unmount()
    return true
  }()

  public init(kibibytes: Int) throws {
    directory = try TestFiles.temporaryDirectory()
    let result = try ChildProcess.run(
      "/bin/mount", ["-t", "tmpfs", "-o", "size=\(kibibytes)k", "tmpfs", directory.path])
    guard result.status == 0 else { throw ChildProcess.Failure.cannotSpawn(result.status ?? -1) }
  }

  public func unmount() {
    _ = try? ChildProcess.run("/bin/umount", [directory.path])
    try? FileManager.default.removeItem(at: directory)
  }
}
