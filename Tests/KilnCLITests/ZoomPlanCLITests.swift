import Foundation
import XCTest

/// `kiln zoom-plan` end to end: a log in, a camera out that a job takes as it is, with every
/// click inside the frame and its margin.
final class ZoomPlanCLITests: TemporaryDirectoryTestCase {
    static let log = """
        t,x,y,kind,key
        0.5,200,200,move,
        1.5,300,220,click,
        2.0,360,260,click,
        2.6,,,key,⌘S
        6.5,1000,600,move,
        7.0,1100,560,tap,
        7.6,1150,600,drag,
        7.9,1180,620,drag,
        9.0,640,360,click,
        """

    /// The keyframes' value at `t`, linearly: exact where the camera holds, which is where
    /// every action is.
    static func value(_ keyframes: [[String: Any]], at t: Double) -> [Double] {
        func v(_ k: [String: Any]) -> [Double] {
            if let n = k["v"] as? Double { return [n] }
            return (k["v"] as? [Double]) ?? []
        }
        guard let first = keyframes.first, let last = keyframes.last else { return [] }
        if t <= first["t"] as! Double { return v(first) }
        if t >= last["t"] as! Double { return v(last) }
        for (a, b) in zip(keyframes, keyframes.dropFirst()) {
            let ta = a["t"] as! Double, tb = b["t"] as! Double
            if t >= ta && t <= tb {
                let f = (t - ta) / (tb - ta)
                return zip(v(a), v(b)).map { $0 + ($1 - $0) * f }
            }
        }
        return v(last)
    }

    func testThePlanIsACameraThatKeepsEveryClickInsideItsMargin() throws {
        let events = directory.appendingPathComponent("events.csv")
        try Data(Self.log.utf8).write(to: events)
        let result = try KilnProcess.run([
            "zoom-plan", events.path, "--size", "1280x720", "--max-zoom", "2.5", "--margin", "60",
        ])
        XCTAssertEqual(result.status, 0, result.stderr)
        let root = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], result.stdout)
        let camera = try XCTUnwrap(root["camera"] as? [String: Any])
        let position = try XCTUnwrap((camera["position"] as? [String: Any])?["keyframes"] as? [[String: Any]])
        let zoom = try XCTUnwrap((camera["zoom"] as? [String: Any])?["keyframes"] as? [[String: Any]])
        XCTAssertGreaterThan(zoom.compactMap { $0["v"] as? Double }.max() ?? 0, 1.5, result.stdout)
        for line in Self.log.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            guard fields[3] != "move", let x = Double(fields[1]), let y = Double(fields[2]),
                let t = Double(fields[0])
            else { continue }
            let c = Self.value(position, at: t), z = Self.value(zoom, at: t)[0]
            let screen = [640 + (x - c[0]) * z, 360 + (y - c[1]) * z]
            XCTAssertTrue(
                screen[0] >= 59.9 && screen[0] <= 1220.1 && screen[1] >= 59.9 && screen[1] <= 660.1,
                "\(fields[3]) at \(t) is on screen at \(screen)\n\(result.stdout)")
        }
        // The output pasted into a job loads as its camera.
        let job = directory.appendingPathComponent("job.json")
        let cameraText = String(result.stdout.drop { $0 != ":" }.dropFirst()).trimmingCharacters(
            in: .whitespacesAndNewlines)
        try Data(
            """
            {"kiln": 1, "output": {"width": 1280, "height": 720, "fps": 30, "duration": 10},
             "camera": \(cameraText.dropLast()),
             "layers": [{"type": "pointer", "events": "events.csv"}]}
            """.utf8
        ).write(to: job)
        let validated = try KilnProcess.run(["validate", job.path])
        XCTAssertEqual(validated.status, 0, validated.stderr + validated.stdout)
    }

    func testMissingAndMalformedLogsAndHelp() throws {
        let missing = try KilnProcess.run(["zoom-plan", directory.appendingPathComponent("none.csv").path])
        XCTAssertEqual(missing.status, 66, missing.stderr)
        let bad = directory.appendingPathComponent("bad.json")
        try Data(
            "[{\"t\": 1, \"x\": 2, \"y\": 3, \"kind\": \"click\"},\n {\"t\": \"soon\", \"kind\": \"move\"}]"
                .utf8
        )
        .write(to: bad)
        let malformed = try KilnProcess.run(["zoom-plan", bad.path])
        XCTAssertEqual(malformed.status, 65, malformed.stderr)
        XCTAssertTrue(malformed.stderr.contains("bad.json:2:"), malformed.stderr)
        XCTAssertTrue(malformed.stderr.contains("[1].t: expected a number of seconds"), malformed.stderr)
        let usage = try KilnProcess.run(["zoom-plan", bad.path, "--max-zoom", "20"])
        XCTAssertEqual(usage.status, 64, usage.stderr)
        let help = try KilnProcess.run(["zoom-plan", "--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.contains("--min-hold"), help.stdout)
    }
}
