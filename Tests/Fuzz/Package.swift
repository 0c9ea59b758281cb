// swift-tools-version: 6.0
// libFuzzer targets for Imago: its own package, built with -sanitize=fuzzer,address by
// `bash Tests/Fuzz/run-fuzzers SECONDS`. Not part of the main build or test run.
import PackageDescription

let package = Package(
  name: "ImagoFuzz",
  dependencies: [.package(name: "Imago", path: "../..")],
  targets: [
    .executableTarget(
      name: "ImagoFuzz",
      dependencies: [.product(name: "Imago", package: "Imago")],
      swiftSettings: [.unsafeFlags(["-parse-as-library"])]
    )
  ],
  swiftLanguageModes: [.v6]
)
