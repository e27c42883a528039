import Foundation
import KilnWorker
import XCTest

/// The configuration file: roots relative to the file, `limits` kept for the limits code, any
/// other key refused by name.
final class KilnConfigurationTests: XCTestCase {
    func testRootsAreResolvedAgainstTheFileAndLimitsArePassedThrough() throws {
        let configuration = try KilnConfiguration.parse(
            Array(
                #"{"assetRoots": ["media", "/srv/shared"], "outputRoots": ["../out"], "limits": {"maxFrames": 9000, "maxTextLength": 2e4}}"#
                    .utf8),
            file: "/etc/kiln/config.json")
        XCTAssertEqual(configuration.assetRoots, ["/etc/kiln/media", "/srv/shared"])
        XCTAssertEqual(configuration.outputRoots, ["/etc/out"])
        XCTAssertEqual(configuration.limitOverrides, ["maxFrames": 9000, "maxTextLength": 20000])
    }

    func testUnknownKeysAndWrongShapesAreRefusedByName() {
        let cases = [
            #"{"assetRoot": ["a"]}"#: "unknown key 'assetRoot'",
            #"{"assetRoots": "a"}"#: "'assetRoots' must be an array of directory paths",
            #"{"limits": {"maxFrames": "many"}}"#: "limits.maxFrames must be a finite number",
            #"[1]"#: "expected a JSON object",
            #"{"#: "not valid JSON",
        ]
        for (text, message) in cases {
            XCTAssertThrowsError(try KilnConfiguration.parse(Array(text.utf8), file: "c.json"), text) {
                error in
                XCTAssertTrue("\(error)".contains(message), "\(text): \(error)")
                XCTAssertTrue("\(error)".hasPrefix("c.json: "), "\(error)")
            }
        }
    }

    func testAMissingDefaultFileIsAnEmptyConfigurationButAMissingExplicitOneIsAnError() throws {
        let empty = try KilnConfiguration.load(
            explicit: nil, environment: ["XDG_CONFIG_HOME": "/nonexistent"])
        XCTAssertEqual(empty, KilnConfiguration())
        XCTAssertThrowsError(try KilnConfiguration.load(explicit: "/nonexistent/kiln.json"))
    }
}
