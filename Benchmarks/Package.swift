// swift-tools-version: 6.0
// The benchmark harness: its own package, so that users of Imago never pull its dependencies.
// Run everything with `bash Benchmarks/run` from the repository root.
import PackageDescription

let package = Package(
  name: "ImagoBenchmarks",
  dependencies: [
    .package(name: "Imago", path: "..")
  ],
  targets: [
    .executableTarget(
      name: "ImagoBench",
      dependencies: [.product(name: "Imago", package: "Imago")]
    )
  ],
  swiftLanguageModes: [.v6]
)
