// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "Imago",
  products: [
    .library(name: "Imago", targets: ["Imago"]),
    .executable(name: "imgcli", targets: ["imgcli"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    .package(url: "https://github.com/apple/swift-crypto", "3.12.0"..<"5.0.0"),
  ],
  targets: [
    .systemLibrary(
      name: "CImagoJPEG",
      pkgConfig: "libjpeg",
      providers: [.apt(["libjpeg-dev"]), .brew(["jpeg-turbo"])]
    ),
    .systemLibrary(
      name: "CImagoPNG",
      pkgConfig: "libpng",
      providers: [.apt(["libpng-dev"]), .brew(["libpng"])]
    ),
    .systemLibrary(
      name: "CImagoWebP",
      pkgConfig: "libwebpdemux",
      providers: [.apt(["libwebp-dev"]), .brew(["webp"])]
    ),
    .target(
      name: "CImagoShims",
      dependencies: ["CImagoJPEG", "CImagoPNG"],
      linkerSettings: [.linkedLibrary("z")]
    ),
    .target(
      name: "Imago",
      dependencies: [
        "CImagoShims", "CImagoWebP",
        .product(name: "Crypto", package: "swift-crypto"),
      ]
    ),
    .executableTarget(
      name: "imgcli",
      dependencies: [
        "Imago",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .target(
      name: "TestSupport",
      dependencies: ["Imago"],
      path: "Tests/TestSupport"
    ),
    .testTarget(
      name: "ImagoCodecTests",
      dependencies: ["Imago", "TestSupport"]
    ),
    .testTarget(
      name: "ImagoProcessingTests",
      dependencies: ["Imago", "TestSupport"]
    ),
    .executableTarget(
      name: "CacheWriter",
      dependencies: ["Imago", "TestSupport"],
      path: "Tests/CacheWriter"
    ),
    .testTarget(
      name: "ImagoCacheTests",
      dependencies: ["Imago", "TestSupport", "CacheWriter"]
    ),
    .testTarget(
      name: "ImagoLoadingTests",
      dependencies: ["Imago", "TestSupport"]
    ),
    .testTarget(
      name: "ImgcliTests",
      dependencies: ["Imago", "imgcli", "TestSupport"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
