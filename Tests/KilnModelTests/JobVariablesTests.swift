import Foundation
import KilnModel
import XCTest

/// `variables`, `{"var": …}`, `${…}` and output path templates.
final class JobVariablesTests: XCTestCase {
    static let job = """
        {"kiln": 1,
         "variables": {"title": "Hello", "accent": {"type": "color", "default": "#ff0000"},
                       "speed": {"type": "number", "default": 2, "min": 0, "max": 10},
                       "photo": {"type": "path", "default": "photos/a.png"}},
         "output": {"path": "out/{job}-{title}-{date}-{time}.mp4", "width": 64, "height": 64, "fps": 30,
                    "duration": {"var": "speed"}},
         "layers": [{"type": "solid", "color": {"var": "accent"}, "name": "${title}, at ${speed}x"}]}
        """

    private func decode(_ json: String = job, _ variables: [String: String] = [:]) throws(JobLoadError) -> Job
    {
        var utc = OutputTemplate(
            date: Date(timeIntervalSince1970: 1_800_000_000), timeZone: TimeZone(identifier: "UTC")!)
        utc.extra = ["schedule": "nightly"]
        return try JobLoader.decode(
            bytes: Array(json.utf8), file: "jobs/promo.json",
            baseDirectory: URL(fileURLWithPath: "/work/jobs"),
            kinds: testKinds, options: JobLoadOptions(variables: variables, outputTemplate: utc))
    }

    private func errors(_ json: String = job, _ variables: [String: String] = [:]) -> [String] {
        do {
            _ = try decode(json, variables)
            XCTFail("expected errors")
            return []
        } catch {
            guard case .invalid(let diagnostics) = error else { return ["\(error)"] }
            return diagnostics.map { "\($0.path): \($0.message)" }
        }
    }

    func testDefaultsFillReferencesAndTheOutputTemplate() throws {
        let job = try decode()
        XCTAssertEqual(job.output.frameCount, 60, "duration from the number variable")
        XCTAssertEqual(
            (job.layers[0].content as? SolidContent)?.color.value(at: 0), RGBA(r: 1, g: 0, b: 0, a: 1))
        XCTAssertEqual(job.layers[0].name, "Hello, at 2x")
        XCTAssertEqual(job.output.path.path, "/work/jobs/out/promo-Hello-2027-01-15-080000.mp4")
    }

    func testOverridesReplaceDefaultsAndAreSanitisedInPaths() throws {
        let job = try decode(Self.job, ["title": "../../etc/x", "speed": "1.5", "accent": "#00ff00"])
        XCTAssertEqual(job.output.frameCount, 45)
        XCTAssertEqual(
            (job.layers[0].content as? SolidContent)?.color.value(at: 0), RGBA(r: 0, g: 1, b: 0, a: 1))
        // "/" cannot pass through a value, so it cannot leave out/.
        XCTAssertEqual(job.output.path.path, "/work/jobs/out/promo--..-etc-x-2027-01-15-080000.mp4")
    }

    func testBadOverridesNameTheVariable() {
        let found = errors(Self.job, ["speed": "fast", "titel": "x", "accent": "reddish"])
        XCTAssertTrue(
            found.contains("variables.speed: value 'fast' for variable 'speed': expected a number"),
            "\(found)")
        XCTAssertTrue(
            found.contains {
                $0.hasPrefix("variables.titel: no variable 'titel' in this job; did you mean 'title'?")
            },
            "\(found)")
        XCTAssertTrue(found.contains { $0.hasPrefix("variables.accent: value 'reddish'") }, "\(found)")
        XCTAssertTrue(
            errors(Self.job, ["speed": "11"]).contains(
                "variables.speed: value '11' for variable 'speed': expected 0…10"))
    }

    func testUnknownReferencesAndBadDeclarations() {
        let json = """
            {"kiln": 1, "variables": {"1st": "x", "mode": {"type": "enum", "default": "a"}, "size": {"type": "number", "default": "big"}},
             "output": {"path": "{nope}.mp4", "width": 64, "height": 64, "fps": 30, "duration": 1},
             "layers": [{"type": "solid", "color": {"var": "colour"}, "name": "${who}"}]}
            """
        let found = errors(json)
        XCTAssertTrue(found.contains { $0.hasPrefix(#"variables["1st"]: variable names are"#) }, "\(found)")
        XCTAssertTrue(found.contains { $0.hasPrefix("variables.mode.type: expected 'type'") }, "\(found)")
        XCTAssertTrue(
            found.contains { $0.hasPrefix("variables.size.default: default 'big': expected a number") },
            "\(found)")
        XCTAssertTrue(
            found.contains { $0.hasPrefix("layers[0].color.var: unknown variable 'colour'") }, "\(found)")
        XCTAssertTrue(found.contains { $0.hasPrefix("layers[0].name: unknown variable 'who'") }, "\(found)")
        XCTAssertTrue(found.contains { $0.hasPrefix("output.path: unknown name '{nope}'") }, "\(found)")
        XCTAssertEqual(found.count, 6, "no follow-on complaints about the unresolved reference: \(found)")
    }

    func testJobsWithoutVariablesAreUnchanged() throws {
        let json =
            ##"{"kiln": 1, "output": {"width": 64, "height": 64, "fps": 30, "duration": 1}, "layers": [{"type": "solid", "color": "#000000", "name": "cost: ${5}"}]}"##
        XCTAssertEqual(
            errors(json).first, "layers[0].name: unknown variable '5' (no variables are declared)")
        let plain =
            #"{"kiln": 1, "output": {"width": 64, "height": 64, "fps": 30, "duration": 1}, "layers": []}"#
        XCTAssertEqual(try decode(plain).output.path.path, "/work/jobs/promo.mp4")
    }
}
