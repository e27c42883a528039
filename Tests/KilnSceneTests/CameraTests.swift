import Foundation
import KilnExport
import KilnModel
import KilnRaster
import XCTest

@testable import KilnScene

/// The job's and a group's `camera`: its view against a Double reference, where it puts the
/// layout, what it does to blurs and to geometry that modifiers read, and that drafts and threads
/// see the same picture.
final class CameraTests: XCTestCase {
    // MARK: The view against a reference

    /// The cubic Bézier easing by bisection on x (the model solves it by Newton's method).
    static func referenceBezier(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, at x: Double)
        -> Double
    {
        func curve(_ p1: Double, _ p2: Double, _ s: Double) -> Double {
            3 * (1 - s) * (1 - s) * s * p1 + 3 * (1 - s) * s * s * p2 + s * s * s
        }
        var low = 0.0, high = 1.0
        for _ in 0..<200 {
            let mid = (low + high) / 2
            if curve(x1, x2, mid) < x { low = mid } else { high = mid }
        }
        return curve(y1, y2, (low + high) / 2)
    }

    /// An under-damped spring released at rest: 1 − e^(−ζωt)(cos ω_d t + ζω/ω_d sin ω_d t).
    static func referenceSpring(response: Double, damping zeta: Double, at t: Double) -> Double {
        guard t > 0 else { return 0 }
        let omega = 2 * Double.pi / response, damped = omega * (1 - zeta * zeta).squareRoot()
        return 1 - exp(-zeta * omega * t) * (cos(damped * t) + zeta * omega / damped * sin(damped * t))
    }

    /// frame = centre + R(−θ) · zoom · (p − position), written out by hand.
    static func referenceView(
        _ p: SIMD2<Double>, position: SIMD2<Double>, zoom: Double, degrees: Double, box: SIMD2<Double>
    ) -> SIMD2<Double> {
        let d = (p - position) * zoom
        let angle = -degrees * Double.pi / 180
        // Clockwise on screen with y down: x' = x cos − y sin, y' = x sin + y cos.
        return box / 2 + SIMD2(d.x * cos(angle) - d.y * sin(angle), d.x * sin(angle) + d.y * cos(angle))
    }

    static let animatedCamera = """
        {"position": {"keyframes": [{"t": 0, "v": [960, 540]},
                                    {"t": 1.5, "v": [1400, 300], "ease": "easeInOut"},
                                    {"t": 2.5, "v": [1200, 700], "ease": {"cubicBezier": [0.2, 0, 0, 1]}}]},
         "zoom": {"spring": {"from": 1, "to": 2.5, "at": 0.5, "response": 0.8, "dampingFraction": 0.6}},
         "rotation": {"keyframes": [{"t": 1, "v": 0}, {"t": 2, "v": -8}]}}
        """

    func testTheViewMatchesADoubleReferenceAtKeyframesEasingAndASpring() throws {
        let job = try Fixture.job(
            """
            {"kiln": 1, "output": {"width": 1920, "height": 1080, "fps": 30, "duration": 4},
             "camera": \(Self.animatedCamera), "layers": []}
            """)
        let camera = try XCTUnwrap(job.camera)
        let box = SIMD2<Double>(1920, 1080)
        for t in [0, 0.4, 0.75, 1.0, 1.2, 1.5, 1.8, 2.0, 2.2, 2.5, 3.7] {
            let position: SIMD2<Double>
            if t <= 1.5 {
                let e = Self.referenceBezier(0.42, 0, 0.58, 1, at: t / 1.5)
                position = SIMD2(960, 540) + (SIMD2(1400, 300) - SIMD2(960, 540)) * e
            } else {
                let e = Self.referenceBezier(0.2, 0, 0, 1, at: min((t - 1.5) / 1, 1))
                position = SIMD2(1400, 300) + (SIMD2(1200, 700) - SIMD2(1400, 300)) * e
            }
            let zoom = 1 + 1.5 * Self.referenceSpring(response: 0.8, damping: 0.6, at: t - 0.5)
            let degrees = -8 * min(max(t - 1, 0), 1)
            let view = camera.view(at: t, box: box)
            for p in [SIMD2<Double>(0, 0), SIMD2(1400, 300), SIMD2(1920, 1080), SIMD2(-500, 2000)] {
                let expected = Self.referenceView(
                    p, position: position, zoom: zoom, degrees: degrees, box: box)
                let got = view.apply(p)
                XCTAssertEqual(got.x, expected.x, accuracy: 1e-6, "t=\(t) p=\(p)")
                XCTAssertEqual(got.y, expected.y, accuracy: 1e-6, "t=\(t) p=\(p)")
            }
        }
    }

    /// `position` lands at the box's centre whatever the zoom and rotation, and zoom 2 doubles
    /// every distance from it.
    func testPositionLandsAtTheCentreAndZoomTwoDoublesDistances() {
        let box = SIMD2<Double>(640, 360)
        for (zoom, degrees) in [(1.0, 0.0), (2.0, 0.0), (2.0, 37.0), (0.3, -120.0)] {
            let camera = Camera(
                position: .constant(Point2(x: 1234, y: -56)), zoom: .constant(zoom),
                rotation: .constant(degrees))
            let view = camera.view(at: 0, box: box)
            let centre = view.apply(SIMD2(1234, -56))
            XCTAssertEqual(centre.x, 320, accuracy: 1e-9)
            XCTAssertEqual(centre.y, 180, accuracy: 1e-9)
            for offset in [SIMD2<Double>(100, 0), SIMD2(-30, 70)] {
                let moved = view.apply(SIMD2(1234, -56) + offset) - centre
                let length = (moved * moved).sum().squareRoot()
                XCTAssertEqual(length, zoom * (offset * offset).sum().squareRoot(), accuracy: 1e-9)
            }
        }
        // No position: the box's centre, so a plain zoom magnifies about the middle of the frame.
        let plain = Camera(zoom: .constant(2)).view(at: 0, box: box)
        XCTAssertEqual(plain.apply(SIMD2(320, 180)), SIMD2(320, 180))
        XCTAssertEqual(plain.apply(SIMD2(330, 180)), SIMD2(340, 180))
    }

    /// A spring that overshoots below the zoom range is held inside it: the picture never flips.
    func testTheZoomStaysInsideItsRange() throws {
        let job = try Fixture.job(
            """
            {"kiln": 1, "output": {"width": 64, "height": 64, "fps": 30, "duration": 4},
             "camera": {"zoom": {"spring": {"from": 100, "to": 0.01, "at": 0, "response": 1, "dampingFraction": 0.2}}},
             "layers": []}
            """)
        let camera = try XCTUnwrap(job.camera)
        let zooms = stride(from: 0.0, to: 4, by: 0.01).map { camera.zoom(at: $0) }
        XCTAssertEqual(zooms.min(), Camera.zoomRange.lowerBound)
        XCTAssertLessThanOrEqual(zooms.max() ?? 0, Camera.zoomRange.upperBound)
    }

    // MARK: Pictures

    /// A 10-pixel square at the camera's position is drawn 20 pixels wide at the frame's centre;
    /// a second square 20 units to its right is drawn 40 pixels to the right of the centre.
    /// Each camera's zoom is bounded by its table, and so is the product of nested ones: four
    /// cameras at zoom 100 magnify 1e4 times, not 1e8 (a blur's radius grows with it).
    func testNestedZoomsStayInsideTheCanvasRange() {
        var canvas = Canvas(width: 64, height: 36)
        for _ in 0..<4 { canvas = canvas.magnified(by: 100) }
        XCTAssertEqual(canvas.cameraZoom, Canvas.cameraZoomRange.upperBound)
        XCTAssertEqual(canvas.lengthScale, 1e4)
        for _ in 0..<8 { canvas = canvas.magnified(by: 0.01) }
        XCTAssertEqual(canvas.cameraZoom, Canvas.cameraZoomRange.lowerBound)
    }

    func testTheJobCameraPlacesTheLayoutInTheFrame() throws {
        let job = try Fixture.job(
            """
            {"kiln": 1, "output": {"width": 200, "height": 100, "fps": 30, "duration": 1},
             "camera": {"position": [300, 200], "zoom": 2},
             "layers": [{"type": "shape", "shape": "rect", "size": [10, 10], "position": [300, 200], "fill": "#ffffff"},
                        {"type": "shape", "shape": "rect", "size": [4, 4], "position": [320, 200], "fill": "#ff0000"}]}
            """)
        let frame = Fixture.render(job)
        XCTAssertEqual(frame.pixel(x: 100, y: 50), SIMD4(255, 255, 255, 255))
        XCTAssertEqual(frame.pixel(x: 90, y: 40), SIMD4(255, 255, 255, 255))
        XCTAssertEqual(frame.pixel(x: 109, y: 59), SIMD4(255, 255, 255, 255))
        XCTAssertEqual(frame.pixel(x: 88, y: 50), SIMD4(0, 0, 0, 255))
        XCTAssertEqual(frame.pixel(x: 111, y: 50), SIMD4(0, 0, 0, 255))
        XCTAssertEqual(frame.pixel(x: 140, y: 50), SIMD4(255, 0, 0, 255))
        XCTAssertEqual(frame.pixel(x: 136, y: 50), SIMD4(255, 0, 0, 255))
        XCTAssertEqual(frame.pixel(x: 134, y: 50), SIMD4(0, 0, 0, 255))
    }

    /// A group's camera looks at a point of the group's box and shows it at the box's centre,
    /// inside the box's clip; the group's own transform places the box.
    func testAGroupCameraLooksInsideItsBox() throws {
        let job = try Fixture.job(
            """
            {"kiln": 1, "output": {"width": 100, "height": 100, "fps": 30, "duration": 1},
             "layers": [{"type": "group", "size": [40, 40], "anchor": [0, 0], "position": [10, 50], "clip": "rect",
                         "camera": {"position": [0, 0], "zoom": 2, "rotation": 90},
                         "layers": [{"type": "shape", "shape": "rect", "size": [10, 4], "anchor": [0, 0],
                                     "position": [0, 0], "fill": "#ffffff"}]}]}
            """)
        let frame = Fixture.render(job)
        // The box's centre is (30, 70). The rect [0, 10] × [0, 4] zoomed twice and turned
        // counter-clockwise by 90° covers x ∈ [30, 38], y ∈ [50, 70] of the frame.
        XCTAssertEqual(frame.pixel(x: 33, y: 60), SIMD4(255, 255, 255, 255))
        XCTAssertEqual(frame.pixel(x: 37, y: 52), SIMD4(255, 255, 255, 255))
        XCTAssertEqual(frame.pixel(x: 28, y: 60), SIMD4(0, 0, 0, 255))
        XCTAssertEqual(frame.pixel(x: 33, y: 72), SIMD4(0, 0, 0, 255))
        XCTAssertEqual(frame.pixel(x: 40, y: 60), SIMD4(0, 0, 0, 255))
        // Above y = 50 is outside the box: clipped even though nothing is there anyway.
        XCTAssertEqual(frame.pixel(x: 33, y: 48), SIMD4(0, 0, 0, 255))
    }

    /// A push-in enlarges a blurred picture as a real zoom would: a blurred disc seen at zoom 2
    /// is the same disc laid out twice as large with twice the blur.
    func testBlurRadiiGrowWithTheZoom() throws {
        func job(camera: String, size: Int, blur: Int) throws -> Job {
            try Fixture.job(
                """
                {"kiln": 1, "output": {"width": 240, "height": 160, "fps": 30, "duration": 1}, \(camera)
                 "layers": [{"type": "shape", "shape": "circle", "size": [\(size), \(size)], "fill": "#ffffff",
                             "effects": [{"blur": \(blur)}]}]}
                """)
        }
        let zoomed = Fixture.render(try job(camera: #""camera": {"zoom": 2},"#, size: 30, blur: 6))
        let laidOut = Fixture.render(try job(camera: "", size: 60, blur: 12))
        let unscaledBlur = Fixture.render(try job(camera: "", size: 60, blur: 6))
        func mean(_ a: RGBA8Frame, _ b: RGBA8Frame) -> Double {
            let x = a.byteArray, y = b.byteArray
            return Double(zip(x, y).map { abs(Int($0) - Int($1)) }.reduce(0, +)) / Double(x.count)
        }
        XCTAssertLessThan(mean(zoomed, laidOut), 0.05)
        XCTAssertGreaterThan(mean(zoomed, unscaledBlur), 0.5, "the measure sees an unscaled blur")
    }

    /// `visualEffect` reads the on-screen box, after the camera (as SwiftUI's `visualEffect`
    /// reads its global frame): a layer mapped from its minY fades by where the camera shows it.
    func testVisualEffectReadsTheBoxOnScreen() throws {
        let job = try Fixture.job(
            """
            {"kiln": 1, "output": {"width": 400, "height": 200, "fps": 30, "duration": 1},
             "camera": {"position": [200, 40], "zoom": 0.5},
             "layers": [{"type": "shape", "shape": "rect", "size": [80, 80], "position": [200, 40], "fill": "#ffffff",
                         "visualEffect": {"opacity": {"of": "minY", "times": 0.01, "plus": 0}}}]}
            """)
        // On screen the square is 40 tall around y = 100: minY = 80 → opacity 0.8 (in layout
        // units it would be 0 → transparent).
        for draft in [false, true] {
            let rendered = draft ? try job.drafted(Draft(size: .scale(0.5))) : job
            let frame = Fixture.render(rendered)
            let scale = draft ? 0.5 : 1
            let p = frame.pixel(x: Int(200 * scale), y: Int(100 * scale))
            XCTAssertEqual(Double(p[0]), 0.8 * 255, accuracy: 2, "draft \(draft)")
        }
    }

    /// Zoom 0, a NaN-sized rotation and unknown keys are refused with the JSON path, at the job's
    /// top level and in a group.
    func testBadCamerasAreRefusedWithTheirPaths() {
        func messages(_ json: String) -> [String] {
            do {
                _ = try Fixture.job(json)
                return []
            } catch let error as JobLoadError {
                guard case .invalid(let diagnostics) = error else { return ["\(error)"] }
                return diagnostics.map { "\($0.path): \($0.message)" }
            } catch {
                return ["\(error)"]
            }
        }
        let top = messages(
            """
            {"kiln": 1, "output": {"width": 64, "height": 64, "fps": 30, "duration": 1},
             "camera": {"zoom": 0, "rotaton": 3}, "layers": []}
            """)
        XCTAssertTrue(top.contains { $0.hasPrefix("camera.zoom") }, "\(top)")
        XCTAssertTrue(top.contains { $0.hasPrefix("camera") && $0.contains("rotation") }, "\(top)")
        let group = messages(
            """
            {"kiln": 1, "output": {"width": 64, "height": 64, "fps": 30, "duration": 1},
             "layers": [{"type": "group", "camera": {"position": [0, 1e308]}, "layers": []}]}
            """)
        XCTAssertTrue(group.contains { $0.hasPrefix("layers[0].camera.position") }, "\(group)")
    }

    // MARK: The shipped example: drafts and threads

    static var cameraJob: Job {
        get throws {
            try JobFiles.load(file: Fixture.repositoryRoot.appendingPathComponent("jobs/camera.json").path)
        }
    }

    /// Times in the push-in, the hold, the turn and the spring's pull-out.
    static let sampleTimes = [0.2, 1.1, 2.3, 3.4, 4.6, 5.3]

    func testADraftOfTheCameraJobIsItsFullFrameBoxFiltered() throws {
        let job = try Self.cameraJob
        let draft = try job.drafted(Draft(size: .scale(0.5)))
        for time in Self.sampleTimes where time < job.output.durationSeconds {
            let result = DraftRenderTests.compare(
                draft: Fixture.render(draft, at: time), full: Fixture.render(job, at: time), factor: 2)
            XCTAssertLessThanOrEqual(result.mean, DraftRenderTests.meanTolerance, "t=\(time): mean error")
            XCTAssertLessThanOrEqual(
                result.farOffShare, DraftRenderTests.farOffShare, "t=\(time): far-off share")
        }
    }

    func testOneThreadAndManyThreadsGiveIdenticalBytes() throws {
        let job = try Self.cameraJob
        for time in Self.sampleTimes where time < job.output.durationSeconds {
            let reference = Fixture.renderYUV(job, at: time, threads: 1)
            for threads in [2, 5] {
                XCTAssertEqual(
                    reference, Fixture.renderYUV(job, at: time, threads: threads), "t=\(time) \(threads)")
            }
        }
    }
}
