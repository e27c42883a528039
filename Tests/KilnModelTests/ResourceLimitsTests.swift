import KilnModel
import XCTest

final class ResourceLimitsTests: XCTestCase {
    func testOverridesReplaceDefaultsByName() throws {
        let limits = try ResourceLimits(overrides: ["frames": 100, "audio-seconds": 2.5])
        XCTAssertEqual(limits[.frames], 100)
        XCTAssertEqual(limits[.audioSeconds], 2.5)
        XCTAssertEqual(limits[.framePixels], ResourceLimits.Name.framePixels.defaultValue)
        XCTAssertEqual(ResourceLimits(), try ResourceLimits(overrides: [:]))
    }

    func testUnknownNamesAndBadValuesAreRefused() {
        XCTAssertThrowsError(try ResourceLimits(overrides: ["frame-pixel": 10])) { error in
            XCTAssertEqual(
                error as? ResourceLimitError, .unknownName("frame-pixel", suggestion: "frame-pixels"))
        }
        for bad in [0, -1, 1.5, .infinity, .nan] {
            XCTAssertThrowsError(try ResourceLimits(overrides: ["frames": bad]), "\(bad)")
        }
        XCTAssertThrowsError(try ResourceLimits.parseOverride("frames"))
        XCTAssertThrowsError(try ResourceLimits.parseOverride("frames=ten"))
        XCTAssertEqual(try ResourceLimits.parseOverride("frames=1e3").1, 1000)
    }

    func testViolationNamesTheLimitItsValueAndHowToRaiseIt() throws {
        let limits = try ResourceLimits(overrides: ["layers": 3])
        XCTAssertNil(limits.violation(.layers, 3, "layers"))
        XCTAssertEqual(
            limits.violation(.layers, 4, "the number of layers"),
            "the number of layers is 4, over the limit layers = 3 (raise it with --limit layers=N)")
    }

    func testParserCountsValuesBeforeBuildingTheTree() throws {
        let limits = try ResourceLimits(overrides: ["json-values": 4])
        XCTAssertNoThrow(try JSONParser.parse(Array("[1,2,3]".utf8), limits: limits))
        XCTAssertThrowsError(try JSONParser.parse(Array("[1,2,3,4]".utf8), limits: limits)) { error in
            let syntax = error as? JSONSyntaxError
            XCTAssertEqual(syntax?.location, SourceLocation(line: 1, column: 8))
            XCTAssertTrue(syntax?.message.contains("json-values = 4") ?? false, "\(error)")
        }
        let shallow = try ResourceLimits(overrides: ["json-depth": 2])
        XCTAssertNoThrow(try JSONParser.parse(Array("[[1]]".utf8), limits: shallow))
        XCTAssertThrowsError(try JSONParser.parse(Array("[[[1]]]".utf8), limits: shallow))
        let small = try ResourceLimits(overrides: ["json-bytes": 4])
        XCTAssertThrowsError(try JSONParser.parse(Array("[1,2]".utf8), limits: small))
    }
}
