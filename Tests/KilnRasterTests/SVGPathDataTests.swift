import KilnRaster
import XCTest

final class SVGPathDataTests: XCTestCase {
    func parse(_ text: String) throws -> [VectorPath.Element] { try SVGPathData.parse(text).elements }

    func failure(_ text: String) -> SVGPathSyntaxError? {
        do {
            _ = try SVGPathData.parse(text)
            return nil
        } catch { return error }
    }

    func testEachCommand() throws {
        XCTAssertEqual(try parse("M1 2L3 4"), [.move(SIMD2(1, 2)), .line(SIMD2(3, 4))])
        XCTAssertEqual(try parse("M1 2H5V7"), [.move(SIMD2(1, 2)), .line(SIMD2(5, 2)), .line(SIMD2(5, 7))])
        XCTAssertEqual(
            try parse("M0 0C1 1 2 2 3 3"),
            [.move(.zero), .cubic(control1: SIMD2(1, 1), control2: SIMD2(2, 2), to: SIMD2(3, 3))])
        XCTAssertEqual(
            try parse("M0 0Q1 1 2 0"), [.move(.zero), .quad(control: SIMD2(1, 1), to: SIMD2(2, 0))])
        XCTAssertEqual(try parse("M0 0L1 0Z"), [.move(.zero), .line(SIMD2(1, 0)), .close])
        let arc = try parse("M0 0A5 5 0 0 1 10 0")
        XCTAssertEqual(arc.count, 5)
        XCTAssertEqual(arc.last.flatMap { if case .cubic(_, _, let p) = $0 { p } else { nil } }, SIMD2(10, 0))
        XCTAssertEqual(try parse(""), [])
        XCTAssertEqual(try parse("  \n "), [])
    }

    func testSmoothReflections() throws {
        // S reflects the previous C's second control point about the current point.
        XCTAssertEqual(
            try parse("M0 0C0 1 2 1 2 0S4 -1 4 0"),
            [
                .move(.zero), .cubic(control1: SIMD2(0, 1), control2: SIMD2(2, 1), to: SIMD2(2, 0)),
                .cubic(control1: SIMD2(2, -1), control2: SIMD2(4, -1), to: SIMD2(4, 0)),
            ])
        // S after something else: the first control point is the current point.
        XCTAssertEqual(
            try parse("M0 0L1 0S2 1 3 0"),
            [
                .move(.zero), .line(SIMD2(1, 0)),
                .cubic(control1: SIMD2(1, 0), control2: SIMD2(2, 1), to: SIMD2(3, 0)),
            ])
        // T chains reflections, even through repeated T's; after a cubic it starts afresh.
        XCTAssertEqual(
            try parse("M0 0Q1 1 2 0T4 0T6 0"),
            [
                .move(.zero), .quad(control: SIMD2(1, 1), to: SIMD2(2, 0)),
                .quad(control: SIMD2(3, -1), to: SIMD2(4, 0)), .quad(control: SIMD2(5, 1), to: SIMD2(6, 0)),
            ])
        XCTAssertEqual(
            try parse("M0 0C1 1 1 1 2 0T4 0"),
            [
                .move(.zero), .cubic(control1: SIMD2(1, 1), control2: SIMD2(1, 1), to: SIMD2(2, 0)),
                .quad(control: SIMD2(2, 0), to: SIMD2(4, 0)),
            ])
    }

    func testRelativeEqualsAbsolute() throws {
        let absolute = try SVGPathData.parse(
            "M10 10 L20 10 H30 V20 C30 30 20 30 20 20 S10 10 10 20 Q5 25 10 30 T10 40 A5 5 0 0 1 20 40 Z L15 15"
        )
        let relative = try SVGPathData.parse(
            "m10 10 l10 0 h10 v10 c0 10 -10 10 -10 0 s-10 -10 -10 0 q-5 5 0 10 t0 10 a5 5 0 0 1 10 0 z l5 5")
        XCTAssertEqual(absolute.elements.count, relative.elements.count)
        for (a, r) in zip(absolute.elements, relative.elements) {
            XCTAssertEqual(a, r)
        }
    }

    func testImplicitRepeatsAndNumberForms() throws {
        // After M, extra pairs are lines (relative after m).
        XCTAssertEqual(
            try parse("m1 1 2 2 3 3"), [.move(SIMD2(1, 1)), .line(SIMD2(3, 3)), .line(SIMD2(6, 6))])
        XCTAssertEqual(
            try parse("M1,1L2,2,3,3"), [.move(SIMD2(1, 1)), .line(SIMD2(2, 2)), .line(SIMD2(3, 3))])
        XCTAssertEqual(try parse("M.5.5L-1-2"), [.move(SIMD2(0.5, 0.5)), .line(SIMD2(-1, -2))])
        XCTAssertEqual(try parse("M1e-3 2E2L+3.0e+1,0"), [.move(SIMD2(0.001, 200)), .line(SIMD2(30, 0))])
        XCTAssertEqual(try parse("M0.1 0.3"), [.move(SIMD2(0.1, 0.3))])
        guard case .move(let long) = try parse("M123456789012345678901234 1")[0] else {
            return XCTFail("no move")
        }
        XCTAssertEqual(long.x / 1.234_567_890_123_456_8e23, 1, accuracy: 1e-15)
        // Arc flags packed without separators: "110" is large 1, sweep 1, x 0.
        let packed = try parse("M0 0a5 5 0 110 10")
        let spaced = try parse("M0 0a5 5 0 1 1 0 10")
        XCTAssertEqual(packed, spaced)
        XCTAssertEqual(try parse("\tM 1 , 2\n\r L 3 4 z"), [.move(SIMD2(1, 2)), .line(SIMD2(3, 4)), .close])
    }

    func testErrorOffsetsAndMessages() {
        XCTAssertEqual(
            failure("M 10 20 L 30"), SVGPathSyntaxError(offset: 12, message: "expected a number after 'L'"))
        XCTAssertEqual(failure("L 1 2")?.offset, 0)
        XCTAssertEqual(failure("L 1 2")?.message, "path data must start with 'M' or 'm'")
        XCTAssertEqual(
            failure("M 1 2 X 3"),
            SVGPathSyntaxError(offset: 6, message: "expected a command letter or a number after 'M'"))
        XCTAssertEqual(
            failure("M0 0 A 5 5 0 2 0 1 1"),
            SVGPathSyntaxError(offset: 13, message: "expected an arc flag (0 or 1) after 'A'"))
        XCTAssertEqual(failure("M0 0 L 1e 2")?.offset, 9)
        XCTAssertEqual(failure("M0 0 Z 5")?.message, "expected a command letter after 'Z'")
        // Offsets count Unicode scalars, not bytes.
        XCTAssertEqual(failure("M0 0 L é")?.offset, 7)
        XCTAssertEqual(failure("M 1 2 L 1,, 2")?.offset, 10)
    }

    func testHostileInput() {
        XCTAssertEqual(failure("M NaN 0")?.offset, 2)
        XCTAssertEqual(failure("M 0 inf")?.offset, 4)
        XCTAssertEqual(failure("M 0 Infinity")?.offset, 4)
        XCTAssertEqual(failure("M 1e400 0"), SVGPathSyntaxError(offset: 2, message: "number out of range"))
        XCTAssertEqual(failure("M 1e99999999999999999999 0")?.message, "number out of range")
        XCTAssertEqual(try parse("M 1e-99999999 0"), [.move(SIMD2(0, 0))])
        // 10 MB of numbers: refused with a clear error once the element bound is passed.
        let big = "M0 0" + String(repeating: " 1 2", count: 2_500_000)
        let error = failure(big)
        XCTAssertEqual(error?.message, "path data has more than 1000000 elements")
        XCTAssertGreaterThan(error?.offset ?? 0, 3_000_000)
    }
}
