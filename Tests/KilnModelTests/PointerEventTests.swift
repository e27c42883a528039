import Foundation
import KilnModel
import KilnTestSupport
import XCTest

/// The event log's two formats and their errors, and the smoothed path through the events.
final class PointerEventTests: XCTestCase {
    func length(_ v: SIMD2<Double>) -> Double { (v * v).sum().squareRoot() }

    func parse(_ text: String, file: String, limits: ResourceLimits? = nil) throws(PointerEventError)
        -> PointerEventLog
    {
        try PointerEventParser.parse(Array(text.utf8), file: file, limits: limits)
    }

    func error(_ text: String, file: String, limits: ResourceLimits? = nil) -> String {
        do {
            _ = try parse(text, file: file, limits: limits)
            return "parsed"
        } catch {
            return error.description
        }
    }

    func testJSONArrayObjectAndCSVReadTheSameLog() throws {
        let array = """
            [{"t": 0, "x": 100, "y": 200, "kind": "move"},
             {"t": 0.5, "x": 300, "y": 220, "kind": "click"},
             {"t": 0.9, "kind": "key", "key": "⌘K"},
             {"t": 1.2, "x": 320, "y": 240, "kind": "drag"},
             {"t": 1.4, "x": 400, "y": 260, "kind": "drag"},
             {"t": 2, "x": 500, "y": 500, "kind": "tap"}]
            """
        let csv = """
            t,x,y,kind,key
            0,100,200,move
            0.5,300,220,click,
            0.9,,,key,⌘K
            1.2,320,240,drag,
            # a comment
            1.4,400,260,drag,

            2,500,500,tap,
            """
        let a = try parse(array, file: "log.json")
        let b = try parse("{\"events\": \(array)}", file: "log.txt")
        let c = try parse(csv, file: "log.csv")
        XCTAssertEqual(a, b)
        XCTAssertEqual(a, c)
        XCTAssertEqual(a.events.count, 6)
        XCTAssertEqual(a.events[2].key, "⌘K")
        XCTAssertNil(a.events[2].position)
        XCTAssertEqual(a.presses.map(\.time), [0.5, 1.2, 2])
        XCTAssertEqual(a.drags, [1.2...1.4])
        // A quoted CSV field holds a comma.
        let quoted = try parse("t,x,y,kind,key\n1,,,key,\"⌘,\"\n", file: "k.csv")
        XCTAssertEqual(quoted.events.first?.key, "⌘,")
    }

    func testErrorsNameTheFileTheLineAndTheJSONPath() {
        let json = """
            {"events": [
              {"t": 0, "x": 1, "y": 2, "kind": "move"},
              {"t": 1, "x": 1, "y": 2, "kind": "clik"}
            ]}
            """
        XCTAssertEqual(
            error(json, file: "log.json"),
            "log.json:3:36: events[1].kind: unknown kind 'clik'; expected one of move, click, tap, drag, key; "
                + "did you mean 'click'?")
        XCTAssertEqual(
            error("[{\"t\": 0, \"x\": 1e308, \"y\": 2, \"kind\": \"move\"}]", file: "big.json"),
            "big.json:1:16: [0].x: expected a number of pixels in -65536…65536, got 1e+308")
        XCTAssertEqual(
            error("[{\"t\": 1, \"x\": 1, \"y\": 2, \"kind\": \"move\", \"when\": 3}]", file: "k.json"),
            "k.json:1:43: [0].when: unknown key 'when'; expected t, x, y, kind and key")
        XCTAssertEqual(
            error("t,x,y,kind\n0,1,2,move\n1,nan,2,click\n", file: "log.csv"),
            "log.csv:3: x: expected a number of pixels in -65536…65536, got nan")
        XCTAssertEqual(
            error("t,x,y,kind\n2,1,2,move\n1,1,2,click\n", file: "log.csv"),
            "log.csv:3: t: expected events in time order, got 1 after 2")
        XCTAssertEqual(
            error("t,x,y,kind\n1,1,2,move\n1,5,2,click\n", file: "log.csv"),
            "log.csv:3: t: two events place the pointer at 1 s; expected a later time")
        XCTAssertEqual(
            error("t,x,y,kind,key\n1,,,key,\n", file: "log.csv"),
            "log.csv:2: key: expected the key's text for a key event, e.g. \"⌘K\"")
        XCTAssertEqual(
            error("time,x,y\n", file: "log.csv"),
            "log.csv:1: expected the header t,x,y,kind or t,x,y,kind,key, got a line of 3 fields")
        XCTAssertEqual(
            error("t,x,y,kind\n1,2,3\n", file: "log.csv"), "log.csv:2: expected 4 fields (t,x,y,kind), got 3")
        let limits = try? ResourceLimits(overrides: ["event-log-events": 2])
        XCTAssertEqual(
            error("t,x,y,kind\n0,1,1,move\n1,1,1,move\n2,1,1,move\n", file: "n.csv", limits: limits),
            "n.csv:4: the number of events is 3, over the limit event-log-events = 2 "
                + "(raise it with --limit event-log-events=N)")
        let bytes = try? ResourceLimits(overrides: ["event-log-bytes": 10])
        XCTAssertTrue(
            error("t,x,y,kind\n0,1,1,move\n", file: "b.csv", limits: bytes).hasPrefix(
                "b.csv: the event log's size"))
    }

    /// A log of moves, clicks and drags at random times: the path is at each event's position at
    /// its time, and between two events it stays within their box on each axis (no overshoot,
    /// no loop: a monotone curve).
    func testThePathPassesEveryEventAtItsTimeAndNeverOvershoots() {
        var random = SplitMix(state: 39)
        var events: [PointerEvent] = []
        var time = 0.0
        let kinds: [PointerEvent.Kind] = [.move, .move, .move, .click, .drag, .drag, .tap]
        for _ in 0..<400 {
            time += Double.random(in: 0.01...1.5, using: &random)
            events.append(
                PointerEvent(
                    time: time,
                    position: SIMD2(
                        Double.random(in: 0...1920, using: &random),
                        Double.random(in: 0...1080, using: &random)),
                    kind: kinds.randomElement(using: &random)!))
        }
        let path = PointerPath(events: events, moveDuration: 0.6)
        for event in events {
            let p = path.position(at: event.time)!
            XCTAssertLessThanOrEqual(length(p - event.position!), 1e-9, "t=\(event.time)")
        }
        for (a, b) in zip(events, events.dropFirst()) {
            let low = pointwiseMin(a.position!, b.position!) - 1e-9
            let high = pointwiseMax(a.position!, b.position!) + 1e-9
            for step in 1..<20 {
                let p = path.position(at: a.time + (b.time - a.time) * Double(step) / 20)!
                XCTAssertTrue(all(p .>= low) && all(p .<= high), "between \(a.time) and \(b.time): \(p)")
            }
        }
        // It rests at a click: the velocity there is zero (equal positions a hair either side).
        let click = events.first { $0.kind == .click }!
        let before = path.position(at: click.time - 1e-5)!, after = path.position(at: click.time + 1e-5)!
        XCTAssertLessThan(length(after - before), 1e-3)
    }

    func testAMoveAfterALongPauseWaitsThenTakesMoveDuration() {
        let events = [
            PointerEvent(time: 0, position: SIMD2(0, 0), kind: .click),
            PointerEvent(time: 5, position: SIMD2(100, 0), kind: .click),
        ]
        let path = PointerPath(events: events, moveDuration: 0.5)
        XCTAssertEqual(path.position(at: 4.5)!, SIMD2(0, 0))
        XCTAssertEqual(path.position(at: 4.75)!.x, 50, accuracy: 1e-9)
        XCTAssertEqual(path.position(at: 5)!, SIMD2(100, 0))
    }

    func testIndicatorsStartAtTheirPressAndBadgesReplaceEachOther() throws {
        let log = try parse(
            "t,x,y,kind,key\n1,10,10,click,\n2,,,key,A\n2.5,,,key,B\n", file: "l.csv")
        let timeline = PointerTimeline(log: log, ringDuration: 0.5, keyDuration: 1)
        XCTAssertTrue(timeline.indicators(at: 0.999).isEmpty)
        XCTAssertEqual(timeline.indicators(at: 1).map(\.age), [0])
        XCTAssertEqual(timeline.indicators(at: 1.25).map(\.age), [0.25])
        XCTAssertTrue(timeline.indicators(at: 1.5).isEmpty)
        XCTAssertEqual(timeline.press(at: 1), 1)
        XCTAssertEqual(timeline.press(at: 0.5), 0)
        XCTAssertNil(timeline.badge(at: 1.9))
        XCTAssertEqual(timeline.badge(at: 2.2)?.event.key, "A")
        XCTAssertEqual(timeline.badge(at: 2.6)?.event.key, "B")
        XCTAssertNil(timeline.badge(at: 3.5))
    }
}
