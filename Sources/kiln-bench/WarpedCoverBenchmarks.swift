import Foundation
import KilnExport
import KilnMedia
import KilnModel
import KilnRaster
import KilnScene

#if canImport(Glibc)
    import Glibc
#endif

@MainActor func measureWarpedCover() {
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
            let photo = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .deletingLastPathComponent()
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
                    job: job,
                    canvas: Canvas(width: width, height: height, reducedEvaluation: reduced),
                    threads: 1)
                let ms = measure(options.frames) { warped.render(at: Double($0) / fps, yuv: nil, rgba: nil) }
                rows.append(Row(name: name, threads: 1, msPerFrame: ms, pixels: pixels))
            }
        } catch {
            fail("warp job: \(error)")
        }
    }
}
