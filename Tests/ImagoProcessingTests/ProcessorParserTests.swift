import Imago
import Testing

@Suite struct ProcessorParserTests {
  @Test(arguments: [
    ("resize=400x300,fill", ImageProcessors.Resize(width: 400, height: 300, mode: .fill()).identifier),
    ("resize=400x", ImageProcessors.Resize(width: 400).identifier),
    ("resize=x300", ImageProcessors.Resize(height: 300).identifier),
    ("resize=400", ImageProcessors.Resize(width: 400).identifier),
    (
      "resize=400x300,fill,top-left,mitchell,upscale",
      ImageProcessors.Resize(width: 400, height: 300, mode: .fill(.topLeft), filter: .mitchell, allowsUpscaling: true)
        .identifier
    ),
    ("resize=10x10,stretch", ImageProcessors.Resize(width: 10, height: 10, mode: .stretch).identifier),
    ("blur=2", ImageProcessors.GaussianBlur(sigma: 2).identifier),
    ("round=12", ImageProcessors.RoundCorner(radius: 12).identifier),
    ("round=12,tl+br", ImageProcessors.RoundCorner(radius: 12, corners: [.topLeft, .bottomRight]).identifier),
    ("grayscale", ImageProcessors.Grayscale().identifier),
    ("crop=1,2,3,4", ImageProcessors.Crop(x: 1, y: 2, width: 3, height: 4).identifier),
    ("crop=30x20,bottom", ImageProcessors.Crop(width: 30, height: 20, anchor: .bottom).identifier),
    (
      "tint=#ff000080,0.5",
      ImageProcessors.Tint(colour: RGBAColor(red: 255, green: 0, blue: 0, alpha: 128), fraction: 0.5).identifier
    ),
    ("tint=#f00,1", ImageProcessors.Tint(colour: RGBAColor(red: 255, green: 0, blue: 0), fraction: 1).identifier),
    ("controls=0.1,1.2,0.5", ImageProcessors.ColorControls(brightness: 0.1, contrast: 1.2, saturation: 0.5).identifier),
    ("saturation=0", ImageProcessors.ColorControls(saturation: 0).identifier),
    ("sharpen", ImageProcessors.Sharpen().identifier),
    ("sharpen=0.5,2,3", ImageProcessors.Sharpen(amount: 0.5, sigma: 2, threshold: 3).identifier),
    ("border=3,white", ImageProcessors.Border(width: 3, colour: .white).identifier),
    ("rotate=270", ImageProcessors.Rotate(.degrees270).identifier),
    ("flip=v", ImageProcessors.Flip(.vertical).identifier),
    ("orient=6", ImageProcessors.Orientation(.right).identifier),
    ("downsample=200x100", DownsamplingImageProcessor(size: PixelSize(width: 200, height: 100)).identifier),
    (" Blur = 2 ", ImageProcessors.GaussianBlur(sigma: 2).identifier),
  ])
  func parsesValidOperations(text: String, identifier: String) throws {
    #expect(try ProcessorParser.parse(text).identifier == identifier)
  }

  @Test(arguments: [
    ("blurr=2", "unknown operation 'blurr'"),
    ("blur", "blur takes 1 argument, got 0"),
    ("blur=abc", "sigma must be a number, not 'abc'"),
    ("blur=-1", "blur sigma must be in 0...1000"),
    ("resize=0x10", "width must be a positive whole number, not '0'"),
    ("resize=axb", "width must be a positive whole number"),
    ("resize=x", "size needs a width or a height"),
    ("resize=10x10,sideways", "unknown resize option 'sideways'"),
    ("resize=10x10,top", "an anchor (top) goes after 'fill'"),
    ("rotate=45", "rotate takes 90, 180 or 270"),
    ("flip=d", "flip takes h or v"),
    ("tint=red,0.5", "colour must be"),
    ("tint=#ff0000,2", "tint fraction must be in 0...1"),
    ("round=5,middle", "unknown corner 'middle'"),
    ("crop=10x", "size must give both sides"),
    ("orient=9", "orient takes an EXIF orientation 1...8"),
    ("", "empty operation"),
    ("grayscale=1", "grayscale takes 0 arguments, got 1"),
  ])
  func rejectsMalformedOperationsNamingTheProblem(text: String, problem: String) {
    #expect {
      try ProcessorParser.parse(text)
    } throws: { error in
      guard case ImagoError.invalidArgument(let message) = error else { return false }
      return message.hasPrefix("op '\(text)': ") && message.contains(problem)
    }
  }

  @Test func everyListedOperationParses() throws {
    let examples = [
      "resize": "resize=10x10", "crop": "crop=5x5", "round": "round=2", "blur": "blur=1", "sharpen": "sharpen",
      "tint": "tint=#000,0.1", "controls": "controls=0,1,1", "brightness": "brightness=0.1", "contrast": "contrast=2",
      "saturation": "saturation=2", "grayscale": "grayscale", "border": "border=1", "rotate": "rotate=90",
      "flip": "flip=h", "orient": "orient=3", "downsample": "downsample=4x4",
    ]
    #expect(Set(ProcessorParser.operations.map(\.name)) == Set(examples.keys))
    for (_, example) in examples { _ = try ProcessorParser.parse(example) }
  }
}
