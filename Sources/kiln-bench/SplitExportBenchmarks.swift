import Foundation
import KilnExport
import KilnMedia
import KilnModel
import KilnRaster
import KilnScene

#if canImport(Glibc)
    import Glibc
#endif

@MainActor func measureSplitExport() {
    // Splitting costs: the same export (240 frames of 1280×720 mesh gradient + ripple, all cores,
    // through the real pipeline and encoder) whole and in 4 segments joined by stream copy, four
    // times each, alternating which goes first; medians.
    if wants("export 240 frames, whole", "export 240 frames in 4 segments") {
        let tmp = FileManager.default.temporaryDirectory.appendingPathComponent(
            "kiln-bench-split-\(getpid())")
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
}
