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
/// Medians over `--frames` frames (after one warm-up frame) for every row.

struct Options {
    var frames = 24
    var width = 1920
    var height = 1080
    var json = false
    var encodeFrames = 24
    /// Only the rows whose names contain this (case-insensitive).
    var only: String?

    init(_ args: [String]) {
        var i = 0
        func value() -> String {
            i += 1
            guard i < args.count else { fail("\(args[i - 1]) needs a value") }
            return args[i]
        }
        while i < args.count {
            switch args[i] {
            case "--json": json = true
            case "--frames": frames = max(3, Int(value()) ?? 24)
            case "--encode-frames": encodeFrames = max(3, Int(value()) ?? 24)
            case "--only": only = value().lowercased()
            case "--size":
                let parts = value().split(separator: "x").compactMap { Int($0) }
                guard parts.count == 2, parts[0] % 2 == 0, parts[1] % 2 == 0 else {
                    fail("--size WxH, even numbers")
                }
                (width, height) = (parts[0], parts[1])
            case "-h", "--help":
                print(
                    """
                    usage: kiln-bench [--frames N] [--encode-frames N] [--size WxH] [--only TEXT] [--json]

                    Measures, at the given size (default 1920x1080), on an animated 3×3 mesh gradient:
                    render ms/frame and ns·core/px with 1 thread and with all threads; float→YUV (Kiln's
                    fused SIMD pass) against RGBA→YUV with libswscale; libx264 encode at veryfast and
                    medium on the same frames (1 encoder thread, so the cost is per core); a Gaussian blur
                    of the whole frame at σ = 3 and σ = 30; pixel effects; the transcript overlay, also on
                    its own (the frame with it minus the frame without it, in the same run); assembling
                    a 10-minute video from ten 60 s segments by stream copy (--only assembly).

                    --only TEXT   measure only the rows whose names contain TEXT (case-insensitive),
                                  e.g. --only transcript, --only "gaussian blur"
                    """)
                exit(0)
            default: fail("unknown option \(args[i])")
            }
            i += 1
        }
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("kiln-bench: error: \(message)\n".utf8))
    exit(64)
}

struct Row {
    let name: String
    let threads: Int
    let msPerFrame: Double
    let pixels: Int
    var nsCorePerPixel: Double { msPerFrame * 1e6 * Double(threads) / Double(pixels) }
}

func median(_ values: [Double]) -> Double {
    let s = values.sorted()
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

func measure(_ count: Int, _ body: (Int) -> Void) -> Double {
    body(0)  // warm-up: caches, lazy allocations
    var times: [Double] = []
    for i in 0..<count {
        let start = DispatchTime.now().uptimeNanoseconds
        body(i + 1)
        times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }
    return median(times)
}

/// The seed mesh gradient (3×3, black/blue/green rows) with its centre point moving.
func benchLayer() -> LayerNode {
    let fixed: [Point2] = [
        .init(x: 0, y: 0), .init(x: 0.5, y: 0), .init(x: 1, y: 0),
        .init(x: 0, y: 0.5), .init(x: 0.9, y: 0.3), .init(x: 1, y: 0.5),
        .init(x: 0, y: 1), .init(x: 0.5, y: 1), .init(x: 1, y: 1),
    ]
    var points = fixed.map { Animated<Point2>.constant($0) }
    points[4] = .keyframes([
        Keyframe(time: 0, value: Point2(x: 0.5, y: 0.5), easing: .linear),
        Keyframe(time: 2, value: Point2(x: 0.9, y: 0.3), easing: .easeInOut),
    ])
    let black = RGBA(r: 0, g: 0, b: 0, a: 1), blue = RGBA(r: 0, g: 0, b: 1, a: 1)
    let green = RGBA(r: 0, g: 1, b: 0, a: 1)
    let colors = [black, black, black, blue, blue, blue, green, green, green].map {
        Animated<RGBA>.constant($0)
    }
    let mesh = MeshGradientLayer(
        columns: 3, rows: 3, points: points, colors: colors, background: .constant(black), smoothsColors: true
    )
    return LayerNode(kind: "meshGradient", name: nil, opacity: .constant(1), content: mesh, path: .root)
}

let options = Options(Array(CommandLine.arguments.dropFirst()))
MediaLibraries.setLogLevel(.error)
let width = options.width, height = options.height, pixels = width * height
let cores = ProcessInfo.processInfo.activeProcessorCount
let canvas = Canvas(width: width, height: height)
let layers = [benchLayer()]
let fps = 30.0
var rows: [Row] = []

/// Whether any of these rows is to be measured (`--only`).
func wants(_ names: String...) -> Bool {
    guard let only = options.only else { return true }
    return names.contains { $0.lowercased().contains(only) }
}

// Render (mesh tessellation + raster + fused dither/YUV), 1 thread and all threads.
let frame = YUV420Frame(width: width, height: height)
for threads in Set([1, cores]).sorted() where wants("render mesh gradient → YUV") {
    let renderer = SceneRenderer(layers: layers, canvas: canvas, threads: threads)
    // As in an export: each frame prepares the next one alongside its bands.
    let ms = measure(options.frames) {
        renderer.render(at: Double($0) / fps, prefetching: Double($0 + 1) / fps, yuv: frame, rgba: nil)
    }
    rows.append(Row(name: "render mesh gradient → YUV", threads: threads, msPerFrame: ms, pixels: pixels))
}

// Six rotated photo cards (jobs/photos, decoded and resized to the card at load), each a group
// clipped to a rounded rectangle, over a solid: the compositing path (image sampling, group
// bands, clip masks, source-over).
if wants("six rotated clipped photo cards") {
    do {
        let photos = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("jobs/photos")
        let names = ["sunset", "ocean", "forest", "dusk", "desert", "aurora"]
        var cards: [String] = []
        for i in 0..<6 {
            let x = 260 + (i % 3) * 700, y = 290 + (i / 3) * 500
            cards.append(
                """
                {"type": "group", "size": [420, 300], "clip": "roundedRect", "cornerRadius": 28,
                 "position": [\(x), \(y)], "rotation": \(i * 7 - 17),
                 "layers": [{"type": "image", "path": "\(photos.appendingPathComponent(names[i] + ".png").path)",
                             "size": [420, 300], "fit": "fill"}]}
                """)
        }
        let text = """
            {"kiln": 1, "output": {"width": \(width), "height": \(height), "fps": 30, "duration": 1},
             "layers": [{"type": "solid", "color": "#0b0a1a"}, \(cards.joined(separator: ","))]}
            """
        let job = try JobFiles.decode(
            bytes: Array(text.utf8), file: "bench-cards.json", baseDirectory: URL(fileURLWithPath: "/"))
        let cardsRenderer = SceneRenderer(layers: job.layers, canvas: canvas, threads: 1)
        let compositeMs = measure(options.frames) { _ in cardsRenderer.render(at: 0, yuv: nil, rgba: nil) }
        rows.append(
            Row(
                name: "six rotated clipped photo cards, composite", threads: 1, msPerFrame: compositeMs,
                pixels: pixels))
        let ms = measure(options.frames) { _ in cardsRenderer.render(at: 0, yuv: frame, rgba: nil) }
        rows.append(
            Row(name: "six rotated clipped photo cards → YUV", threads: 1, msPerFrame: ms, pixels: pixels))
    } catch {
        fail("cards job: \(error)")
    }
}

// The serial part of a frame: evaluating the layer's animated values, tessellating and binning.
if wants("prepare mesh (tessellate + bin)") {
    let meshContent = layers[0].content as! any LayerRendering
    let prepareMs = measure(options.frames) { _ = meshContent.prepare(at: Double($0) / fps, canvas: canvas) }
    rows.append(
        Row(name: "prepare mesh (tessellate + bin)", threads: 1, msPerFrame: prepareMs, pixels: pixels))
}

// Conversion alone, 1 thread: Kiln's fused float→dither→YUV pass against libswscale RGBA→YUV.
// The fused pass runs on a band that is still in cache, as in the pipeline, so it is measured
// band by band over the frame; swscale gets the whole RGBA frame, as it would.
let single = SceneRenderer(layers: layers, canvas: canvas, threads: 1)
let rgba = RGBA8Frame(width: width, height: height)
single.render(at: 1.0, yuv: nil, rgba: rgba)
let bandRows = canvas.bandHeight
let band = PlanarBand(width: width, rows: bandRows)
for row in 0..<bandRows {
    for x in 0..<width {
        let p = rgba.pixel(x: x, y: height / 2 + row)
        let i = row * band.stride + x
        (band.r[i], band.g[i], band.b[i], band.a[i]) = (
            Float(p[0]) / 255, Float(p[1]) / 255, Float(p[2]) / 255, 1
        )
    }
}
let scratch = Quantizer.Scratch(width: width)
func convertFrame(yuv: YUV420Frame?, rgba: RGBA8Frame?) {
    for first in stride(from: 0, to: height - bandRows + 1, by: bandRows) {
        Quantizer.write(band: band, firstRow: first, rows: bandRows, yuv: yuv, rgba: rgba, scratch: scratch)
    }
}
if wants("convert float → YUV (fused SIMD)") {
    let fusedMs = measure(options.frames) { _ in convertFrame(yuv: frame, rgba: nil) }
    rows.append(
        Row(name: "convert float → YUV (fused SIMD)", threads: 1, msPerFrame: fusedMs, pixels: pixels))
}
if wants("convert float → RGBA8 (previews)") {
    let scratchRGBA = RGBA8Frame(width: width, height: height)
    let toRGBAms = measure(options.frames) { _ in convertFrame(yuv: nil, rgba: scratchRGBA) }
    rows.append(
        Row(name: "convert float → RGBA8 (previews)", threads: 1, msPerFrame: toRGBAms, pixels: pixels))
}
if wants("convert RGBA8 → YUV (swscale)") {
    do {
        let sws = try SwscaleConverter(width: width, height: height)
        let swsMs = measure(options.frames) { _ in
            sws.convert(
                rgba: rgba.bytes, rgbaStride: rgba.stride, y: frame.y, yStride: frame.yStride, u: frame.u,
                v: frame.v,
                uvStride: frame.uvStride)
        }
        rows.append(Row(name: "convert RGBA8 → YUV (swscale)", threads: 1, msPerFrame: swsMs, pixels: pixels))
    } catch {
        fail("swscale: \(error)")
    }
}

// Gaussian blur of a whole frame (the rendered mesh gradient as premultiplied floats), in place,
// both phases; 1 thread, and all threads splitting each phase into one part per thread. Each
// measured blur starts from the same unblurred frame, restored untimed, as a renderer's would.
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
let blurFrame = PlanarBand(width: width, rows: height)
let frameName = (width, height) == (1920, 1080) ? "1080p frame" : "\(width)×\(height) frame"
var blurMs: [Double: Double] = [:]
for sigma in [3.0, 30.0] {
    let blur = GaussianBlur(radius: sigma)
    for threads in Set([1, cores]).sorted() where wants("gaussian blur σ=\(Int(sigma)), \(frameName)") {
        let workspace = BlurWorkspace(workers: threads)
        blur.prepare(workspace, rowCount: height, columns: 0..<width)
        var times: [Double] = []
        for i in 0...options.frames {
            for (from, to) in [
                (unblurred.r, blurFrame.r), (unblurred.g, blurFrame.g), (unblurred.b, blurFrame.b),
                (unblurred.a, blurFrame.a),
            ] {
                to.update(from: from, count: unblurred.stride * height)
            }
            let start = DispatchTime.now().uptimeNanoseconds
            DispatchQueue.concurrentPerform(iterations: threads) { part in
                blur.blurRows(
                    blurFrame, rowCount: height, columns: 0..<width, part: part, of: threads, worker: part,
                    workspace: workspace)
            }
            DispatchQueue.concurrentPerform(iterations: threads) { part in
                blur.blurColumns(
                    blurFrame, rowCount: height, columns: 0..<width, part: part, of: threads, worker: part,
                    workspace: workspace)
            }
            // The first run is the warm-up: caches, lazy allocations.
            if i > 0 { times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6) }
        }
        let ms = median(times)
        if threads == 1 { blurMs[sigma] = ms }
        rows.append(
            Row(
                name: "gaussian blur σ=\(Int(sigma)), \(frameName)", threads: threads, msPerFrame: ms,
                pixels: pixels))
    }
}

// Pixel effects over the rendered frame (1 thread, band by band as the renderer paints): the
// ripple with two overlapping waves, and the domain warp (two noise lookups + one layer sample).
do {
    let output = PlanarBand(width: width, rows: canvas.bandHeight)
    let source = PlanarSampler(image: unblurred, rows: 0..<height, columns: 0..<width, edges: .transparent)
    func effectMs(_ stage: any PixelStage) -> Double {
        let pipeline = PixelPipeline(stages: [stage], frameFromLocal: .identity)!
        return measure(options.frames) { _ in
            for first in stride(from: 0, to: height, by: canvas.bandHeight) {
                pipeline.paint(
                    into: output, firstRow: first, rows: min(canvas.bandHeight, height - first),
                    columns: 0..<width,
                    extent: (0..<height, 0..<width), source: source)
            }
        }
    }
    let ripple = Ripple(
        amplitude: 12, frequency: 15, decay: 8, speed: 1200,
        waves: [
            Ripple.Wave(origin: SIMD2(Float(width) * 0.3, Float(height) * 0.4), elapsed: 0.5),
            Ripple.Wave(origin: SIMD2(Float(width) * 0.7, Float(height) * 0.6), elapsed: 0.2),
        ])!
    if wants("ripple, two waves") {
        rows.append(
            Row(name: "ripple, two waves", threads: 1, msPerFrame: effectMs(ripple), pixels: pixels))
    }
    // The worst case: one wave whose front has passed every pixel, and a plain shifted sample
    // (the sampling alone).
    let everywhere = Ripple(
        amplitude: 12, frequency: 15, decay: 8, speed: 1200,
        waves: [Ripple.Wave(origin: SIMD2(Float(width) / 2, Float(height) / 2), elapsed: 5)])!
    if wants("ripple, front past every pixel") {
        rows.append(
            Row(
                name: "ripple, front past every pixel", threads: 1, msPerFrame: effectMs(everywhere),
                pixels: pixels))
    }
    let shift = NoiseWarp(mode: .offset(SIMD2(0.3, 0.2)), size: SIMD2(1, 1), strength: 0, flow: 0)
    if wants("bilinear sample (uniform offset)") {
        rows.append(
            Row(
                name: "bilinear sample (uniform offset)", threads: 1, msPerFrame: effectMs(shift),
                pixels: pixels))
    }
    let warp = NoiseWarp(
        mode: .domainWarp(NoiseTexture.generated(seed: 7, size: 256)),
        size: SIMD2(Float(width), Float(height)),
        strength: 200, flow: 0.25)
    if wants("domain warp (2 lookups + sample)") {
        rows.append(
            Row(
                name: "domain warp (2 lookups + sample)", threads: 1, msPerFrame: effectMs(warp),
                pixels: pixels))
    }
}

// The seed's background: a cover image filling the frame, blurred (radius 30), then domain-warped.
// Also forced to full resolution (the previous path) and onto the 4× grid without its checks, in
// the same run, for the ratios (`Canvas.reducedEvaluation`, see docs/performance.md).
let warpedCoverRows = [
    ("warped cover (image+blur+warp)", ReducedEvaluation.whenSafe),
    ("warped cover (image+blur+warp), full resolution", .off),
    ("warped cover (image+blur+warp), 4× grid forced", .forced(4)),
]
if warpedCoverRows.contains(where: { wants($0.0) }) {
    do {
        let photo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("jobs/photos/dusk.png").path
        let text = """
            {"kiln": 1, "output": {"width": \(width), "height": \(height), "fps": 30, "duration": 1},
             "layers": [{"type": "image", "path": "\(photo)", "size": [\(width), \(height)], "fit": "fill",
                         "effects": [{"blur": 30}, {"backgroundWarp": {"strength": 200, "speed": 0.03, "edges": "clamp"}}]}]}
            """
        let job = try JobFiles.decode(
            bytes: Array(text.utf8), file: "bench-warp.json", baseDirectory: URL(fileURLWithPath: "/"))
        for (name, reduced) in warpedCoverRows where wants(name) {
            let warped = SceneRenderer(
                layers: job.layers, canvas: Canvas(width: width, height: height, reducedEvaluation: reduced),
                threads: 1)
            let ms = measure(options.frames) { warped.render(at: Double($0) / fps, yuv: nil, rgba: nil) }
            rows.append(Row(name: name, threads: 1, msPerFrame: ms, pixels: pixels))
        }
    } catch {
        fail("warp job: \(error)")
    }
}

// The transcript overlay (12 lines in view, steady state: the current line settled, its
// pictures drawn) over a solid, and the seed's podcast picture: warped blurred cover + overlay.
// The overlay's own cost is the frame with it minus the same frame without it, timed
// alternately in the same run (median of the per-frame differences), all through YUV. Over the
// cover that difference drowns in the cover's own spread (±5 ms a frame), so the podcast rows
// give the cover alone and the whole picture only. The mid-scroll row is 0.2 s after a change of
// line: the list springing (lines off whole pixels, sampled bilinearly) and the two lines
// cross-fading.
let transcriptRows = [
    "transcript base: the solid alone → YUV", "transcript overlay, 12 lines → YUV",
    "transcript overlay alone (over solid, minus it)", "podcast cover alone (image+blur+warp) → YUV",
    "podcast picture (cover+warp+overlay) → YUV", "transcript overlay alone, mid-scroll (minus solid)",
    "podcast cover alone, full resolution → YUV", "podcast picture, full resolution → YUV",
    "libx264 veryfast encode, podcast frames",
]
if transcriptRows.contains(where: { wants($0) }) {
    do {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let segments = (0..<24).map {
            #"{"start": \#($0 * 2), "text": "Line \#($0 + 1) of the transcript, long enough to be real."}"#
        }
        let transcript = FileManager.default.temporaryDirectory.appendingPathComponent(
            "kiln-bench-\(getpid()).json")
        try Data(#"{"segments": [\#(segments.joined(separator: ","))]}"#.utf8).write(to: transcript)
        defer { unlink(transcript.path) }
        let overlay = """
            {"type": "transcript", "path": "\(transcript.path)", "position": [160, 0], "anchor": [0, 0],
             "width": 1600, "height": \(height), "fontSize": 54, "spacing": 12}
            """
        let cover = """
            {"type": "image", "path": "\(root.appendingPathComponent("jobs/photos/dusk.png").path)", "size": [\(width), \(height)],
             "fit": "fill", "effects": [{"blur": 30}, {"backgroundWarp": {"strength": 200, "speed": 0.02, "edges": "clamp"}}]}
            """
        func scene(_ layers: String, _ reduced: ReducedEvaluation) throws -> SceneRenderer {
            let text = """
                {"kiln": 1, "output": {"width": \(width), "height": \(height), "fps": 30, "duration": 60},
                 "layers": [\(layers)]}
                """
            let job = try JobFiles.decode(
                bytes: Array(text.utf8), file: "bench-transcript.json",
                baseDirectory: URL(fileURLWithPath: "/"))
            return SceneRenderer(
                layers: job.layers, canvas: Canvas(width: width, height: height, reducedEvaluation: reduced),
                threads: 1)
        }
        let solid = ##"{"type": "solid", "color": "#101018"}"##
        // Rows for the frame without the overlay, with it, and the difference (nil: not shown).
        // The podcast rows (`moving`) advance 1/30 s a frame from the warm-up frame, as a video
        // does: the warp flows, and only what a real render could keep from frame to frame (the
        // still, blurred cover) is kept. The overlay rows time one instant over and over.
        for (names, base, with, at, reduced, moving) in [
            (transcriptRows[0..<3].map { $0 }, solid, solid + ", " + overlay, 13.5, .whenSafe, false),
            (
                [transcriptRows[3], transcriptRows[4], nil], cover, cover + ", " + overlay, 13.5, .whenSafe,
                true
            ),
            ([nil, nil, transcriptRows[5]], solid, solid + ", " + overlay, 12.2, .whenSafe, false),
            ([transcriptRows[6], transcriptRows[7], nil], cover, cover + ", " + overlay, 13.5, .off, true),
        ] as [([String?], String, String, Double, ReducedEvaluation, Bool)]
        where names.contains(where: { $0.map { wants($0) } ?? false }) {
            let without = try scene(base, reduced), withOverlay = try scene(with, reduced)
            // Settled on line 7 at 13.5 s (its pictures drawn by the warm-up frame).
            func time(_ renderer: SceneRenderer, _ n: Int) -> Double {
                let start = DispatchTime.now().uptimeNanoseconds
                renderer.render(at: at + (moving ? Double(n) / 30 : 0), yuv: frame, rgba: nil)
                return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
            }
            _ = (time(without, 0), time(withOverlay, 0))
            var a: [Double] = [], b: [Double] = [], difference: [Double] = []
            for n in 1...options.frames {
                let ta = time(without, n), tb = time(withOverlay, n)
                a.append(ta)
                b.append(tb)
                difference.append(tb - ta)
            }
            for (name, ms) in zip(names, [median(a), median(b), median(difference)]) {
                guard let name, wants(name) else { continue }
                rows.append(Row(name: name, threads: 1, msPerFrame: ms, pixels: pixels))
            }
        }
        // The issue's yardstick: the podcast picture against x264 veryfast on the same frames
        // (smooth, blurred pictures are cheaper to encode than the mesh rows above).
        if wants(transcriptRows[8]) {
            let podcast = try scene(cover + ", " + overlay, .whenSafe)
            let frames = (0..<max(options.encodeFrames, 8)).map { n -> YUV420Frame in
                let f = YUV420Frame(width: width, height: height)
                podcast.render(at: 13.5 + Double(n) / 30, yuv: f, rgba: nil)
                return f
            }
            rows.append(
                Row(
                    name: transcriptRows[8], threads: 1,
                    msPerFrame: x264Milliseconds(frames, preset: "veryfast"),
                    pixels: pixels))
        }
    } catch {
        fail("transcript job: \(error)")
    }
}

// libx264 on the same rendered frames, one encoder thread so the figure is per core.
if wants("libx264 veryfast encode", "libx264 medium encode") {
    let renderer = SceneRenderer(layers: layers, canvas: canvas, threads: cores)
    let encodeInput = (0..<options.encodeFrames).map { n -> YUV420Frame in
        let f = YUV420Frame(width: width, height: height)
        renderer.render(at: Double(n) / fps, yuv: f, rgba: nil)
        return f
    }
    for preset in ["veryfast", "medium"] {
        rows.append(
            Row(
                name: "libx264 \(preset) encode", threads: 1,
                msPerFrame: x264Milliseconds(encodeInput, preset: preset),
                pixels: pixels))
    }
}

// Assembly (issue 7): a 10-minute 1080p video joined from ten 60 s segments by stream copy, with
// and without a 10-minute AAC track encoded alongside. The ten segments are copies of one 60 s
// encode (ultrafast, a bar moving over a flat background: it is only input), whose encoding time
// is shown too, as what re-encoding instead of copying would start from.
var assemblyLines: [(name: String, seconds: Double, realTime: Double, megabytes: Double)] = []
if wants("assembly") {
    final class Tone: AudioSampleSource {
        private var position = 0
        func fill(left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>, count: Int) {
            for i in 0..<count {
                left[i] = Float(
                    0.5 * sin(2 * .pi * 440 * Double(position + i) / Double(AudioFormat.sampleRate)))
                right[i] = left[i]
            }
            position += count
        }
    }
    func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "kiln-bench-assembly-\(getpid())")
    defer { try? FileManager.default.removeItem(at: directory) }
    do {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let segmentSeconds = 60, segmentCount = 10, rate = 30
        let sizeName = (width, height) == (1920, 1080) ? "1080p" : "\(width)×\(height)"
        let input = directory.appendingPathComponent("input.mp4").path
        let settings = VideoSettings(
            width: width, height: height, frameRateNumerator: rate, frameRateDenominator: 1, crf: 18,
            preset: "ultrafast", gop: 60)
        let source = YUV420Frame(width: width, height: height)  // chroma stays neutral grey
        let encodeSeconds = try seconds {
            let writer = try MP4VideoWriter(path: input, settings: settings)
            for n in 0..<(segmentSeconds * rate) {
                // A 64 px bar moving 8 px a frame over a flat background: cheap to draw and to encode.
                let bar = (n * 8) % (width - 64)
                for row in 0..<height {
                    let line = source.y + row * source.yStride
                    line.update(repeating: 60, count: width)
                    (line + bar).update(repeating: 200, count: 64)
                }
                try writer.append(
                    y: source.y, yStride: source.yStride, u: source.u, v: source.v, uvStride: source.uvStride)
            }
            try writer.finish()
        }
        let segments = try (0..<segmentCount).map { index -> String in
            let path = directory.appendingPathComponent("segment-\(index).mp4").path
            try FileManager.default.copyItem(atPath: input, toPath: path)
            return path
        }
        let total = Double(segmentSeconds * segmentCount)
        let output = directory.appendingPathComponent("assembled.mp4").path
        // What a segmented export does: the soundtrack encoded on its own while segments render.
        let track = directory.appendingPathComponent("track.m4a").path
        let trackSeconds = try seconds {
            try AACTrackFile.write(
                source: Tone(), frameRateNumerator: rate, frameRateDenominator: 1,
                videoFrames: segmentSeconds * segmentCount * rate, to: track)
        }
        for (name, audio, copied) in [
            ("assembly, 10 min \(sizeName) from 10 segments (stream copy)", nil, nil),
            ("assembly, same + the 10 min soundtrack copied", nil, track),
            ("assembly, same + AAC encoded there (comparison)", Tone(), nil),
        ] as [(String, Tone?, String?)] {
            unlink(output)
            var summary: AssemblySummary?
            let time = try seconds {
                summary = try SegmentAssembler.assemble(
                    segments: segments, to: output, audio: audio, audioTrack: copied)
            }
            guard summary?.frameCount == segmentSeconds * segmentCount * rate else {
                fail("assembly wrote \(summary?.frameCount ?? 0) frames")
            }
            // The copy's cost follows the bytes, not the frames: real footage is many times larger.
            let bytes = (try FileManager.default.attributesOfItem(atPath: output)[.size] as? Int) ?? 0
            assemblyLines.append((name, time, total / time, Double(bytes) / 1e6))
        }
        assemblyLines.append(
            ("soundtrack encode, 10 min (beside the render)", trackSeconds, total / trackSeconds, 0))
        assemblyLines.append(
            (
                "encode of one 60 s segment (ultrafast, input)", encodeSeconds,
                Double(segmentSeconds) / encodeSeconds,
                0
            ))
    } catch {
        fail("assembly: \(error)")
    }
}

/// ms per frame for libx264 (one thread, CRF 18) encoding `frames`: the median of three whole
/// encodes, since one encode of a few dozen frames swings by ±20 % on a shared host.
@MainActor func x264Milliseconds(_ frames: [YUV420Frame], preset: String) -> Double {
    let tmp = FileManager.default.temporaryDirectory.appendingPathComponent("kiln-bench-\(getpid()).mp4").path
    defer { unlink(tmp) }
    var passes: [Double] = []
    for _ in 0..<3 {
        do {
            let settings = VideoSettings(
                width: width, height: height, frameRateNumerator: 30, frameRateDenominator: 1, crf: 18,
                preset: preset, gop: 60, encoderThreads: 1, faststart: false)
            let writer = try MP4VideoWriter(path: tmp, settings: settings)
            let start = DispatchTime.now().uptimeNanoseconds
            for f in frames {
                try writer.append(y: f.y, yStride: f.yStride, u: f.u, v: f.v, uvStride: f.uvStride)
            }
            try writer.finish()
            passes.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6 / Double(frames.count))
        } catch {
            fail("encode: \(error)")
        }
    }
    return passes.sorted()[1]
}

// Splitting costs: the same export (240 frames of 1280×720 mesh gradient + ripple, all cores,
// through the real pipeline and encoder) whole and in 4 segments joined by stream copy, four
// times each, alternating which goes first; medians.
if wants("export 240 frames, whole", "export 240 frames in 4 segments") {
    let tmp = FileManager.default.temporaryDirectory.appendingPathComponent("kiln-bench-split-\(getpid())")
    try? FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: tmp) }
    let jobURL = tmp.appendingPathComponent("split.json")
    try! Data(
        """
        {"kiln": 1, "output": {"path": "out.mp4", "width": 1280, "height": 720, "fps": 30,
                               "duration": {"frames": 240}, "preset": "veryfast"},
         "layers": [{"type": "meshGradient", "width": 2, "height": 2,
                     "points": [[0, 0], [1, 0], [0, 1], {"keyframes": [{"t": 0, "v": [1, 1]}, {"t": 8, "v": [0.2, 0.3]}]}],
                     "colors": ["#ff5a36", "#3a1c71", "#00a8cc", "#ffb347"],
                     "effects": [{"ripple": {"amplitude": 12, "triggers": [{"at": 0.1, "origin": [600, 300]}]}}]}]}
        """.utf8
    ).write(to: jobURL)
    do {
        let loaded = try JobFiles.loadFingerprinted(file: jobURL.path)
        let export = VideoExport(job: loaded.job, threads: cores)
        let split = SegmentedExport(
            export: export, fingerprint: loaded.fingerprint,
            plan: SegmentPlan(frameCount: 240, framesPerSecond: 30, request: .count(4)))
        var whole: [Double] = [], pieces: [Double] = []
        func time(_ body: () throws -> Void) rethrows -> Double {
            let start = DispatchTime.now().uptimeNanoseconds
            try body()
            return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6 / 240
        }
        // Alternated, each going first in turn, so drift in the machine's load hits both alike.
        for pass in 0..<4 {
            if pass % 2 == 0 {
                whole.append(try time { _ = try export.run() })
                pieces.append(try time { _ = try split.run() })
            } else {
                pieces.append(try time { _ = try split.run() })
                whole.append(try time { _ = try export.run() })
            }
        }
        rows.append(
            Row(
                name: "export 240 frames, whole", threads: cores, msPerFrame: median(whole),
                pixels: 1280 * 720))
        rows.append(
            Row(
                name: "export 240 frames in 4 segments", threads: cores, msPerFrame: median(pieces),
                pixels: 1280 * 720))
    } catch {
        fail("segmented export: \(error)")
    }
}

// Ratios of rows measured in this run (those `--only` left out are skipped).
@MainActor func row(_ name: String, threads: Int = 1) -> Row? {
    rows.first { $0.name == name && $0.threads == threads }
}
var ratios: [(String, Double)] = []
if let render1 = row("render mesh gradient → YUV"),
    let renderN = rows.last(where: { $0.name.hasPrefix("render") })
{
    if renderN.threads > 1 {
        ratios.append(
            ("render speed-up, \(renderN.threads) threads vs 1", render1.msPerFrame / renderN.msPerFrame))
    }
    if let veryfast = row("libx264 veryfast encode") {
        ratios.append(
            ("render+convert ÷ x264 veryfast (per core)", render1.nsCorePerPixel / veryfast.nsCorePerPixel))
    }
}
if let picture = row("podcast picture (cover+warp+overlay) → YUV"),
    let x264 = row("libx264 veryfast encode, podcast frames")
{
    ratios.append(
        ("podcast picture ÷ x264 veryfast on its frames (target < 0.5)", picture.msPerFrame / x264.msPerFrame)
    )
}
if let whole = row("export 240 frames, whole", threads: cores),
    let split = row("export 240 frames in 4 segments", threads: cores)
{
    ratios.append(("segmented ÷ whole export wall time (target ≤ 1.10)", split.msPerFrame / whole.msPerFrame))
}
if let sws = row("convert RGBA8 → YUV (swscale)"), let fused = row("convert float → YUV (fused SIMD)") {
    ratios.append(("swscale ÷ fused conversion", sws.msPerFrame / fused.msPerFrame))
}
if let sigma30 = blurMs[30], let sigma3 = blurMs[3] {
    ratios.append(("gaussian blur σ=30 ÷ σ=3 (1 thread)", sigma30 / sigma3))
}

if options.json {
    var object: [String: Any] = [
        "width": width, "height": height, "cores": cores,
        "rows": rows.map {
            [
                "name": $0.name, "threads": $0.threads, "msPerFrame": $0.msPerFrame,
                "nsCorePerPixel": $0.nsCorePerPixel,
            ]
        },
    ]
    object["ratios"] = Dictionary(uniqueKeysWithValues: ratios.map { ($0.0, $0.1) })
    object["assembly"] = assemblyLines.map {
        ["name": $0.name, "seconds": $0.seconds, "realTime": $0.realTime, "megabytes": $0.megabytes]
    }
    let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted])
    print(String(decoding: data, as: UTF8.self))
} else {
    print("kiln-bench \(width)×\(height), \(cores) cores, median of \(options.frames) frames\n")
    let header = "what".padding(toLength: 50, withPad: " ", startingAt: 0) + "threads   ms/frame   ns·core/px"
    print(header)
    print(String(repeating: "-", count: header.count))
    for r in rows {
        print(
            r.name.padding(toLength: 50, withPad: " ", startingAt: 0)
                + String(format: "%7d %10.2f %12.2f", r.threads, r.msPerFrame, r.nsCorePerPixel))
    }
    print("")
    for (name, value) in ratios { print(String(format: "%@: %.2f", name, value)) }
    if !assemblyLines.isEmpty {
        print("")
        for line in assemblyLines {
            print(
                line.name.padding(toLength: 56, withPad: " ", startingAt: 0)
                    + String(format: "%8.2f s %9.1f× real time", line.seconds, line.realTime)
                    + (line.megabytes > 0 ? String(format: ", %.0f MB written", line.megabytes) : ""))
        }
        if let encode = assemblyLines.last, let copy = assemblyLines.first, assemblyLines.count == 5 {
            print(
                String(
                    format:
                        "a re-encode of the 10 min at that preset would cost ≥ %.0f s, %.0f× the stream copy",
                    encode.seconds * 10, encode.seconds * 10 / copy.seconds))
        }
    }
}
