/// Parses processor operations written as text, as `imgcli --op` takes them:
/// `name` or `name=arg,arg,...`.
///
/// ```swift
/// let chain = try ProcessorParser.parseChain(["resize=400x300,fill", "blur=2", "round=12", "grayscale"])
/// ```
public enum ProcessorParser {
  /// One operation's name, syntax and meaning, for help output.
  public struct Operation: Sendable {
    public let name: String
    public let syntax: String
    public let summary: String
  }

  /// Every operation the parser knows.
  public static let operations: [Operation] = [
    Operation(
      name: "resize", syntax: "resize=W[xH][,fit|fill|stretch][,ANCHOR][,FILTER][,upscale]",
      summary: "Resize; W or H may be left out (400x, x300). Default fit, lanczos3, never enlarges."),
    Operation(
      name: "crop", syntax: "crop=X,Y,W,H | crop=WxH[,ANCHOR]",
      summary: "Cut out a rectangle, by position or by anchor (default center)."),
    Operation(
      name: "round", syntax: "round=RADIUS[,CORNERS]",
      summary: "Round corners (all, or tl+tr+bl+br); the output gets alpha."),
    Operation(name: "blur", syntax: "blur=SIGMA", summary: "Gaussian blur, sigma in pixels (0...1000)."),
    Operation(
      name: "sharpen", syntax: "sharpen[=AMOUNT[,SIGMA[,THRESHOLD]]]",
      summary: "Unsharp mask; defaults 1, 1, 0."),
    Operation(
      name: "tint", syntax: "tint=COLOUR,FRACTION", summary: "Blend toward a colour by a fraction (0...1)."),
    Operation(
      name: "controls", syntax: "controls=BRIGHTNESS,CONTRAST,SATURATION",
      summary: "Saturation (0...4), then brightness (-1...1), then contrast (0...4); 0,1,1 keeps."),
    Operation(name: "brightness", syntax: "brightness=B", summary: "Add B*255 (-1...1)."),
    Operation(name: "contrast", syntax: "contrast=C", summary: "Scale around mid-gray (0...4, 1 keeps)."),
    Operation(name: "saturation", syntax: "saturation=S", summary: "0 is gray, 1 keeps, up to 4."),
    Operation(name: "grayscale", syntax: "grayscale", summary: "Convert to gray, keeping alpha."),
    Operation(
      name: "border", syntax: "border=WIDTH[,COLOUR]", summary: "A border inside the image (default black)."),
    Operation(name: "rotate", syntax: "rotate=90|180|270", summary: "Rotate clockwise."),
    Operation(name: "flip", syntax: "flip=h|v", summary: "Mirror horizontally or vertically."),
    Operation(name: "orient", syntax: "orient=1..8", summary: "Apply an EXIF orientation value."),
    Operation(
      name: "downsample", syntax: "downsample=WxH",
      summary: "Decode at a reduced size covering WxH (first in the chain only)."),
  ]

  /// ANCHOR: center, top, bottom, left, right, top-left, top-right, bottom-left, bottom-right, or X:Y.
  /// COLOUR: #rgb, #rrggbb, #rrggbbaa, white, black or transparent.
  /// FILTER: nearest, bilinear, catmullRom, mitchell, lanczos3.
  public static let valueHelp = """
    ANCHOR: center, top, bottom, left, right, top-left, top-right, bottom-left, bottom-right, or X:Y (0...1)
    COLOUR: #rgb, #rrggbb, #rrggbbaa, white, black, transparent
    FILTER: nearest, bilinear, catmullRom, mitchell, lanczos3
    """

  /// Parses a chain of operations, in order.
  public static func parseChain(_ operations: [String]) throws(ImagoError) -> ImageProcessorChain {
    var processors: [any ImageProcessing] = []
    for operation in operations { processors.append(try parse(operation)) }
    return ImageProcessorChain(processors)
  }

  /// Parses one operation; the error names the operation and what is wrong with it.
  public static func parse(_ text: String) throws(ImagoError) -> any ImageProcessing {
    let trimmed = text.trimmingWhitespace()
    let name: String
    let arguments: [String]
    if let equals = trimmed.firstIndex(of: "=") {
      name = String(trimmed[..<equals]).trimmingWhitespace().lowercased()
      arguments = trimmed[trimmed.index(after: equals)...].split(separator: ",", omittingEmptySubsequences: false)
        .map { String($0).trimmingWhitespace() }
    } else {
      name = trimmed.lowercased()
      arguments = []
    }
    let processor: any ImageProcessing
    do throws(ParseProblem) {
      processor = try build(name: name, arguments)
    } catch {
      throw .invalidArgument("op '\(text)': \(error.message)")
    }
    do throws(ImagoError) {
      try (processor as? any PixelProcessor)?.validate()
    } catch {
      guard case .invalidArgument(let message) = error else { throw error }
      throw .invalidArgument("op '\(text)': \(message)")
    }
    return processor
  }

  struct ParseProblem: Error {
    let message: String
    init(_ message: String) { self.message = message }
  }

  private static func build(name: String, _ args: [String]) throws(ParseProblem) -> any ImageProcessing {
    func count(_ allowed: ClosedRange<Int>) throws(ParseProblem) {
      guard allowed.contains(args.count) else {
        let expected =
          allowed.lowerBound == allowed.upperBound
          ? "\(allowed.lowerBound)" : "\(allowed.lowerBound) to \(allowed.upperBound)"
        throw ParseProblem("\(name) takes \(expected) argument\(allowed.upperBound == 1 ? "" : "s"), got \(args.count)")
      }
    }
    switch name {
    case "resize":
      try count(1...5)
      let (width, height) = try size(args[0], allowingMissingSide: true)
      var resize = ImageProcessors.Resize(width: width, height: height)
      for option in args.dropFirst() {
        switch option.lowercased() {
        case "fit": resize.mode = .fit
        case "fill": resize.mode = .fill(.center)
        case "stretch": resize.mode = .stretch
        case "upscale": resize.allowsUpscaling = true
        default:
          if let filter = ResamplingFilter.allCases.first(where: { $0.rawValue.lowercased() == option.lowercased() }) {
            resize.filter = filter
          } else if let anchor = try? anchor(option) {
            guard case .fill = resize.mode else { throw ParseProblem("an anchor (\(option)) goes after 'fill'") }
            resize.mode = .fill(anchor)
          } else {
            throw ParseProblem("unknown resize option '\(option)'")
          }
        }
      }
      return resize
    case "crop":
      if args.count == 4 {
        return ImageProcessors.Crop(
          x: try integer(args[0], "x"), y: try integer(args[1], "y"), width: try integer(args[2], "width"),
          height: try integer(args[3], "height"))
      }
      try count(1...2)
      let (width, height) = try size(args[0], allowingMissingSide: false)
      return ImageProcessors.Crop(
        width: width!, height: height!, anchor: args.count == 2 ? try anchor(args[1]) : .center)
    case "round":
      try count(1...2)
      return ImageProcessors.RoundCorner(
        radius: try number(args[0], "radius"), corners: args.count == 2 ? try corners(args[1]) : .all)
    case "blur":
      try count(1...1)
      return ImageProcessors.GaussianBlur(sigma: try number(args[0], "sigma"))
    case "sharpen":
      try count(0...3)
      return ImageProcessors.Sharpen(
        amount: args.count > 0 ? try number(args[0], "amount") : 1,
        sigma: args.count > 1 ? try number(args[1], "sigma") : 1,
        threshold: args.count > 2 ? try number(args[2], "threshold") : 0)
    case "tint":
      try count(2...2)
      return ImageProcessors.Tint(colour: try colour(args[0]), fraction: try number(args[1], "fraction"))
    case "controls":
      try count(3...3)
      return ImageProcessors.ColorControls(
        brightness: try number(args[0], "brightness"), contrast: try number(args[1], "contrast"),
        saturation: try number(args[2], "saturation"))
    case "brightness":
      try count(1...1)
      return ImageProcessors.ColorControls(brightness: try number(args[0], "brightness"))
    case "contrast":
      try count(1...1)
      return ImageProcessors.ColorControls(contrast: try number(args[0], "contrast"))
    case "saturation":
      try count(1...1)
      return ImageProcessors.ColorControls(saturation: try number(args[0], "saturation"))
    case "grayscale", "greyscale", "gray", "grey":
      try count(0...0)
      return ImageProcessors.Grayscale()
    case "border":
      try count(1...2)
      return ImageProcessors.Border(
        width: try integer(args[0], "width"), colour: args.count == 2 ? try colour(args[1]) : .black)
    case "rotate":
      try count(1...1)
      guard let degrees = Int(args[0]), let angle = ImageProcessors.Rotate.Angle(rawValue: degrees) else {
        throw ParseProblem("rotate takes 90, 180 or 270, not '\(args[0])'")
      }
      return ImageProcessors.Rotate(angle)
    case "flip":
      try count(1...1)
      switch args[0].lowercased() {
      case "h", "horizontal": return ImageProcessors.Flip(.horizontal)
      case "v", "vertical": return ImageProcessors.Flip(.vertical)
      default: throw ParseProblem("flip takes h or v, not '\(args[0])'")
      }
    case "orient", "orientation":
      try count(1...1)
      guard let value = Int(args[0]), let orientation = ImageOrientation(rawValue: value) else {
        throw ParseProblem("orient takes an EXIF orientation 1...8, not '\(args[0])'")
      }
      return ImageProcessors.Orientation(orientation)
    case "downsample":
      try count(1...1)
      let (width, height) = try size(args[0], allowingMissingSide: false)
      return DownsamplingImageProcessor(size: PixelSize(width: width!, height: height!))
    case "":
      throw ParseProblem("empty operation")
    default:
      throw ParseProblem("unknown operation '\(name)' (imgcli ops lists them)")
    }
  }

  private static func integer(_ text: String, _ what: String) throws(ParseProblem) -> Int {
    guard let value = Int(text) else { throw ParseProblem("\(what) must be a whole number, not '\(text)'") }
    return value
  }

  private static func number(_ text: String, _ what: String) throws(ParseProblem) -> Double {
    guard let value = Double(text), value.isFinite else {
      throw ParseProblem("\(what) must be a number, not '\(text)'")
    }
    return value
  }

  /// `WxH`, `W`, `Wx`, `xH` (the last three only when a side may be missing).
  private static func size(_ text: String, allowingMissingSide: Bool) throws(ParseProblem) -> (Int?, Int?) {
    let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false).map(String.init)
    guard (1...2).contains(parts.count) else { throw ParseProblem("size must look like WxH, not '\(text)'") }
    func side(_ part: String, _ what: String) throws(ParseProblem) -> Int? {
      if part.isEmpty { return nil }
      guard let value = Int(part), value > 0, value <= 1_000_000 else {
        throw ParseProblem("\(what) must be a positive whole number, not '\(part)'")
      }
      return value
    }
    let width = try side(parts[0], "width")
    let height = parts.count == 2 ? try side(parts[1], "height") : nil
    guard width != nil || height != nil else { throw ParseProblem("size needs a width or a height, not '\(text)'") }
    if !allowingMissingSide && (width == nil || height == nil) {
      throw ParseProblem("size must give both sides as WxH, not '\(text)'")
    }
    return (width, height)
  }

  static func anchor(_ text: String) throws(ParseProblem) -> Anchor {
    guard let anchor = Anchor(text: text) else { throw ParseProblem("unknown anchor '\(text)'") }
    return anchor
  }

  private static func corners(_ text: String) throws(ParseProblem) -> ImageProcessors.RoundCorner.Corners {
    if text.lowercased() == "all" { return .all }
    var corners: ImageProcessors.RoundCorner.Corners = []
    for part in text.lowercased().split(separator: "+") {
      switch part {
      case "tl": corners.insert(.topLeft)
      case "tr": corners.insert(.topRight)
      case "bl": corners.insert(.bottomLeft)
      case "br": corners.insert(.bottomRight)
      default: throw ParseProblem("unknown corner '\(part)' (use all, or tl+tr+bl+br)")
      }
    }
    guard !corners.isEmpty else { throw ParseProblem("no corners in '\(text)'") }
    return corners
  }

  static func colour(_ text: String) throws(ParseProblem) -> RGBAColor {
    guard let colour = RGBAColor(text: text) else {
      throw ParseProblem("colour must be #rgb, #rrggbb, #rrggbbaa or white, black, transparent; not '\(text)'")
    }
    return colour
  }
}

extension String {
  func trimmingWhitespace() -> String {
    var scalars = Substring(self)
    while scalars.first?.isWhitespace == true { scalars.removeFirst() }
    while scalars.last?.isWhitespace == true { scalars.removeLast() }
    return String(scalars)
  }
}
