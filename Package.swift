// swift-tools-version: 6.0
import PackageDescription

// Layering (see docs/architecture.md): KilnModel and KilnRaster know nothing of each other or of C;
// KilnScene joins them; KilnMedia is the only Swift module that imports CFFmpeg and KilnText the only
// one that imports the text libraries (FreeType, HarfBuzz, fontconfig, libunibreak); KilnExport drives
// the frame pipeline; the two executables only parse arguments and print. KilnTestSupport is test
// code shared by the test targets (decode-back of written videos, MP4 box walking, SplitMix, scratch
// directories): only test targets depend on it, no product or executable does, so none of it ships.
// It reads videos back through FFmpeg itself, so it is the one module besides KilnMedia that imports
// CFFmpeg; it uses KilnMedia's `package` helpers (error checks, swscale) rather than copies of them.
// KilnSymbols (symbol SVG files → vector paths, the shipped set embedded) is the only module that
// imports CLibXML2; it builds on KilnRaster's vector types and KilnModel's symbol layer facts.
// KilnStudio (`kiln studio`'s HTTP server and page) is the only module that imports CMicroHTTPD.
// KilnMedia also imports CEBUR128 (libebur128), the loudness meter of the soundtrack mix.
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
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(
            name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(name: "CEBUR128", pkgConfig: "libebur128", providers: [.apt(["libebur128-dev"])]),
        // OpenSSL's SHA-256: frame digests (KilnExport), stable across hosts and runs.
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        // Header only: static inline wrappers of CPU intrinsics Swift cannot import directly.
        .systemLibrary(name: "CKilnIntrinsics"),
        .target(name: "KilnModel", swiftSettings: strict),
        // Declarative command descriptions: parsing, help, completion scripts, the man page.
        .target(name: "KilnCommandLine", swiftSettings: strict),
        .target(name: "KilnRaster", dependencies: ["CKilnIntrinsics"], swiftSettings: strict),
        .target(
            name: "KilnText",
            dependencies: ["CFreeType", "CHarfBuzz", "CFontconfig", "CUnibreak", "KilnRaster"],
            swiftSettings: strict),
        .target(
            name: "KilnScene", dependencies: ["KilnModel", "KilnRaster", "KilnText", "KilnSymbols"],
            swiftSettings: strict),
        .target(name: "KilnMedia", dependencies: ["CFFmpeg", "CEBUR128"], swiftSettings: strict),
        .target(
            name: "KilnSymbols", dependencies: ["CLibXML2", "KilnRaster", "KilnModel"], swiftSettings: strict),
        .target(name: "KilnQueue", dependencies: ["CSQLite", "CLibPQ"], swiftSettings: strict),
        .target(
            name: "KilnExport",
            dependencies: ["CCrypto", "KilnModel", "KilnRaster", "KilnScene", "KilnMedia", "KilnText"],
            swiftSettings: strict),
        // `kiln studio`: the local preview server (libmicrohttpd) and its page.
        .target(
            name: "KilnStudio",
            dependencies: ["CMicroHTTPD", "KilnExport", "KilnModel", "KilnMedia", "KilnRaster"],
            swiftSettings: strict),
        .target(
            name: "KilnWorker", dependencies: ["KilnQueue", "KilnExport", "KilnModel"], swiftSettings: strict),
        .executableTarget(
            name: "kiln",
            dependencies: [
                "KilnCommandLine", "KilnExport", "KilnScene", "KilnMedia", "KilnModel", "KilnQueue",
                "KilnRaster",
                "KilnWorker", "KilnSymbols", "KilnStudio",
            ],
            swiftSettings: strict),
        .executableTarget(
            name: "kiln-bench",
            dependencies: [
                "KilnCommandLine", "KilnExport", "KilnScene", "KilnRaster", "KilnMedia", "KilnModel",
                "KilnText", "KilnSymbols",
            ],
            swiftSettings: strict),
        // Fuzz targets: a corpus replayer in this build, libFuzzer harnesses in scripts/fuzz.sh's.
        .executableTarget(
            name: "kiln-fuzz",
            dependencies: ["KilnExport", "KilnMedia", "KilnModel", "KilnQueue", "KilnSymbols"],
            swiftSettings: strict),
        .target(
            name: "KilnTestSupport", dependencies: ["CFFmpeg", "KilnMedia", "KilnRaster"],
            swiftSettings: strict),
        .testTarget(
            name: "KilnCommandLineTests", dependencies: ["KilnCommandLine", "KilnTestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "KilnModelTests", dependencies: ["KilnModel", "KilnTestSupport"], swiftSettings: strict),
        .testTarget(
            name: "KilnRasterTests", dependencies: ["KilnRaster", "KilnTestSupport"], swiftSettings: strict),
        .testTarget(
            name: "KilnTextTests", dependencies: ["KilnText", "KilnSymbols", "KilnTestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "KilnSceneTests",
            dependencies: ["KilnScene", "KilnMedia", "KilnExport", "KilnTestSupport"],
            exclude: ["Goldens", "Fixtures"],
            swiftSettings: strict),
        .testTarget(
            name: "KilnSymbolsTests", dependencies: ["KilnSymbols", "KilnTestSupport"],
            exclude: ["Fixtures"],
            swiftSettings: strict),
        .testTarget(
            name: "KilnMediaTests", dependencies: ["KilnMedia", "KilnTestSupport"], swiftSettings: strict),
        .testTarget(
            name: "KilnQueueTests", dependencies: ["KilnQueue", "KilnTestSupport"], swiftSettings: strict),
        .testTarget(
            name: "KilnWorkerTests",
            dependencies: ["KilnWorker", "KilnQueue", "KilnMedia", "KilnTestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "KilnExportTests", dependencies: ["KilnExport", "KilnTestSupport"], swiftSettings: strict),
        .testTarget(
            name: "KilnCLITests", dependencies: ["KilnMedia", "KilnQueue", "KilnTestSupport"],
            exclude: ["Fixtures"],
            swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)
