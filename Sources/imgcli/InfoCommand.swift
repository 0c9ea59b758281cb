import ArgumentParser
import Foundation
import Imago

struct InfoCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "info",
    abstract: "Print format, stored size, alpha, EXIF orientation, frames and byte size of images.",
    discussion: """
      With --json, one object per line with the keys path, format, width, height, hasAlpha,
      orientation, frames, bytes. A file that cannot be read gets an `error:` line on stderr and
      the exit status is 1; the other files are still printed.
      """
  )

  @Argument(help: "Image files.")
  var files: [String]

  @Flag(help: "One JSON object per line.")
  var json = false

  func validate() throws {
    if files.isEmpty { throw ValidationError("give at least one image file") }
  }

  func run() throws {
    var failed = false
    for path in files {
      do {
        let data = try readInput(path)
        let info = try CoderRegistry.default.info(for: data)
        print(
          json
            ? Self.jsonLine(path: path, info: info, bytes: data.count)
            : Self.textLine(path: path, info: info, bytes: data.count))
      } catch let failure as CommandFailure {
        failed = true
        CommandFailure.printToStandardError("error: \(failure.message ?? path)")
      } catch {
        failed = true
        CommandFailure.printToStandardError("error: \(path): \(error)")
      }
    }
    if failed { throw CommandFailure.someFailed }
  }

  static func textLine(path: String, info: ImageInfo, bytes: Int) -> String {
    var line =
      "\(path): \(info.format) \(info.width)x\(info.height), alpha \(info.hasAlpha ? "yes" : "no"), "
      + "orientation \(info.orientation.rawValue), frames \(info.frameCount), \(bytes) bytes"
    if info.isProgressive { line += info.format == .png ? ", interlaced" : ", progressive" }
    if info.frameCount > 1 { line += " (animated: Imago decodes the first frame)" }
    return line
  }

  static func jsonLine(path: String, info: ImageInfo, bytes: Int) -> String {
    return
      "{\"path\":\(jsonString(path)),\"format\":\"\(info.format)\",\"width\":\(info.width),\"height\":\(info.height),"
      + "\"hasAlpha\":\(info.hasAlpha),\"orientation\":\(info.orientation.rawValue),\"frames\":\(info.frameCount),"
      + "\"bytes\":\(bytes)}"
  }
}
