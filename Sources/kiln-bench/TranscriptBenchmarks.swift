import Foundation
import KilnExport
import KilnMedia
import KilnModel
import KilnRaster
import KilnScene

#if canImport(Glibc)
    import Glibc
#endif

@MainActor func measureTranscript() {
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
                    job: job,
                    canvas: Canvas(width: width, height: height, reducedEvaluation: reduced),
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
                    [transcriptRows[3], transcriptRows[4], nil], cover, cover + ", " + overlay, 13.5,
                    .whenSafe,
                    true
                ),
                ([nil, nil, transcriptRows[5]], solid, solid + ", " + overlay, 12.2, .whenSafe, false),
                (
                    [transcriptRows[6], transcriptRows[7], nil], cover, cover + ", " + overlay, 13.5, .off,
                    true
                ),
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
}
