import KilnExport
import KilnModel
import KilnRaster
import KilnScene
import XCTest

final class ScrollLayerTests: XCTestCase {
    func testPhaseIsTheFractionOutsideTheViewportSignedByEdge() {
        XCTAssertEqual(ScrollLayer.phase(low: 100, high: 300, viewportLength: 1000), 0)
        XCTAssertEqual(ScrollLayer.phase(low: -50, high: 150, viewportLength: 1000), -0.25)
        XCTAssertEqual(ScrollLayer.phase(low: -200, high: 0, viewportLength: 1000), -1)
        XCTAssertEqual(ScrollLayer.phase(low: -900, high: -700, viewportLength: 1000), -1)
        XCTAssertEqual(ScrollLayer.phase(low: 900, high: 1100, viewportLength: 1000), 0.5)
        XCTAssertEqual(ScrollLayer.phase(low: 1200, high: 1400, viewportLength: 1000), 1)
    }

    func testItemsPageToTheLeadingMarginAndInterpolateBetweenPages() {
        let sizes = Array(repeating: SIMD2<Double>(400, 300), count: 5)
        let viewport = SIMD2<Double>(1000, 500)
        func origins(page: Double) -> [Double] {
            ScrollLayer(size: nil, spacing: .constant(50), padding: .constant(300), page: .constant(page))
                .layout(sizes, viewport: viewport, at: 0).map(\.origin.x)
        }
        XCTAssertEqual(origins(page: 0), [300, 750, 1200, 1650, 2100])
        XCTAssertEqual(origins(page: 2), [-600, -150, 300, 750, 1200])
        XCTAssertEqual(origins(page: 1.5), [-375, 75, 525, 975, 1425])
        XCTAssertEqual(origins(page: 9), origins(page: 4), "pages beyond the last stay on the last")
        let slots = ScrollLayer(
            size: nil, spacing: .constant(50), padding: .constant(300), page: .constant(2)
        )
        .layout(sizes, viewport: viewport, at: 0)
        XCTAssertEqual(slots.map(\.phase), [-1, -0.375, 0, 0.375, 1])
        XCTAssertEqual(slots[0].origin.y, 100, "centred on the cross axis")
    }

    func testAutomaticAdvanceStepsOnePageEveryIntervalAndLoops() {
        let scroll = ScrollLayer(
            size: nil, spacing: .constant(0), padding: .constant(0), advanceEvery: 2,
            advance: .eased(duration: 1, easing: .linear), loops: true)
        let sizes = Array(repeating: SIMD2<Double>(100, 100), count: 3)
        func first(_ t: Double) -> Double {
            scroll.layout(sizes, viewport: SIMD2(100, 100), at: t)[0].origin.x
        }
        XCTAssertEqual(first(1.9), 0)
        XCTAssertEqual(first(2.5), -50, accuracy: 1e-9)
        XCTAssertEqual(first(3.5), -100, accuracy: 1e-9)
        XCTAssertEqual(first(5.5), -200, accuracy: 1e-9)
        XCTAssertEqual(first(6.5), -100, accuracy: 1e-9, "after the last page it scrolls back to the first")
        XCTAssertEqual(first(7.5), 0, accuracy: 1e-9)
    }

    /// Advances count from the layer's `appear` (the showcase's carousel, appearing at 0.63 s,
    /// once whipped back from its last page to its first in the last quarter second): decoded in
    /// a job, a scroll appearing at 3 s stands on its first page until 3 s + advanceEvery.
    func testAutomaticAdvanceCountsFromTheLayersAppear() throws {
        let job = try Fixture.job(
            #"""
            {"kiln": 1, "output": {"width": 100, "height": 100, "fps": 10, "duration": 8},
             "layers": [{"type": "scroll", "appear": 3, "size": [100, 100], "spacing": 0, "advanceEvery": 2,
                         "advanceDuration": 1, "advanceEase": "linear",
                         "layers": [{"type": "shape", "shape": "rect", "fill": "#f00", "size": [100, 100]},
                                    {"type": "shape", "shape": "rect", "fill": "#0f0", "size": [100, 100]},
                                    {"type": "shape", "shape": "rect", "fill": "#00f", "size": [100, 100]}]}]}
            """#)
        let scroll = try XCTUnwrap(job.layers[0].content as? ScrollLayer)
        XCTAssertEqual(scroll.advanceStart, 3)
        let sizes = Array(repeating: SIMD2<Double>(100, 100), count: 3)
        func first(_ t: Double) -> Double {
            scroll.layout(sizes, viewport: SIMD2(100, 100), at: t)[0].origin.x
        }
        XCTAssertEqual(first(4.9), 0, "no advance before appear + advanceEvery")
        XCTAssertEqual(first(5.5), -50, accuracy: 1e-9)
        XCTAssertEqual(first(7.5), -150, accuracy: 1e-9)
    }

    /// The carousel of a job whose items are three 100 px squares, advancing every 2 s.
    private func advancingJob(scroll attributes: String, inGroup group: String? = nil) throws -> ScrollLayer {
        let scroll = """
            {"type": "scroll", \(attributes) "size": [100, 100], "spacing": 0, "advanceEvery": 2,
             "advanceDuration": 1, "advanceEase": "spring", "loop": true,
             "layers": [{"type": "shape", "shape": "rect", "fill": "#f00", "size": [100, 100]},
                        {"type": "shape", "shape": "rect", "fill": "#0f0", "size": [100, 100]},
                        {"type": "shape", "shape": "rect", "fill": "#00f", "size": [100, 100]}]}
            """
        let layer =
            group.map { #"{"type": "group", \#($0) "size": [100, 100], "layers": [\#(scroll)]}"# } ?? scroll
        let job = try Fixture.job(
            #"{"kiln": 1, "output": {"width": 100, "height": 100, "fps": 30, "duration": 20}, "layers": [\#(layer)]}"#
        )
        let top = try XCTUnwrap(job.layers.first)
        return try XCTUnwrap((top.content as? ScrollLayer) ?? top.children.first?.content as? ScrollLayer)
    }

    /// A carousel's paging is the same film whenever it appears: at appear + dt it stands where a
    /// carousel appearing at 0 stands at dt, for every frame of three loops. A layer without
    /// `appear` counts from its enclosing layer's (its own clock starts when it enters, as a
    /// SwiftUI view's animations start when it is inserted and an After Effects layer's time at
    /// its in-point), and from 0 when nothing encloses it.
    func testPagingAtAppearPlusDtIsPagingAtDtOfALayerAppearingAtZero() throws {
        let sizes = Array(repeating: SIMD2<Double>(100, 100), count: 3)
        func offset(_ scroll: ScrollLayer, _ t: Double) -> Double {
            scroll.layout(sizes, viewport: SIMD2(100, 100), at: t)[0].origin.x
        }
        let atZero = try advancingJob(scroll: #""appear": 0,"#)
        let unset = try advancingJob(scroll: "")
        let late = try advancingJob(scroll: #""appear": 2.7,"#)
        let inLateGroup = try advancingJob(scroll: "", inGroup: #""appear": 2.7,"#)
        let ownAppearWins = try advancingJob(scroll: #""appear": 2.7,"#, inGroup: #""appear": 1,"#)
        let cases = [
            ("no appear", unset, 0.0), ("appear 2.7", late, 2.7), ("group appear 2.7", inLateGroup, 2.7),
            ("own appear 2.7 in a group appearing at 1", ownAppearWins, 2.7),
        ]
        for (name, scroll, appear) in cases {
            // Every frame of three loops; the first frame that differs is the message.
            let differing = (0..<(3 * 6 * 30)).lazy.map { Double($0) / 30 }.first { dt in
                abs(offset(scroll, appear + dt) - offset(atZero, dt)) > 1e-6
            }
            XCTAssertNil(
                differing.map { dt in
                    "at appear + \(dt) s: offset \(offset(scroll, appear + dt)), appearing at 0: \(offset(atZero, dt))"
                }, name)
        }
        XCTAssertEqual(offset(late, 2.7 + 3.9), -100, accuracy: 1e-6, "one page on, at rest")
    }

    /// The showcase's carousel, between its appear and its disappear: no frame
    /// moves its cards further than the fastest frame of a one-page advance. Counted from t = 0,
    /// its sixth advance (8.4 s) whipped from the last card back to the first at about a card a
    /// frame, straight into the twirl-out.
    func testShowcaseCarouselNeverWhipsBeforeItsTwirlOut() throws {
        let job = try JobFiles.load(
            file: Fixture.repositoryRoot.appendingPathComponent("jobs/showcase.json").path)
        let node = try XCTUnwrap(job.layers.first { $0.content is ScrollLayer })
        let scroll = try XCTUnwrap(node.content as? ScrollLayer)
        let lifetime = try XCTUnwrap(node.lifetime)
        let (appear, disappear) = (try XCTUnwrap(lifetime.appear), try XCTUnwrap(lifetime.disappear))
        let canvas = Canvas(width: job.output.width, height: job.output.height)
        func offset(_ frame: Int) -> Double {
            let t = job.output.time(ofFrame: frame)
            let sizes = node.children.map { $0.layoutSize(at: t, canvas: canvas) }
            return scroll.layout(sizes, viewport: scroll.viewportSize(at: t, canvas: canvas), at: t)[0].origin
                .x
        }
        /// The largest move from one frame to the next between two times.
        func largestStep(from start: Double, to end: Double) -> (step: Double, at: Double) {
            var largest = (step: 0.0, at: start)
            let frames = (0..<job.output.frameCount).filter {
                job.output.time(ofFrame: $0) >= start && job.output.time(ofFrame: $0 + 1) <= end
            }
            for frame in frames {
                let step = abs(offset(frame + 1) - offset(frame))
                if step > largest.step { largest = (step, job.output.time(ofFrame: frame + 1)) }
            }
            return largest
        }
        // The first advance is one page: the speed a page turn has.
        let onePage = largestStep(from: appear + scroll.advanceEvery, to: appear + 2 * scroll.advanceEvery)
            .step
        XCTAssertGreaterThan(onePage, 10, "the first advance moves")
        let whole = largestStep(from: appear, to: disappear)
        XCTAssertLessThanOrEqual(
            whole.step, onePage * 1.001,
            "the cards move \(Int(whole.step)) px in the frame to \(whole.at) s; a page turn moves at most \(Int(onePage))"
        )
    }

    /// The showcase as a viewer sees it, outside the time windows of its transitions (each
    /// layer's entrance and removal, until its animation settles): no frame differs from the one
    /// before by more than a page turn of the carousel does. A whip through the pages, a card
    /// popping in or out, or a layer jumping shows as a spike in the mean absolute difference
    /// between consecutive frames (measured on an eighth-size draft, over r, g and b).
    func testShowcaseLargestFrameToFrameChangeOutsideTransitionsIsBounded() throws {
        let showcase = Fixture.repositoryRoot.appendingPathComponent("jobs/showcase.json")
        let (largest, measured) = try largestFrameChangeOutsideTransitions(
            try JobFiles.load(file: showcase.path))
        XCTAssertGreaterThan(measured, 120, "most of the film lies outside the transitions")
        XCTAssertGreaterThan(largest.change, 5, "the page turns are measured")
        XCTAssertLessThanOrEqual(
            largest.change, 20, "mean change \(largest.change) in the frame at \(largest.at) s")

        // The measure is not blind: the same carousel turning a page in 0.1 s instead of 0.7 s
        // (a card in three frames, still far slower than the old whip back to the first card).
        let text = try String(contentsOf: showcase, encoding: .utf8)
        let fast = text.replacingOccurrences(of: #""advanceDuration": 0.7"#, with: #""advanceDuration": 0.1"#)
        XCTAssertNotEqual(fast, text)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "showcase-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createSymbolicLink(
            at: folder.appendingPathComponent("showcase"),
            withDestinationURL: showcase.deletingLastPathComponent().appendingPathComponent("showcase"))
        let file = folder.appendingPathComponent("showcase.json")
        try fast.write(to: file, atomically: true, encoding: .utf8)
        let whipping = try largestFrameChangeOutsideTransitions(try JobFiles.load(file: file.path)).largest
        XCTAssertGreaterThan(whipping.change, 20, "a fast page turn at \(whipping.at) s")
    }

    /// The largest mean absolute difference of r, g and b between consecutive frames of an
    /// eighth-size draft of `job`, leaving out every layer's entrance and removal until its
    /// animation settles; and how many frame pairs were measured.
    private func largestFrameChangeOutsideTransitions(_ full: Job) throws -> (
        largest: (change: Double, at: Double), measured: Int
    ) {
        let job = try full.drafted(Draft(size: .scale(0.125)))
        var transitions: [ClosedRange<Double>] = []
        func collect(_ nodes: [LayerNode]) {
            for node in nodes {
                if let lifetime = node.lifetime {
                    for start in [lifetime.appear, lifetime.disappear].compactMap({ $0 }) {
                        transitions.append(start...(start + lifetime.settleTime))
                    }
                }
                collect(node.children)
            }
        }
        collect(job.layers)
        let output = job.output
        let canvas = Canvas(output: output)
        let renderer = SceneRenderer(job: job, canvas: canvas, threads: 2)
        let rgba = RGBA8Frame(width: canvas.width, height: canvas.height)
        var largest = (change: 0.0, at: 0.0), measured = 0
        var previous: [UInt8]?
        for frame in 0..<output.frameCount {
            let time = output.time(ofFrame: frame)
            guard !transitions.contains(where: { $0.contains(time) }) else {
                previous = nil
                continue
            }
            renderer.render(at: time, yuv: nil, rgba: rgba)
            let bytes = rgba.byteArray
            if let previous {
                var sum = 0
                for i in stride(from: 0, to: bytes.count, by: 4) {
                    for c in 0..<3 { sum += abs(Int(bytes[i + c]) - Int(previous[i + c])) }
                }
                let change = Double(sum) / Double(bytes.count / 4 * 3)
                measured += 1
                if change > largest.change { largest = (change, time) }
            }
            previous = bytes
        }
        return (largest, measured)
    }

    /// A spring advance moves until it has settled (within 0.1 % of a page), then stands exactly
    /// on the page, so the items stop changing until the next advance.
    func testSpringAdvanceComesExactlyToRest() {
        let spring = TransitionAnimation.spring(Spring(duration: 0.7, bounce: 0.15))
        let scroll = ScrollLayer(
            size: nil, spacing: .constant(0), padding: .constant(0), advanceEvery: 1.4, advance: spring,
            loops: true)
        let sizes = Array(repeating: SIMD2<Double>(464, 100), count: 3)
        func first(_ t: Double) -> Double {
            scroll.layout(sizes, viewport: SIMD2(464, 100), at: t)[0].origin.x
        }
        let settle = spring.settleTime
        XCTAssertGreaterThan(settle, 0.7)
        XCTAssertLessThan(settle, 1.4)
        // Still moving a frame before it settles, under a pixel from the page.
        let before = first(1.4 + settle - 1.0 / 30)
        XCTAssertNotEqual(before, -464)
        XCTAssertEqual(before, -464, accuracy: 1)
        for t in stride(from: 1.4 + settle, to: 2.8, by: 1.0 / 30) {
            XCTAssertEqual(first(t), -464, "at rest at \(t) s")
        }
    }

    /// A card in a scroll whose item rotates with its phase: the rotation follows the layout.
    func testScrollTransitionDrivesItemPropertiesFromThePhase() throws {
        let job = try Fixture.job(
            """
            {"kiln": 1, "output": {"width": 200, "height": 100, "fps": 30, "duration": 1},
             "layers": [{"type": "solid", "color": "#000000"},
               {"type": "scroll", "size": [200, 100], "spacing": 0, "offset": 50,
                "layers": [
                  {"type": "shape", "size": [100, 100], "fill": "#ffffff",
                   "scrollTransition": {"opacity": [[-1, 0], [0, 1], [1, 0]]}},
                  {"type": "shape", "size": [100, 100], "fill": "#ffffff",
                   "scrollTransition": {"opacity": [[-1, 0], [0, 1], [1, 0]]}},
                  {"type": "shape", "size": [100, 100], "fill": "#ffffff",
                   "scrollTransition": {"opacity": [[-1, 0], [0, 1], [1, 0]]}}]}]}
            """)
        let frame = Fixture.render(job)
        // Item 0 is half out past the leading edge (phase −0.5, opacity 0.5), item 1 fully in,
        // item 2 half out past the trailing edge; the viewport clips the rest.
        XCTAssertEqual(Int(frame.pixel(x: 25, y: 50).x), 128, accuracy: 2)
        XCTAssertEqual(frame.pixel(x: 100, y: 50).x, 255)
        XCTAssertEqual(Int(frame.pixel(x: 175, y: 50).x), 128, accuracy: 2)
    }

    func testVisualEffectReadsTheOnScreenPosition() throws {
        let job = try Fixture.job(
            """
            {"kiln": 1, "output": {"width": 100, "height": 400, "fps": 30, "duration": 1},
             "layers": [{"type": "solid", "color": "#000000"},
               {"type": "stack", "axis": "vertical", "spacing": 0, "layers": [
                 {"type": "shape", "size": [100, 100], "fill": "#ffffff", "visualEffect": {"opacity": {"of": "minY", "times": 0.0025}}},
                 {"type": "shape", "size": [100, 100], "fill": "#ffffff", "visualEffect": {"opacity": {"of": "minY", "times": 0.0025}}},
                 {"type": "shape", "size": [100, 100], "fill": "#ffffff", "visualEffect": {"opacity": {"of": "minY", "times": 0.0025}}},
                 {"type": "shape", "size": [100, 100], "fill": "#ffffff", "visualEffect": {"opacity": {"of": "minY", "times": 0.0025}}}]}]}
            """)
        let frame = Fixture.render(job)
        for row in 0..<4 {
            XCTAssertEqual(
                Double(frame.pixel(x: 50, y: row * 100 + 50).x), Double(row) * 0.25 * 255, accuracy: 1.5,
                "row \(row)")
        }
    }

    /// With several items in view, pages stop at the first one that reaches the end of the
    /// content, so a looping advance never spends steps standing still.
    func testAutomaticAdvanceCountsOnlyPagesThatMove() {
        let scroll = ScrollLayer(
            size: nil, spacing: .constant(0), padding: .constant(0), advanceEvery: 1,
            advance: .eased(duration: 0.5, easing: .linear), loops: true)
        let sizes = Array(repeating: SIMD2<Double>(100, 100), count: 5)
        func first(_ t: Double) -> Double {
            scroll.layout(sizes, viewport: SIMD2(300, 100), at: t)[0].origin.x
        }
        // Content 500 wide in a 300-pixel viewport: offsets 0, 100, 200, then back to 0.
        XCTAssertEqual([1.5, 2.5, 3.5].map(first), [-100, -200, 0])
    }

    func testAdvanceLongerThanItsIntervalIsAnError() {
        XCTAssertThrowsError(
            try Fixture.job(
                """
                {"kiln": 1, "output": {"width": 64, "height": 64, "fps": 30, "duration": 1},
                 "layers": [{"type": "scroll", "advanceEvery": 1, "advanceDuration": 2, "layers": []}]}
                """)
        ) { error in
            XCTAssertTrue(
                "\(error)".contains("layers[0].advanceDuration: advanceDuration (2.0 s) must not exceed"),
                "\(error)")
        }
    }

    /// Viewport paging scrolls by whole viewport lengths, clamped at the end of the content;
    /// without `loop` the automatic advance stays on the last page.
    func testViewportPagingAndAdvanceWithoutLoop() {
        let sizes = Array(repeating: SIMD2<Double>(100, 100), count: 5)
        func first(_ scroll: ScrollLayer, _ t: Double) -> Double {
            scroll.layout(sizes, viewport: SIMD2(200, 100), at: t)[0].origin.x
        }
        let paged = ScrollLayer(
            size: nil, spacing: .constant(0), padding: .constant(0), page: .constant(1.5), paging: .viewport)
        XCTAssertEqual(first(paged, 0), -300)
        let end = ScrollLayer(
            size: nil, spacing: .constant(0), padding: .constant(0), page: .constant(2), paging: .viewport)
        XCTAssertEqual(first(end, 0), -300, "content 500 wide in a 200 viewport ends at offset 300")
        let advancing = ScrollLayer(
            size: nil, spacing: .constant(0), padding: .constant(0), paging: .viewport, advanceEvery: 1,
            advance: .eased(duration: 0.5, easing: .linear), loops: false)
        XCTAssertEqual([1.5, 2.5, 3.5, 9].map { first(advancing, $0) }, [-200, -300, -300, -300])
    }
}
