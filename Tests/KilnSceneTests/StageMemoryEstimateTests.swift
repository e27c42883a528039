import Foundation
import KilnExport
import KilnModel
import XCTest

/// Stages a layer's transition or mappings add, and a mask layer's own effects, render offscreen
/// like a layer's effects: the job's memory estimate counts an image for each such layer.
final class StageMemoryEstimateTests: XCTestCase {
    func diagnostics(_ layers: String) -> [String] {
        let job = """
            {"kiln": 1, "output": {"width": 640, "height": 360, "fps": 30, "duration": 1},
             "layers": [\(layers)]}
            """
        do {
            let limits = try ResourceLimits(overrides: ["memory-megabytes": 8])
            _ = try JobFiles.decode(
                bytes: Array(job.utf8), file: "t.json",
                baseDirectory: URL(fileURLWithPath: NSTemporaryDirectory()),
                options: JobLoadOptions(limits: limits))
            XCTFail("expected the job to be refused")
        } catch JobLoadError.invalid(let diagnostics) {
            return diagnostics.map(\.message)
        } catch {
            XCTFail("\(error)")
        }
        return []
    }

    func testTransitionsMappingsAndMasksCountTheirOffscreens() {
        let card = #"{"type": "shape", "size": [100, 100], "fill": "red", "appear": 0.1"#
        let messages = diagnostics(
            [
                card + #", "transition": {"iris": 4}}"#,
                card + #", "transition": "blur"}"#,
                #"{"type": "shape", "size": [100, 100], "fill": "red", "#
                    + #""visualEffect": {"effects": [{"effect": {"wave": {"amplitude": 4}}}]}}"#,
                #"{"type": "shape", "size": [100, 100], "fill": "red", "#
                    + #""mask": {"layer": {"type": "shape", "size": [50, 50], "fill": "white", "#
                    + #""effects": [{"blur": 4}]}}}"#,
                card + #", "transition": "opacity"}"#,
            ].joined(separator: ", "))
        XCTAssertTrue(messages.contains { $0.contains("4 offscreen images of 4 layers") }, "\(messages)")
    }
}
