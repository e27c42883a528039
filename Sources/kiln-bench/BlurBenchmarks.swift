import Foundation
import KilnExport
import KilnMedia
import KilnModel
import KilnRaster
import KilnScene

#if canImport(Glibc)
    import Glibc
#endif

@MainActor func measureBlur() {
    // Gaussian blur of a whole frame (the rendered mesh gradient as premultiplied floats), in place,
    // both phases; 1 thread, and all threads splitting each phase into one part per thread. Each
    // measured blur starts from the same unblurred frame, restored untimed, as a renderer's would.
    let blurFrame = PlanarBand(width: width, rows: height)
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
                        blurFrame, rowCount: height, columns: 0..<width, part: part, of: threads,
                        worker: part,
                        workspace: workspace)
                }
                DispatchQueue.concurrentPerform(iterations: threads) { part in
                    blur.blurColumns(
                        blurFrame, rowCount: height, columns: 0..<width, part: part, of: threads,
                        worker: part,
                        workspace: workspace)
                }
                // The first run is the warm-up: caches, lazy allocations.
                if i > 0 { times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6) }
            }
            let ms = median(times)
            rows.append(
                Row(
                    name: "gaussian blur σ=\(Int(sigma)), \(frameName)", threads: threads, msPerFrame: ms,
                    pixels: pixels))
        }
    }
}

/// A 1280×720 card's drop shadow in a frame over a solid, rendered by `SceneRenderer` (the
/// offscreen of the shifted, tinted alpha, its blur, and the band pass), minus the same frame
/// without the shadow: a shadow's cost must not grow with its radius (σ 4 against σ 40).
@MainActor func measureShadows() {
    func job(_ effects: String) -> Job? {
        let json = """
            {"kiln": 1, "output": {"width": \(width), "height": \(height), "fps": 30, "duration": 1},
             "layers": [{"type": "solid", "color": "#eef1f6"},
               {"type": "shape", "size": [\(width * 2 / 3), \(height * 2 / 3)], "cornerRadius": 32,
                "fill": "#ffffff", "effects": [\(effects)]}]}
            """
        return try? JobFiles.decode(
            bytes: Array(json.utf8), file: "shadow-bench.json", baseDirectory: URL(fileURLWithPath: "/"))
    }
    let cases: [(String, String)] = [
        ("no shadow", ""),
        ("shadow σ=4", #"{"shadow": {"color": [0.1, 0.15, 0.3, 0.3], "radius": 4, "y": 3}}"#),
        ("shadow σ=40", #"{"shadow": {"color": [0.1, 0.15, 0.3, 0.3], "radius": 40, "y": 30}}"#),
        (
            "inner shadow σ=40",
            #"{"shadow": {"color": [0.1, 0.15, 0.3, 0.3], "radius": 40, "y": 30, "inner": true}}"#
        ),
    ]
    for (label, effects) in cases {
        let name = "card, \(label), \(frameName)"
        guard let job = job(effects) else { continue }
        for threads in Set([1, cores]).sorted() where wants(name) {
            let renderer = SceneRenderer(job: job, canvas: canvas, threads: threads)
            let ms = measure(options.frames) { i in
                renderer.render(at: Double(i % 2) / 60, yuv: nil, rgba: nil)
            }
            rows.append(Row(name: name, threads: threads, msPerFrame: ms, pixels: pixels))
        }
    }
}
