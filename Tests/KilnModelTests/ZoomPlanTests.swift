import Foundation
import KilnModel
import KilnTestSupport
import XCTest

/// Auto-zoom: every action stays inside the frame with its margin, at its time and while the
/// pointer moves between the actions of one view; the plan's keyframes are well formed.
final class ZoomPlanTests: XCTestCase {
    /// A recording-like log: bursts of clicks near each other, far apart bursts, moves between.
    static func randomLog(seed: UInt64, size: SIMD2<Double>, margin: Double) -> PointerEventLog {
        var random = SplitMix(state: seed)
        var events: [PointerEvent] = []
        var time = Double.random(in: 0...2, using: &random)
        for _ in 0..<12 {
            let centre = SIMD2(
                Double.random(in: margin + 60...(size.x - margin - 60), using: &random),
                Double.random(in: margin + 60...(size.y - margin - 60), using: &random))
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                time += Double.random(in: 0.15...0.9, using: &random)
                let p =
                    centre
                    + SIMD2(
                        Double.random(in: -60...60, using: &random),
                        Double.random(in: -60...60, using: &random))
                events.append(PointerEvent(time: time, position: p, kind: .move))
                time += Double.random(in: 0.05...0.6, using: &random)
                let kinds: [PointerEvent.Kind] = [.click, .click, .tap, .drag]
                events.append(
                    PointerEvent(time: time, position: p, kind: kinds.randomElement(using: &random)!))
            }
            time += Double.random(in: 0.3...5, using: &random)
        }
        return PointerEventLog(events: events)
    }

    /// The plan as the camera reads it: keyframes eased as written.
    static func camera(_ frames: [ZoomPlan.Keyframe]) -> (Animated<Point2>, Animated<Double>) {
        (
            .keyframes(
                frames.map {
                    Keyframe(
                        time: $0.time, value: Point2(x: $0.view.center.x, y: $0.view.center.y),
                        easing: $0.ease)
                }),
            .keyframes(frames.map { Keyframe(time: $0.time, value: $0.view.zoom, easing: $0.ease) })
        )
    }

    /// Where a layout point lands on screen: centre + zoom · (p − position).
    static func onScreen(
        _ p: SIMD2<Double>, at time: Double, camera: (Animated<Point2>, Animated<Double>), size: SIMD2<Double>
    )
        -> SIMD2<Double>
    {
        let c = camera.0.value(at: time), z = camera.1.value(at: time)
        return size / 2 + (p - SIMD2(c.x, c.y)) * z
    }

    func testEveryActionStaysInsideTheFrameWithItsMarginAtItsTimeAndThroughTheMoves() {
        for seed: UInt64 in 1...40 {
            for (size, maxZoom, margin) in [
                (SIMD2<Double>(1920, 1080), 2.0, 80.0), (SIMD2(1080, 1920), 2.5, 60),
                (SIMD2(1280, 720), 3, 40),
            ] {
                let log = Self.randomLog(seed: seed, size: size, margin: margin)
                var settings = ZoomPlan.Settings(size: size)
                settings.maxZoom = maxZoom
                settings.margin = margin
                let frames = ZoomPlan.keyframes(for: log, settings: settings)
                let camera = Self.camera(frames)
                let inside = (low: SIMD2(margin, margin) - 0.02, high: size - margin + 0.02)
                func check(_ p: SIMD2<Double>, at t: Double, _ what: String) {
                    let s = Self.onScreen(p, at: t, camera: camera, size: size)
                    XCTAssertTrue(
                        all(s .>= inside.low) && all(s .<= inside.high),
                        "seed \(seed) \(size): \(what) at \(t) s is on screen at \(s)")
                }
                for event in log.events where event.kind != .move {
                    check(event.position!, at: event.time, "\(event.kind)")
                }
                // Through the moves: from each action to the next one shown by the same view,
                // the pointer (on its smoothed path) stays inside too.
                let path = PointerPath(events: log.events, moveDuration: 0.6)
                let actions = log.events.filter { $0.kind != .move }
                for (a, b) in zip(actions, actions.dropFirst()) {
                    let za = camera.1.value(at: a.time), zb = camera.1.value(at: b.time)
                    let ca = camera.0.value(at: a.time), cb = camera.0.value(at: b.time)
                    guard za == zb, ca == cb, camera.1.value(at: (a.time + b.time) / 2) == za else {
                        continue
                    }
                    for step in 0...30 {
                        let t = a.time + (b.time - a.time) * Double(step) / 30
                        check(path.position(at: t)!, at: t, "the pointer between actions")
                    }
                }
                // Well formed: increasing times, zooms within 1…maxZoom, never beyond the layout.
                for (a, b) in zip(frames, frames.dropFirst()) {
                    XCTAssertLessThan(a.time, b.time, "seed \(seed)")
                }
                for frame in frames {
                    XCTAssertTrue(
                        (1...maxZoom).contains(frame.view.zoom), "seed \(seed): zoom \(frame.view.zoom)")
                    let half = size / (2 * frame.view.zoom)
                    XCTAssertTrue(
                        all(frame.view.center - half .>= -0.01)
                            && all(frame.view.center + half .<= size + 0.01),
                        "seed \(seed): the view at \(frame.time) shows beyond the layout")
                }
            }
        }
    }

    /// Two clicks far apart in time push in twice and pull out between, each view held at least
    /// minHold, zoomed in to the maximum on a lone click.
    func testLoneClicksPushInHoldAndPullOut() {
        let log = PointerEventLog(events: [
            PointerEvent(time: 2, position: SIMD2(400, 300), kind: .click),
            PointerEvent(time: 9, position: SIMD2(1500, 800), kind: .click),
        ])
        var settings = ZoomPlan.Settings(size: SIMD2(1920, 1080))
        settings.maxZoom = 2
        settings.minHold = 1.2
        let frames = ZoomPlan.keyframes(for: log, settings: settings)
        let zooms = frames.map(\.view.zoom)
        XCTAssertEqual(zooms, [1, 1, 2, 2, 1, 1, 2, 2, 1], "\(frames)")
        XCTAssertEqual(frames[2].view.center.x, 480)  // 400 moved in so the view stays on the layout
        XCTAssertEqual(frames[2].view.center.y, 300)
        XCTAssertGreaterThanOrEqual(frames[3].time - frames[2].time, 1.2 - 1e-9)
        XCTAssertGreaterThanOrEqual(frames[5].time - frames[4].time, 1.2)
        XCTAssertEqual(frames[2].time, 2 - settings.lead, accuracy: 1e-9)
        // The printed camera is the job's: it loads as one.
        let json = ZoomPlan.cameraJSON(frames)
        XCTAssertTrue(json.contains("\"ease\": \"easeInOut\""), json)
    }

    /// Clicks close in time and space share one view; a click across the frame a moment later
    /// gets a pan, not a pull-out.
    func testNearbyClicksShareAViewAndQuickFarOnesPan() {
        let log = PointerEventLog(events: [
            PointerEvent(time: 2, position: SIMD2(500, 500), kind: .click),
            PointerEvent(time: 2.6, position: SIMD2(640, 560), kind: .click),
            PointerEvent(time: 3.4, position: SIMD2(1600, 300), kind: .click),
        ])
        let frames = ZoomPlan.keyframes(for: log, settings: ZoomPlan.Settings(size: SIMD2(1920, 1080)))
        let camera = Self.camera(frames)
        XCTAssertEqual(camera.1.value(at: 2), camera.1.value(at: 2.6))
        XCTAssertEqual(camera.0.value(at: 2), camera.0.value(at: 2.6))
        XCTAssertTrue(
            frames.filter { $0.time > 2.6 && $0.time < 3.4 }.allSatisfy { $0.view.zoom > 1 }, "\(frames)")
    }
}
