import Foundation
import KilnExport
import KilnModel
import KilnTestSupport
import XCTest

/// A job's camera in the export: split into segments, the pieces' frames are the single
/// render's, through a spring's push-in and a group camera's turn.
final class CameraExportTests: ScratchDirectoryTestCase {
    func testASegmentedCameraRenderEqualsASingleRender() throws {
        let url = directory.appendingPathComponent("camera.json")
        try Data(
            """
            {"kiln": 1,
             "output": {"path": "out.mp4", "width": 160, "height": 96, "fps": 30,
                        "duration": {"frames": 24}, "crf": 16, "preset": "veryfast", "gop": 8},
             "camera": {"position": {"keyframes": [{"t": 0, "v": [80, 48]}, {"t": 0.8, "v": [110, 30], "ease": "easeInOut"}]},
                        "zoom": {"spring": {"from": 1, "to": 2.5, "at": 0.1, "duration": 0.5, "bounce": 0.3}}},
             "layers": [
               {"type": "solid", "color": "#101830"},
               {"type": "group", "size": [120, 70], "clip": "roundedRect", "cornerRadius": 10,
                "camera": {"rotation": {"keyframes": [{"t": 0, "v": 0}, {"t": 0.8, "v": 30}]}},
                "layers": [
                  {"type": "shape", "shape": "circle", "size": [30, 30], "position": [90, 20], "fill": "#ffb347",
                   "effects": [{"blur": 3}]},
                  {"type": "shape", "size": [50, 14], "position": [40, 50], "cornerRadius": 7, "fill": "#7b8cff"}]}]}
            """.utf8
        ).write(to: url)
        let loaded = try JobFiles.loadFingerprinted(file: url.path)
        XCTAssertNotNil(loaded.job.camera)
        let single = try assertSegmentedRenderEqualsWhole(loaded, frames: 24, segments: 3)
        // The camera moves the picture: the frames are not all alike.
        XCTAssertGreaterThan(Set(single.values).count, 12)
    }
}
