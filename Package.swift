// swift-tools-version: 6.0
import PackageDescription

// Layering (see docs/architecture.md): KilnModel and KilnRaster know nothing of each other or of C;
// KilnScene joins them; KilnMedia is the only Swift module that imports CFFmpeg and KilnText the only
// one that imports the text libraries (FreeType, HarfBuzz, fontconfig, libunibreak); KilnExport drives
// the frame pipeline; the two executables only parse arguments and print.
let strict: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny")]

let package = Package(
    name: "Kiln",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "kiln", targets: ["kiln"]),
        .executable(name: "kiln-bench", targets: ["kiln-bench"]),
    ],
    targets: [
        .systemLibrary(
            name: "CFFmpeg",
            pkgConfig: "libavformat",
            providers: [
                .apt([
                    "libavcodec-dev", "libavformat-dev", "libavutil-dev", "libswscale-dev",
                    "libswresample-dev",
                ])
            ]
        ),
        .systemLibrary(name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),
        .systemLibrary(name: "CHarfBuzz", pkgConfig: "harfbuzz", providers: [.apt(["libharfbuzz-dev"])]),
        .systemLibrary(
            name: "CFontconfig", pkgConfig: "fontconfig", providers: [.apt(["libfontconfig-dev"])]),
        // Debian's libunibreak ships no pkg-config file; its header and library are on the default paths.
        .systemLibrary(name: "CUnibreak", providers: [.apt(["libunibreak-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .target(name: "KilnModel", swiftSettings: strict),
        // Declarative command descriptions: parsing, help, completion scripts, the man page.
        .target(name: "KilnCommandLine", swiftSettings: strict),
        .target(name: "KilnRaster", swiftSettings: strict),
        .target(
            name: "KilnText",
            dependencies: ["CFreeType", "CHarfBuzz", "CFontconfig", "CUnibreak", "KilnRaster"],
            swiftSettings: strict),
        .target(
            name: "KilnScene", dependencies: ["KilnModel", "KilnRaster", "KilnText"], swiftSettings: strict),
        .target(name: "KilnMedia", dependencies: ["CFFmpeg"], swiftSettings: strict),
        .target(name: "KilnQueue", dependencies: ["CSQLite", "CLibPQ"], swiftSettings: strict),
        .target(
            name: "KilnExport", dependencies: ["KilnModel", "KilnRaster", "KilnScene", "KilnMedia"],
            swiftSettings: strict),
        .target(
            name: "KilnWorker", dependencies: ["KilnQueue", "KilnExport", "KilnModel"], swiftSettings: strict),
        .executableTarget(
            name: "kiln",
            dependencies: [
                "KilnCommandLine", "KilnExport", "KilnScene", "KilnMedia", "KilnModel", "KilnQueue",
                "KilnWorker",
            ],
            swiftSettings: strict),
        .executableTarget(
            name: "kiln-bench",
            dependencies: [
                "KilnCommandLine", "KilnExport", "KilnScene", "KilnRaster", "KilnMedia", "KilnModel",
            ],
            swiftSettings: strict),
        // Fuzz targets: a corpus replayer in this build, libFuzzer harnesses in scripts/fuzz.sh's.
        .executableTarget(
            name: "kiln-fuzz", dependencies: ["KilnExport", "KilnMedia", "KilnModel", "KilnQueue"],
            swiftSettings: strict),
        .testTarget(name: "KilnCommandLineTests", dependencies: ["KilnCommandLine"], swiftSettings: strict),
        .testTarget(name: "KilnModelTests", dependencies: ["KilnModel"], swiftSettings: strict),
        .testTarget(name: "KilnRasterTests", dependencies: ["KilnRaster"], swiftSettings: strict),
        .testTarget(name: "KilnTextTests", dependencies: ["KilnText"], swiftSettings: strict),
        .testTarget(
            name: "KilnSceneTests", dependencies: ["KilnScene", "KilnMedia", "KilnExport"],
            exclude: ["Goldens", "Fixtures"],
            swiftSettings: strict),
        .testTarget(name: "KilnMediaTests", dependencies: ["KilnMedia"], swiftSettings: strict),
        .testTarget(name: "KilnQueueTests", dependencies: ["KilnQueue"], swiftSettings: strict),
        .testTarget(
            name: "KilnWorkerTests", dependencies: ["KilnWorker", "KilnQueue", "KilnMedia"],
            swiftSettings: strict),
        .testTarget(name: "KilnExportTests", dependencies: ["KilnExport"], swiftSettings: strict),
        .testTarget(
            name: "KilnCLITests", dependencies: ["KilnMedia", "KilnQueue"], exclude: ["Fixtures"],
            swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)
