import Foundation
import KilnExport
import KilnMedia
import KilnModel
import KilnRaster
import KilnScene

#if canImport(Glibc)
    import Glibc
#endif

/// kiln-bench: the numbers of docs/performance.md, measured in one run so they compare as ratios.
/// Medians over `--frames` frames (after one warm-up frame) for every row. Each group of rows is
/// measured by a function of its own (RenderBenchmarks.swift, BlurBenchmarks.swift, …), in the
/// order the table shows them; this file holds what they share.

MediaLibraries.setLogLevel(.error)
BenchChild.runIfAsked(Array(CommandLine.arguments.dropFirst()))
let options = BenchOptions(Array(CommandLine.arguments.dropFirst()))
let cores = ProcessInfo.processInfo.activeProcessorCount
if let jobs = options.jobs {
    printJobReport(
        measureJobs(jobs, seconds: options.seconds, repeats: options.repeats), json: options.json)
    exit(0)
}
let width = options.width, height = options.height, pixels = width * height
let canvas = Canvas(width: width, height: height)
let layers = [benchLayer()]
let fps = 30.0
var rows: [Row] = []

/// Whether any of these rows is to be measured (`--only`).
func wants(_ names: String...) -> Bool {
    guard let only = options.only else { return true }
    return names.contains { $0.lowercased().contains(only) }
}

/// The YUV frame every "→ YUV" row renders into.
let frame = YUV420Frame(width: width, height: height)
/// The mesh gradient rendered once, as bytes and as premultiplied floats: the input of the
/// conversion, blur and effect rows.
let single = SceneRenderer(layers: layers, camera: nil, canvas: canvas, threads: 1)
let rgba = RGBA8Frame(width: width, height: height)
single.render(at: 1.0, yuv: nil, rgba: rgba)
let unblurred = PlanarBand(width: width, rows: height)
for y in 0..<height {
    for x in 0..<width {
        let p = rgba.pixel(x: x, y: y)
        let i = y * unblurred.stride + x
        (unblurred.r[i], unblurred.g[i], unblurred.b[i], unblurred.a[i]) = (
            Float(p[0]) / 255, Float(p[1]) / 255, Float(p[2]) / 255, 1
        )
    }
}
let frameName = (width, height) == (1920, 1080) ? "1080p frame" : "\(width)×\(height) frame"

measureRendering()
measureConversion()
measureBlur()
measureShadows()
measureEffects()
measureWarpedCover()
measurePaths()
measureSymbolPaths()
measureTranscript()
measureEncoding()
let assemblyLines = measureAssembly()
measureSplitExport()
printReport()
