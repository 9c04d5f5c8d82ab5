// swift-tools-version:5.9
// The GraphMind and Graphorin bindings for Swift (uniffi, from the wirecontract crate), for
// SwiftPM by URL:
//     .package(url: "https://github.com/wirecontract/wirecontract", from: "0.1.0")
// with the products WirecontractGraphmind and WirecontractGraphorin.
//
// The native library comes as the release asset WirecontractFFI.xcframework.zip (static
// libraries for macOS arm64/x86_64, iOS arm64 and the iOS simulator, both uniffi C headers and
// one module map). `bindings/uniffi/swift/build-xcframework.sh --release VERSION` builds it, zips
// it and writes `ffiVersion` and `ffiChecksum` below; upload the zip to the release VERSION.
// Every path here is committed: the Swift sources are bindings/uniffi/swift/Sources (symlinks
// to generated/swift and generated/swift-ext, plus the hand-written session host).
// To work on the bindings against a local build, use bindings/uniffi/swift/Package.swift.
import PackageDescription

let ffiVersion = "0.1.0"
let ffiChecksum = "0000000000000000000000000000000000000000000000000000000000000000"

let package = Package(
    name: "Wirecontract",
    platforms: [.macOS(.v12), .iOS(.v15)],
    products: [
        .library(name: "WirecontractGraphmind", targets: ["WirecontractGraphmind"]),
        .library(name: "WirecontractGraphorin", targets: ["WirecontractGraphorin"]),
    ],
    targets: [
        .binaryTarget(
            name: "WirecontractFFI",
            url: "https://github.com/wirecontract/wirecontract/releases/download/v\(ffiVersion)/WirecontractFFI.xcframework.zip",
            checksum: ffiChecksum
        ),
        .target(
            name: "WirecontractGraphmind",
            dependencies: ["WirecontractFFI"],
            path: "bindings/uniffi/swift/Sources/WirecontractGraphmind"
        ),
        .target(
            name: "WirecontractGraphorin",
            dependencies: ["WirecontractFFI"],
            path: "bindings/uniffi/swift/Sources/WirecontractGraphorin"
        ),
        .testTarget(
            name: "WirecontractGraphmindTests",
            dependencies: ["WirecontractGraphmind"],
            path: "bindings/uniffi/swift/Tests/WirecontractGraphmindTests"
        ),
        .testTarget(
            name: "WirecontractGraphorinTests",
            dependencies: ["WirecontractGraphorin"],
            path: "bindings/uniffi/swift/Tests/WirecontractGraphorinTests"
        ),
    ]
)
