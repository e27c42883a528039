import Foundation
import KilnExport
import KilnModel
import KilnRaster
import XCTest

@testable import KilnScene

/// The device layer: its screen clip against a Double reference of the coverage rule, its
/// geometry, every kind rendering, thread independence, drafts, memory and messages.
final class DeviceLayerTests: XCTestCase {
    /// A frame of `kind` on a light backdrop, holding a gradient "screen" that fills it.
    static func kindJob(_ kind: String, extra: String = "", width: Int = 640, height: Int = 420) -> String {
        """
        {"kiln": 1, "output": {"width": \(width), "height": \(height), "fps": 30, "duration": 1},
         "layers": [{"type": "solid", "color": "#e9ecf3"},
           {"type": "device", "device": "\(kind)", "size": [\(kind == "phone" ? 170 : kind == "tablet" ? 260 : 520),
             \(kind == "laptop" ? 330 : kind == "phone" ? 350 : 340)], "position": [\(width / 2), \(height / 2)]\(extra),
            "screen": {"type": "meshGradient", "width": 2, "height": 2, "points": [[0, 0], [1, 0], [0, 1], [1, 1]],
                       "colors": ["#6a5cff", "#ff8a65", "#40c9ff", "#ffd166"]}}]}
        """
    }

    static let kinds = ["phone", "tablet", "laptop", "browser", "window"]

    /// The coverage rule of every rounded clip (`RoundedRectPainter`): 0.5 − d, d the signed
    /// distance in pixels from the pixel centre to the outline, clamped to 0…1, in Double.
    static func coverage(
        x: Double, y: Double, rect: (x: Double, y: Double, w: Double, h: Double), radius r: Double
    )
        -> Double
    {
        let cx = rect.x + rect.w / 2, cy = rect.y + rect.h / 2
        let qx = abs(x - cx) - (rect.w / 2 - r), qy = abs(y - cy) - (rect.h / 2 - r)
        let distance =
            (max(qx, 0) * max(qx, 0) + max(qy, 0) * max(qy, 0)).squareRoot() + min(max(qx, qy), 0) - r
        return min(max(0.5 - distance, 0), 1)
    }

    /// The exact area of pixel (px, py) inside the rounded rectangle, by integrating the covered
    /// height across the pixel in 2000 columns.
    static func exactArea(
        px: Int, py: Int, rect: (x: Double, y: Double, w: Double, h: Double), radius r: Double
    )
        -> Double
    {
        let steps = 2000
        var sum = 0.0
        for i in 0..<steps {
            let x = Double(px) + (Double(i) + 0.5) / Double(steps)
            guard x > rect.x, x < rect.x + rect.w else { continue }
            let dx = max(rect.x + r - x, x - (rect.x + rect.w - r), 0)
            let inset = dx > 0 ? r - (r * r - dx * dx).squareRoot() : 0
            let top = rect.y + inset, bottom = rect.y + rect.h - inset
            sum += max(min(bottom, Double(py + 1)) - max(top, Double(py)), 0)
        }
        return sum / Double(steps)
    }

    /// Around every corner of a phone's screen, a white screen layer over the black bezel shows
    /// exactly the clip's coverage: within 2 code values of the Double reference of the rule, so
    /// pixels just outside the radius show the bezel and those inside the content. Against the
    /// exact area the rule is a few per cent off where the edge runs diagonally (measured and
    /// bounded here too).
    func testScreenCornersClipTheContentByTheRoundedRectCoverage() throws {
        let job = try Fixture.job(
            """
            {"kiln": 1, "output": {"width": 260, "height": 460, "fps": 30, "duration": 1},
             "layers": [{"type": "device", "device": "phone", "screenSize": [200, 400], "bezel": 10,
               "screenCornerRadius": 40, "cutout": "none", "buttons": false, "shadow": false,
               "bezelColor": "#000000", "anchor": [0, 0], "position": [10, 10],
               "screen": {"type": "solid", "color": "#ffffff"}}]}
            """)
        let device = try XCTUnwrap(job.layers.first?.content as? DeviceLayer)
        XCTAssertEqual(device.geometry.screenOrigin, SIMD2(10, 10))
        XCTAssertEqual(device.geometry.box, SIMD2(220, 420))
        let frame = Fixture.render(job)
        let rect = (x: 20.0, y: 20.0, w: 200.0, h: 400.0)
        var worstRule = 0.0, worstArea = 0.0, inside = 0, outside = 0
        for (x0, y0) in [(16, 16), (176, 16), (16, 376), (176, 376)] {
            for py in y0..<(y0 + 48) {
                for px in x0..<(x0 + 48) {
                    let value = Double(frame.pixel(x: px, y: py)[0])
                    let rule = Self.coverage(x: Double(px) + 0.5, y: Double(py) + 0.5, rect: rect, radius: 40)
                    // Within the black glass: the rim around it is the body's colour.
                    let nearEdge =
                        Self.coverage(x: Double(px) + 0.5, y: Double(py) + 0.5, rect: rect, radius: 40) > 0
                        || Self.coverage(
                            x: Double(px) + 0.5, y: Double(py) + 0.5, rect: (16, 16, 208, 408), radius: 44)
                            == 1
                    guard nearEdge else { continue }
                    worstRule = max(worstRule, abs(value - 255 * rule))
                    let area = Self.exactArea(px: px, py: py, rect: rect, radius: 40)
                    worstArea = max(worstArea, abs(value - 255 * area))
                    if area == 0 { outside += value == 0 ? 1 : 0 }
                    if area == 1 { inside += value == 255 ? 1 : 0 }
                }
            }
        }
        XCTAssertLessThanOrEqual(worstRule, 2, "against the coverage rule")
        XCTAssertLessThanOrEqual(worstArea, 12, "against the exact area")
        XCTAssertGreaterThan(inside, 1000)
        XCTAssertGreaterThan(outside, 500)
        print(
            "device corner clip: worst \(worstRule) code values from the rule, \(worstArea) from the exact area"
        )
    }

    /// A browser's screen is square under its toolbar and rounded at the bottom.
    func testBrowserScreenIsSquareAtTheTopAndRoundedAtTheBottom() throws {
        let job = try Fixture.job(
            """
            {"kiln": 1, "output": {"width": 700, "height": 500, "fps": 30, "duration": 1},
             "layers": [{"type": "device", "device": "browser", "screenSize": [600, 400], "shadow": false,
               "anchor": [0, 0], "position": [10, 10], "screen": {"type": "solid", "color": "#ff0000"}}]}
            """)
        let g = try XCTUnwrap(job.layers.first?.content as? DeviceLayer).geometry
        XCTAssertTrue(g.squareTop)
        XCTAssertEqual(g.unit, 4)
        XCTAssertEqual(g.screenOrigin, SIMD2(0, (4.4 + 5.2) * 4))
        XCTAssertEqual(g.boxPoint(fromScreen: SIMD2(5, 6)), g.screenOrigin + SIMD2(5, 6))
        let frame = Fixture.render(job)
        let top = Int((10 + g.screenOrigin.y).rounded(.up))
        XCTAssertEqual(frame.pixel(x: 12, y: top), SIMD4(255, 0, 0, 255), "top-left corner square")
        XCTAssertEqual(frame.pixel(x: 607, y: top), SIMD4(255, 0, 0, 255), "top-right corner square")
        XCTAssertLessThan(frame.pixel(x: 10, y: Int(10 + g.box.y) - 1)[0], 128, "bottom corner rounded")
    }

    /// `size` gives the whole frame; the screen is what its bezels leave.
    func testSizeGivesTheWholeFrame() throws {
        for kind in Self.kinds {
            let job = try Fixture.job(Self.kindJob(kind))
            let g = try XCTUnwrap(job.layers.last?.content as? DeviceLayer).geometry
            let expected = SIMD2<Double>(
                kind == "phone" ? 170 : kind == "tablet" ? 260 : 520,
                kind == "laptop" ? 330 : kind == "phone" ? 350 : 340)
            XCTAssertEqual(g.box, expected, kind)
            let insets = DeviceGeometry.insets(
                DeviceLayer.Kind(rawValue: kind)!, unit: g.unit, bezel: g.bezel, screenWidth: g.screenSize.x)
            XCTAssertEqual(g.screenSize.x + insets.x + insets.z, expected.x, accuracy: 1e-6, kind)
            XCTAssertEqual(g.screenSize.y + insets.y + insets.w, expected.y, accuracy: 1e-6, kind)
        }
    }

    /// Every kind and style renders finite, with its screen showing the content, the same with 1
    /// thread as with 4.
    func testEveryKindRendersTheSameOnOneAndManyThreads() throws {
        for kind in Self.kinds {
            for extra in ["", #", "style": "light", "reflection": true"#, #", "cutout": "notch""#] {
                let job = try Fixture.job(Self.kindJob(kind, extra: extra))
                XCTAssertEqual(
                    Fixture.renderYUV(job, threads: 1), Fixture.renderYUV(job, threads: 4), "\(kind)\(extra)")
                let g = try XCTUnwrap(job.layers.last?.content as? DeviceLayer).geometry
                let frame = Fixture.render(job)
                let origin = SIMD2<Double>(320, 210) - g.box / 2 + g.screenOrigin
                let centre = frame.pixel(
                    x: Int(origin.x + g.screenSize.x / 2), y: Int(origin.y + g.screenSize.y * 0.75))
                XCTAssertGreaterThan(Int(centre[1]), 120, "\(kind)\(extra): the screen shows the content")
            }
        }
    }

    /// At half size the frame is the full-size one averaged over 2×2 blocks.
    func testDraftIsTheFullFrameScaledDown() throws {
        for kind in Self.kinds {
            let job = try Fixture.job(Self.kindJob(kind, extra: #", "reflection": true"#))
            let draft = try job.drafted(Draft(size: .scale(0.5)))
            let comparison = DraftRenderTests.compare(
                draft: Fixture.render(draft), full: Fixture.render(job), factor: 2)
            XCTAssertLessThan(comparison.mean, DraftRenderTests.meanTolerance, kind)
            XCTAssertLessThan(comparison.farOffShare, DraftRenderTests.farOffShare, kind)
        }
    }

    func testTheShadowIsChargedToTheMemoryBudget() {
        let json = Self.kindJob("phone", width: 1920, height: 1080)
        var messages: [String] = []
        do {
            let limits = try ResourceLimits(overrides: ["memory-megabytes": 8])
            _ = try JobFiles.decode(
                bytes: Array(json.utf8), file: "t.json",
                baseDirectory: URL(fileURLWithPath: NSTemporaryDirectory()),
                options: JobLoadOptions(limits: limits))
            XCTFail("expected the job to be refused")
        } catch JobLoadError.invalid(let diagnostics) {
            messages = diagnostics.map(\.message)
        } catch {
            XCTFail("\(error)")
        }
        XCTAssertTrue(messages.contains { $0.contains("device shadow (2 offscreen images)") }, "\(messages)")
    }

    func testParameterErrorsNameTheirPaths() {
        XCTAssertThrowsError(
            try Fixture.job(
                """
                {"kiln": 1, "output": {"width": 64, "height": 64, "fps": 30, "duration": 1},
                 "layers": [{"type": "device", "device": "watch", "screen": {"type": "solid", "color": "#fff"}},
                   {"type": "device", "size": [100, 200], "screenSize": [50, 100], "screen": {"type": "solid", "color": "#fff"}},
                   {"type": "device", "screen": {"type": "shape", "size": [1, 1], "fil": "#fff"}},
                   {"type": "device", "bezel": 1e308, "screen": {"type": "solid", "color": "#fff"}},
                   {"type": "device", "size": [10, 10], "bezel": 20, "screen": {"type": "solid", "color": "#fff"}},
                   {"type": "device"},
                   {"type": "device", "title": {"type": "text", "text": "x"}, "screen": {"type": "solid", "color": "#fff"}}]}
                """)
        ) { error in
            let text = "\(error)"
            for expected in [
                "layers[0].device", "layers[1].screenSize: give either 'size'", "layers[2].screen.fil",
                "did you mean 'fill'", "layers[3].bezel", "layers[4].size: the bezels leave no screen",
                "layers[5]: missing required key 'screen'",
                "layers[6].title: 'title' is only drawn by a browser or a window",
            ] {
                XCTAssertTrue(text.contains(expected), "missing '\(expected)' in\n\(text)")
            }
        }
    }
}
