import KilnModel
import XCTest

final class ValueDecodingTests: XCTestCase {
    let path = JSONPath.root.key("v")

    func testConstantNumberAndRange() {
        let context = makeContext()
        XCTAssertEqual(
            ValueDecoding.decodeNumber(parse("12.5"), path: path, range: nil, context: context)?.value(at: 0),
            12.5)
        XCTAssertNil(ValueDecoding.decodeNumber(parse("\n  12"), path: path, range: 0...1, context: context))
        XCTAssertEqual(context.diagnostics.map(\.message), ["12 is out of range 0…1"])
        XCTAssertEqual(context.diagnostics.first?.location, SourceLocation(line: 2, column: 3))
    }

    /// Issue 20, part 3: a number without a range of its own (a keyframe time, a point without
    /// one) is still bounded, so products of a few of them stay finite.
    func testNumbersWithoutARangeAreBoundedInMagnitude() {
        let context = makeContext()
        XCTAssertEqual(
            ValueDecoding.decodeNumber(parse("-1000000"), path: path, range: nil, context: context)?.value(
                at: 0),
            -1_000_000)
        XCTAssertNil(ValueDecoding.decodeNumber(parse("1e308"), path: path, range: nil, context: context))
        XCTAssertNil(ValueDecoding.decodePoint(parse("[0, -1e20]"), path: path, range: nil, context: context))
        let keyframes = #"{"keyframes": [{"t": 0, "v": 0}, {"t": 1e300, "v": 1}]}"#
        XCTAssertNil(ValueDecoding.decodeNumber(parse(keyframes), path: path, range: nil, context: context))
        XCTAssertEqual(
            context.diagnostics.map { "\($0.path): \($0.message)" },
            [
                "v: 1e+308 is out of range -1000000…1000000",
                "v[1]: -1e+20 is out of range -1000000…1000000",
                "v.keyframes[1].t: 1e+300 is out of range -1000000…1000000",
            ])
    }

    func testBezierYControlsAreBounded() {
        let context = makeContext()
        func easing(_ json: String) -> Easing? {
            ValueDecoding.decodeEasing(parse(json), path: path, context: context)
        }
        XCTAssertEqual(easing(#""cubicBezier(0.5, -10, 0.5, 10)""#), .cubicBezier(0.5, -10, 0.5, 10))
        XCTAssertNil(easing(#""cubicBezier(0.5, 1e20, 0.5, -1e20)""#))
        XCTAssertNil(easing(#""cubicBezier(0.5, inf, 0.5, 0)""#))
        XCTAssertNil(easing(#"{"cubicBezier": [0.5, 10.5, 0.5, 0]}"#))
        XCTAssertEqual(
            context.diagnostics.map { "\($0.path): \($0.message)" },
            [
                "v: cubicBezier y1 and y2 must be in -10…10, got 1e+20 and -1e+20",
                "v: cubicBezier y1 and y2 must be in -10…10, got ∞ and 0",
                "v.cubicBezier[1]: 10.5 is out of range -10…10",
            ])
    }

    func testKeyframedNumber() {
        let context = makeContext()
        let json = #"{"keyframes": [{"t": 0, "v": 0}, {"t": 1.2, "v": 360, "ease": "easeInOut"}]}"#
        let value = ValueDecoding.decodeNumber(parse(json), path: path, range: nil, context: context)
        XCTAssertTrue(context.diagnostics.isEmpty, "\(context.diagnostics)")
        guard case .keyframes(let keyframes)? = value else { return XCTFail("expected keyframes") }
        XCTAssertEqual(keyframes.map(\.time), [0, 1.2])
        XCTAssertEqual(keyframes.map(\.value), [0, 360])
        XCTAssertEqual(keyframes.map(\.easing), [.linear, .easeInOut])
        XCTAssertEqual(value?.value(at: 0.6) ?? 0, 180, accuracy: 1e-9)
    }

    func testEasingForms() {
        let context = makeContext()
        func easing(_ json: String) -> Easing? {
            ValueDecoding.decodeEasing(parse(json), path: path, context: context)
        }
        XCTAssertEqual(easing(#""linear""#), .linear)
        XCTAssertEqual(easing(#""easeOut""#), .easeOut)
        XCTAssertEqual(easing(#""cubicBezier(0.4, 0, 0.2, 1)""#), .cubicBezier(0.4, 0, 0.2, 1))
        XCTAssertEqual(easing(#"{"cubicBezier": [0.4, 0, 0.2, 1]}"#), .cubicBezier(0.4, 0, 0.2, 1))
        XCTAssertTrue(context.diagnostics.isEmpty)
        XCTAssertNil(easing(#""easeInOt""#))
        XCTAssertNil(easing(#"{"cubicBezier": [1.5, 0, 0.2, 1]}"#))
        XCTAssertNil(easing(#""cubicBezier(0.4, 0, -0.2, 1)""#))
        let messages = context.diagnostics.map(\.message)
        XCTAssertEqual(messages.count, 3)
        XCTAssertTrue(
            messages[0].hasPrefix("unknown easing 'easeInOt'; did you mean 'easeInOut'?"), messages[0])
        XCTAssertEqual(messages[1], "cubicBezier x1 and x2 must be in 0…1, got 1.5 and 0.2")
        XCTAssertEqual(context.diagnostics[1].path.description, "v.cubicBezier")
        XCTAssertEqual(messages[2], "cubicBezier x1 and x2 must be in 0…1, got 0.4 and -0.2")
    }

    func testSpringForms() {
        let context = makeContext()
        let physical = ValueDecoding.decodeNumber(
            parse(#"{"spring": {"from": 0, "to": 1, "at": 0.5, "response": 0.5, "dampingFraction": 0.8}}"#),
            path: path, range: 0...1, context: context)
        guard case .spring(let from, let to, let start, let spring)? = physical else {
            return XCTFail("expected a spring")
        }
        XCTAssertEqual([from, to, start], [0, 1, 0.5])
        XCTAssertEqual(spring, Spring(response: 0.5, dampingFraction: 0.8))

        let perceptual = ValueDecoding.decodeNumber(
            parse(#"{"spring": {"from": 0, "to": 1, "duration": 0.5, "bounce": 0.2}}"#), path: path,
            range: nil,
            context: context)
        guard case .spring(_, _, let start2, let spring2)? = perceptual else {
            return XCTFail("expected a spring")
        }
        XCTAssertEqual(start2, 0)
        XCTAssertEqual(spring2, Spring(duration: 0.5, bounce: 0.2))

        let defaulted = ValueDecoding.decodeNumber(
            parse(#"{"spring": {"from": 2, "to": 3}}"#), path: path, range: nil, context: context)
        guard case .spring(_, _, _, let spring3)? = defaulted else { return XCTFail("expected a spring") }
        XCTAssertEqual(spring3, Spring(response: 0.55, dampingFraction: 1))
        XCTAssertTrue(context.diagnostics.isEmpty, "\(context.diagnostics)")
    }

    func testSpringErrors() {
        let context = makeContext()
        let json = #"{"spring": {"from": 2, "response": 0, "duration": 1, "bounce": 1}}"#
        XCTAssertNil(ValueDecoding.decodeNumber(parse(json), path: path, range: 0...1, context: context))
        let messages = Set(context.diagnostics.map { "\($0.path): \($0.message)" })
        XCTAssertEqual(
            messages,
            [
                "v.spring.from: 2 is out of range 0…1",
                "v.spring: missing required key 'to'",
                "v.spring: give either 'response'/'dampingFraction' or 'duration'/'bounce', not both",
            ])
        let second = makeContext()
        _ = ValueDecoding.decodeNumber(
            parse(#"{"spring": {"from": 0, "to": 1, "response": 0, "dampingFraction": -1}}"#), path: path,
            range: nil, context: second)
        XCTAssertEqual(
            second.diagnostics.map(\.message),
            [
                "0 is out of range: response must be in (0, 10] seconds",
                "-1 is out of range: dampingFraction must be in 0…10",
            ])
    }

    func testKeyframeErrorsNameTheKeyframe() {
        let context = makeContext()
        let json =
            #"{"keyframes": [{"t": 0, "v": 0}, {"t": 2, "v": 5}, {"t": 1, "v": 0.5}, {"t": 3}, {"t": -1, "v": 0, "eas": "x"}]}"#
        XCTAssertNil(ValueDecoding.decodeNumber(parse(json), path: path, range: 0...1, context: context))
        let messages = context.diagnostics.map { "\($0.path): \($0.message)" }
        XCTAssertEqual(
            messages,
            [
                "v.keyframes[1].v: 5 is out of range 0…1",
                "v.keyframes[2].t: keyframe time 1 is not after the previous keyframe's time 2; times must be strictly increasing",
                "v.keyframes[3]: missing required key 'v'",
                "v.keyframes[4].eas: unknown key 'eas'; did you mean 'ease'?",
                "v.keyframes[4].t: keyframe time must be ≥ 0, got -1",
            ])
        XCTAssertNil(
            ValueDecoding.decodeNumber(parse(#"{"keyframes": []}"#), path: path, range: nil, context: context)
        )
        XCTAssertEqual(context.diagnostics.last?.message, "keyframes must not be empty")
    }

    func testAnimationObjectErrors() {
        let context = makeContext()
        XCTAssertNil(
            ValueDecoding.decodeNumber(parse(#"{"keyframe": []}"#), path: path, range: nil, context: context))
        XCTAssertNil(ValueDecoding.decodeNumber(parse("{}"), path: path, range: nil, context: context))
        XCTAssertNil(
            ValueDecoding.decodeNumber(
                parse(#"{"keyframes": [{"t": 0, "v": 1}], "spring": {"from": 0, "to": 1}}"#), path: path,
                range: nil,
                context: context))
        XCTAssertNil(ValueDecoding.decodeNumber(parse(#""12""#), path: path, range: nil, context: context))
        XCTAssertEqual(
            context.diagnostics.map(\.message),
            [
                "unknown key 'keyframe'; did you mean 'keyframes'?",
                #"empty object; an animated value is {"keyframes": […]} or {"spring": {…}}"#,
                "an animated value has either 'keyframes' or 'spring', not both",
                "expected a number, got a string",
            ])
    }

    func testColors() {
        let context = makeContext()
        func color(_ json: String) -> RGBA? {
            ValueDecoding.decodeColor(parse(json), path: path, context: context)?.value(at: 0)
        }
        XCTAssertEqual(color(##""#ff0000""##), RGBA(r: 1, g: 0, b: 0, a: 1))
        XCTAssertEqual(color(##""#00FF0080""##), RGBA(r: 0, g: 1, b: 0, a: 128.0 / 255))
        XCTAssertEqual(color("[0.5, 0.25, 1]"), RGBA(r: 0.5, g: 0.25, b: 1, a: 1))
        XCTAssertEqual(color("[0.5, 0.25, 1, 0.5]"), RGBA(r: 0.5, g: 0.25, b: 1, a: 0.5))
        let animated = ValueDecoding.decodeColor(
            parse(##"{"keyframes": [{"t": 0, "v": "#000000"}, {"t": 1, "v": [1, 1, 1]}]}"##), path: path,
            context: context)
        XCTAssertEqual(animated?.value(at: 0.5).r ?? 0, 0.5, accuracy: 1e-12)
        XCTAssertTrue(context.diagnostics.isEmpty, "\(context.diagnostics)")

        // The short hex forms, CSS names (any case) and transparent, as CSS reads them.
        XCTAssertEqual(color(##""#f80""##), RGBA(r: 1, g: 136.0 / 255, b: 0, a: 1))
        XCTAssertEqual(color(##""#F808""##), RGBA(r: 1, g: 136.0 / 255, b: 0, a: 136.0 / 255))
        XCTAssertEqual(color(#""coral""#), RGBA(r: 1, g: 127.0 / 255, b: 80.0 / 255, a: 1))
        XCTAssertEqual(
            color(#""RebeccaPurple""#), RGBA(r: 0x66 / 255.0, g: 0x33 / 255.0, b: 0x99 / 255.0, a: 1))
        XCTAssertEqual(color(#""transparent""#), RGBA.clear)
        XCTAssertTrue(context.diagnostics.isEmpty, "\(context.diagnostics)")

        XCTAssertNil(color(##""#12345""##))
        XCTAssertNil(color(#""coarl""#))
        XCTAssertNil(color("[1, 2]"))
        XCTAssertNil(color("[1, 1.5, 0]"))
        XCTAssertNil(color("7"))
        let forms =
            ##""#rgb", "#rgba", "#rrggbb", "#rrggbbaa", a CSS colour name such as "coral" or "transparent", "##
            + "or [r, g, b] / [r, g, b, a] in 0…1"
        XCTAssertEqual(
            context.diagnostics.map { "\($0.path): \($0.message)" },
            [
                "v: invalid color '#12345'; expected \(forms)",
                "v: invalid color 'coarl'; did you mean 'coral'?; expected \(forms)",
                "v: expected a color [r, g, b] or [r, g, b, a], got 2 components",
                "v[1]: 1.5 is out of range 0…1",
                "v: expected a color (\(forms)), got a number",
            ])
    }

    func testPoints() {
        let context = makeContext()
        XCTAssertEqual(
            ValueDecoding.decodePoint(parse("[0.25, 1]"), path: path, range: 0...1, context: context)?.value(
                at: 0),
            Point2(x: 0.25, y: 1))
        let animated = ValueDecoding.decodePoint(
            parse(
                #"{"keyframes": [{"t": 0, "v": [0.5, 0.5]}, {"t": 3, "v": [0.9, 0.3], "ease": "easeInOut"}]}"#
            ),
            path: path, range: 0...1, context: context)
        XCTAssertEqual(animated?.value(at: 3), Point2(x: 0.9, y: 0.3))
        XCTAssertTrue(context.diagnostics.isEmpty)
        XCTAssertNil(ValueDecoding.decodePoint(parse(#""a""#), path: path, range: nil, context: context))
        XCTAssertNil(ValueDecoding.decodePoint(parse("[1, 2, 3]"), path: path, range: nil, context: context))
        XCTAssertNil(ValueDecoding.decodePoint(parse("[1, 2]"), path: path, range: 0...1, context: context))
        XCTAssertEqual(
            context.diagnostics.map { "\($0.path): \($0.message)" },
            [
                "v: expected a point [x, y], got a string",
                "v: expected a point [x, y], got an array of 3 elements",
                "v[1]: 2 is out of range 0…1",
            ])
    }

    func testIntegers() {
        let context = makeContext()
        XCTAssertEqual(ValueDecoding.decodeInteger(parse("3"), path: path, range: 1...4, context: context), 3)
        XCTAssertNil(ValueDecoding.decodeInteger(parse("2.5"), path: path, range: nil, context: context))
        XCTAssertNil(ValueDecoding.decodeInteger(parse("9"), path: path, range: 1...4, context: context))
        XCTAssertNil(
            ValueDecoding.decodeInteger(
                parse(#"{"keyframes": []}"#), path: path, range: nil, context: context))
        XCTAssertEqual(
            context.diagnostics.map(\.message),
            [
                "expected an integer, got 2.5",
                "9 is out of range 1…4",
                "expected an integer, got an object (this value cannot be animated)",
            ])
    }
}
