import Foundation
import KilnExport
import KilnModel
import KilnTestSupport
import XCTest

/// Nested compositions in the export: split into segments, the pieces' frames are the single
/// render's, through a file composition placed twice and an inline one that loops; the
/// composition file's bytes are part of the fingerprint.
final class CompositionExportTests: ScratchDirectoryTestCase {
    static let badge = """
        {"kiln": 1, "output": {"path": "badge.mp4", "width": 80, "height": 40, "fps": 30, "duration": 0.5},
         "variables": {"accent": {"type": "color", "default": "#ff8800"}},
         "layers": [{"type": "shape", "shape": "capsule", "size": [70, 30], "position": [40, 20],
                     "fill": {"var": "accent"}, "effects": [{"blur": 2}],
                     "scaleX": {"keyframes": [{"t": 0, "v": 0.2}, {"t": 0.4, "v": 1}]}}]}
        """

    func testASegmentedCompositionRenderEqualsASingleRender() throws {
        _ = try write("badge.json", Self.badge)
        let url = URL(
            fileURLWithPath: try write(
                "main.json",
                """
                {"kiln": 1,
                 "output": {"path": "out.mp4", "width": 160, "height": 96, "fps": 30,
                            "duration": {"frames": 24}, "crf": 16, "preset": "veryfast", "gop": 8},
                 "compositions": {"dot": {"size": [30, 30], "duration": 0.3,
                   "layers": [{"type": "shape", "shape": "circle", "size": [20, 20],
                               "position": {"keyframes": [{"t": 0, "v": [10, 15]}, {"t": 0.3, "v": [20, 15]}]},
                               "fill": "#ffffff"}]}},
                 "layers": [
                   {"type": "solid", "color": "#101830"},
                   {"type": "composition", "file": "badge.json", "position": [50, 30], "offset": 0.1},
                   {"type": "composition", "file": "badge.json", "position": [110, 66], "offset": 0.3, "speed": 1.5,
                    "variables": {"accent": "#33ccff"}, "blendMode": "screen"},
                   {"type": "composition", "composition": "dot", "position": [30, 75], "loop": true, "rotation": 10}]}
                """))
        let loaded = try JobFiles.loadFingerprinted(file: url.path)
        let single = try assertSegmentedRenderEqualsWhole(loaded, frames: 24, segments: 3)
        XCTAssertGreaterThan(Set(single.values).count, 12)

        // Editing the composition file changes the job's fingerprint, as editing the job does.
        _ = try write("badge.json", Self.badge.replacingOccurrences(of: "#ff8800", with: "#ff8801"))
        XCTAssertNotEqual(try JobFiles.loadFingerprinted(file: url.path).fingerprint, loaded.fingerprint)
    }
}
