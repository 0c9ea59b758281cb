import ArgumentParser
import Foundation
import Imago

/// `imgcli`: inspect, resize and re-encode images from the shell.
///
/// Exit status: 0 success, 1 bad input or failed work (one `error: ...` line each on stderr),
/// 2 usage errors.
@main
struct Imgcli: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "imgcli",
    abstract: "Inspect, resize and re-encode JPEG, PNG and WebP images.",
    subcommands: [InfoCommand.self, ResizeCommand.self, FetchCommand.self, OpsCommand.self, CacheCommand.self]
  )

  static func main() async {
    do {
      var command = try parseAsRoot()
      if var asyncCommand = command as? any AsyncParsableCommand {
        try await asyncCommand.run()
      } else {
        try command.run()
      }
    } catch let failure as CommandFailure {
      if let message = failure.message { CommandFailure.printToStandardError("error: \(message)") }
      Foundation.exit(failure.status)
    } catch {
      // Help and version requests, usage errors and anything unexpected, as ArgumentParser sees them.
      switch exitCode(for: error) {
      case .success:
        print(fullMessage(for: error))
        Foundation.exit(0)
      case .validationFailure:
        CommandFailure.printToStandardError(fullMessage(for: error))
        Foundation.exit(2)
      default:
        CommandFailure.printToStandardError("error: \(fullMessage(for: error))")
        Foundation.exit(1)
      }
    }
  }
}

/// A failure that ends the command with `status`; `message` (if any) is printed as `error: ...`.
struct CommandFailure: Error {
  var status: Int32
  var message: String?

  static func input(_ message: String) -> CommandFailure { CommandFailure(status: 1, message: message) }
  static func usage(_ message: String) -> CommandFailure { CommandFailure(status: 2, message: message) }
  /// Work went on past failures that were already reported one by one.
  static let someFailed = CommandFailure(status: 1, message: nil)

  static func printToStandardError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
  }
}

/// Reads a whole input file, mapped when the system allows it.
func readInput(_ path: String) throws(CommandFailure) -> Data {
  do {
    return try Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe)
  } catch {
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
      throw .input("\(path): is a directory")
    }
    throw .input(
      "\(path): cannot read: \(FileManager.default.fileExists(atPath: path) ? "permission denied" : "no such file")")
  }
}

/// `text` as a JSON string literal (slashes left alone).
func jsonString(_ text: String) -> String {
  let encoder = JSONEncoder()
  encoder.outputFormatting = .withoutEscapingSlashes
  return (try? String(decoding: encoder.encode(text), as: UTF8.self)) ?? "\"\""
}
