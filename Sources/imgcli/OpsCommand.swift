import ArgumentParser
import Imago

struct OpsCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "ops",
    abstract: "List the processors `imgcli resize --op` takes, with their parameters."
  )

  func run() throws {
    let width = ProcessorParser.operations.map(\.syntax.count).max() ?? 0
    for operation in ProcessorParser.operations {
      let padding = String(repeating: " ", count: width - operation.syntax.count)
      print("\(operation.syntax)\(padding)  \(operation.summary)")
    }
    print("")
    print(ProcessorParser.valueHelp)
  }
}
