/// Builds canonical, versioned processor identifiers: `imago.NAME.vVERSION(key=value,...)`.
///
/// Numbers are written the same way whatever their float representation: rounded to 4
/// decimals, no trailing zeros, no negative zero (so 2, 2.0 and 2.00001 all give "2").
enum ProcessorIdentifier {
  static func make(_ name: String, version: Int, _ parameters: KeyValuePairs<String, String>) -> String {
    let body = parameters.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
    return "imago.\(name).v\(version)(\(body))"
  }

  static func number(_ value: Double) -> String {
    guard value.isFinite else { return value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf") }
    let rounded = (value * 10_000).rounded() / 10_000
    if rounded == 0 { return "0" }
    if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int(rounded)) }
    var text = String(Int((abs(rounded) * 10_000).rounded()))
    while text.count < 5 { text = "0" + text }
    let integer = text.dropLast(4)
    var fraction = String(text.suffix(4))
    while fraction.hasSuffix("0") { fraction.removeLast() }
    return (rounded < 0 ? "-" : "") + integer + "." + fraction
  }

  static func colour(_ colour: RGBAColor) -> String { colour.description }
}
