import Foundation
import KilnExport
import KilnModel
import KilnRaster
import XCTest

@testable import KilnScene

/// The `pointer` layer rendered: where its cursor is at each event's time, on which frame a
/// click's ring appears, threads and drafts.
final class PointerLayerTests: XCTestCase {
    /// A log in the temporary folder the fixture jobs resolve against; returns its name.
    static func writeLog(_ text: String, name: String) throws -> String {
        let file = "pointer-test-\(ProcessInfo.processInfo.processIdentifier)-\(name)"
        try Data(text.utf8).write(
            to: URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent(file))
        return file
    }

    static let log = """
        t,x,y,kind,key
        0.2,200,150,move,
        0.5,260,170,move,
        0.8,340,200,click,
        1.1,420,260,move,
        1.3,500,300,drag,
        1.5,560,320,drag,
        1.8,600,180,tap,
        2.0,,,key,⌘K
        2.4,300,300,click,
        """

    static func job(_ log: String, layer: String, width: Int = 640, height: Int = 360, fps: Int = 30) throws
        -> Job
    {
        try Fixture.job(
            """
            {"kiln": 1, "output": {"width": \(width), "height": \(height), "fps": \(fps), "duration": 3},
             "layers": [{"type": "solid", "color": "#000000"},
                        {"type": "pointer", "events": "\(log)", \(layer)}]}
            """)
    }

    /// The red dot's centre of coverage: the red channel's centroid (the ring is green).
    static func redCentroid(_ frame: RGBA8Frame) -> SIMD2<Double>? {
        var sum = SIMD2<Double>.zero, weight = 0.0
        for y in 0..<frame.height {
            for x in 0..<frame.width {
                let r = Double(frame.pixel(x: x, y: y)[0])
                guard r > 0 else { continue }
                sum += SIMD2(Double(x) + 0.5, Double(y) + 0.5) * r
                weight += r
            }
        }
        return weight > 0 ? sum / weight : nil
    }

    func testTheCursorIsWithinOnePixelOfEachEventAtItsTime() throws {
        let name = try Self.writeLog(Self.log, name: "follow.csv")
        let job = try Self.job(
            name,
            layer: """
                "style": "touch", "size": 24, "color": "#ff0000", "outline": [0, 0, 0, 0],
                "shadow": [0, 0, 0, 0], "ringColor": "#00ff00", "show": "pointer"
                """)
        let log = try PointerEventParser.parse(Array(Self.log.utf8), file: "log.csv")
        for event in log.events where event.position != nil {
            let centre = try XCTUnwrap(Self.redCentroid(Fixture.render(job, at: event.time)))
            let off = centre - event.position!
            XCTAssertLessThanOrEqual(
                (off * off).sum().squareRoot(), 1, "\(event.kind) at \(event.time): \(centre)")
        }
    }

    /// The ring is on the first frame at or after the click (frame 25 of a click at 0.81 s at
    /// 30 fps: 0.8333 s), and on no frame before.
    func testAClickRingStartsOnTheClicksFrame() throws {
        let name = try Self.writeLog("t,x,y,kind\n0,100,100,move\n0.81,320,180,click\n", name: "ring.csv")
        let job = try Self.job(
            name, layer: "\"ringColor\": \"#00ff00\", \"ringRadius\": 40, \"shadow\": [0, 0, 0, 0]")
        func greenPixels(frame: Int) -> Int {
            let picture = Fixture.render(job, at: Double(frame) / 30)
            var count = 0
            for y in 0..<picture.height {
                for x in 0..<picture.width {
                    let p = picture.pixel(x: x, y: y)
                    if p[1] > 60 && p[0] < 30 { count += 1 }
                }
            }
            return count
        }
        XCTAssertEqual(greenPixels(frame: 23), 0)
        XCTAssertEqual(greenPixels(frame: 24), 0)
        XCTAssertGreaterThan(greenPixels(frame: 25), 40)
        XCTAssertGreaterThan(greenPixels(frame: 30), 40)
        // Gone once ringDuration (0.55 s) has passed: frame 42 is 1.4 s.
        XCTAssertEqual(greenPixels(frame: 42), 0)
    }

    static let fullJobLayer = """
        "style": "arrow", "size": 40, "keySize": 30, "keyBottom": 40
        """

    func testOneThreadAndManyThreadsGiveIdenticalBytes() throws {
        let job = try Self.job(try Self.writeLog(Self.log, name: "threads.csv"), layer: Self.fullJobLayer)
        for time in [0.0, 0.85, 1.4, 1.85, 2.1, 2.45] {
            let reference = Fixture.renderYUV(job, at: time, threads: 1)
            for threads in [2, 5] {
                XCTAssertEqual(
                    reference, Fixture.renderYUV(job, at: time, threads: threads), "t=\(time) \(threads)")
            }
        }
    }

    func testADraftIsTheFullFrameBoxFiltered() throws {
        let job = try Self.job(
            try Self.writeLog(Self.log, name: "draft.csv"), layer: Self.fullJobLayer, width: 1280, height: 720
        )
        let draft = try job.drafted(Draft(size: .scale(0.5)))
        for time in [0.85, 1.4, 1.85, 2.1, 2.45] {
            let result = DraftRenderTests.compare(
                draft: Fixture.render(draft, at: time), full: Fixture.render(job, at: time), factor: 2)
            XCTAssertLessThanOrEqual(result.mean, DraftRenderTests.meanTolerance, "t=\(time): mean error")
            XCTAssertLessThanOrEqual(
                result.farOffShare, DraftRenderTests.farOffShare, "t=\(time): far-off share")
        }
    }

    /// Without events the layer's own keyframed position places the tip, and `clicks` press it.
    func testKeyframesPlaceTheCursorAndClicksRingIt() throws {
        let job = try Fixture.job(
            """
            {"kiln": 1, "output": {"width": 320, "height": 180, "fps": 30, "duration": 2},
             "layers": [{"type": "pointer", "style": "touch", "size": 20, "color": "#ff0000",
                         "outline": [0, 0, 0, 0], "shadow": [0, 0, 0, 0], "ringColor": "#00ff00", "clicks": [1],
                         "position": {"keyframes": [{"t": 0, "v": [40, 40]}, {"t": 1, "v": [200, 120], "ease": "easeInOut"}]}}]}
            """)
        let centre = try XCTUnwrap(Self.redCentroid(Fixture.render(job, at: 1)))
        XCTAssertEqual(centre.x, 200, accuracy: 0.5)
        XCTAssertEqual(centre.y, 120, accuracy: 0.5)
        let picture = Fixture.render(job, at: 1.1)
        XCTAssertTrue((0..<picture.width).contains { picture.pixel(x: $0, y: 120)[1] > 60 })
    }

    func testBadLogsAreDiagnosedAtTheLayersPath() throws {
        let name = try Self.writeLog("t,x,y,kind\n0,1,1,move\n1,inf,1,click\n", name: "bad.csv")
        XCTAssertThrowsError(try Self.job(name, layer: "\"size\": 30")) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains("layers[1].events"), text)
            XCTAssertTrue(text.contains("\(name):3: x: expected a number of pixels"), text)
        }
    }
}
