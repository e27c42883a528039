/// Decoders for single values in all their JSON forms. They report problems to the context and
/// return nil when anything inside the value was wrong, so callers can substitute a placeholder
/// and keep going.
///
/// Animated forms: a plain value is a constant; an object is always an animation
/// (`{"keyframes": …}` or `{"spring": …}`, either with an optional `"time"` source). That rule
/// is what keeps a constant point `[x, y]` or a constant colour `[r, g, b, a]` apart from an
/// animated one.
public enum ValueDecoding {
    // MARK: Animated values

    public static func decodeNumber(
        _ node: JSONNode, path: JSONPath, range: ClosedRange<Double>?, context: DecodeContext
    ) -> Animated<Double>? {
        if node["audio"] != nil {
            return AudioDrivenDecoding.decode(node, path: path, range: range, context: context)
        }
        return decodeAnimated(node, path: path, context: context) { node, path in
            constantNumber(node, path: path, range: range, context: context)
        }
    }

    public static func decodeColor(_ node: JSONNode, path: JSONPath, context: DecodeContext) -> Animated<
        RGBA
    >? {
        decodeAnimated(node, path: path, context: context) { node, path in
            constantColor(node, path: path, context: context)
        }
    }

    public static func decodePoint(
        _ node: JSONNode, path: JSONPath, range: ClosedRange<Double>?, context: DecodeContext
    ) -> Animated<Point2>? {
        decodeAnimated(node, path: path, context: context) { node, path in
            constantPoint(node, path: path, range: range, context: context)
        }
    }

    /// Elements that fail are replaced by `placeholder` so indices stay aligned; the result is
    /// nil if any element (or the array itself) was wrong.
    public static func decodeColorList(_ node: JSONNode, path: JSONPath, context: DecodeContext) -> [Animated<
        RGBA
    >]? {
        decodeList(node, path: path, what: "an array of colors", context: context) { node, path in
            decodeColor(node, path: path, context: context)
        }
    }

    public static func decodePointList(
        _ node: JSONNode, path: JSONPath, range: ClosedRange<Double>?, context: DecodeContext
    ) -> [Animated<Point2>]? {
        decodeList(node, path: path, what: "an array of points", context: context) { node, path in
            decodePoint(node, path: path, range: range, context: context)
        }
    }

    // MARK: Constant values

    /// The range of a number that has no narrower one of its own (keyframe times, mapping
    /// coefficients, points without a declared range…). The JSON parser already refuses what is
    /// not finite; this keeps products of a few such numbers far from overflowing, so what the
    /// renderer computes from them stays finite.
    public static let magnitudeRange: ClosedRange<Double> = -1_000_000...1_000_000

    /// The range of a cubic Bézier easing's y control points: overshoots of ten times the
    /// animated change, far past any designed curve (CSS "back" easings stay within ±2), and
    /// still a bounded multiple of the keyframes' values.
    public static let bezierYRange: ClosedRange<Double> = -10...10

    public static func constantNumber(
        _ node: JSONNode, path: JSONPath, range: ClosedRange<Double>?, context: DecodeContext
    ) -> Double? {
        guard let number = node.number else {
            context.error(
                "expected a number, got \(node.value.typeName)\(notAnimatable(node))", at: node, path: path)
            return nil
        }
        let range = range ?? magnitudeRange
        if !range.contains(number) {
            context.error(outOfRange(number, range), at: node, path: path)
            return nil
        }
        return number
    }

    public static func decodeInteger(
        _ node: JSONNode, path: JSONPath, range: ClosedRange<Int>?, context: DecodeContext
    ) -> Int? {
        guard let number = node.number, number == number.rounded(), abs(number) < 9e15 else {
            context.error(
                "expected an integer, got \(describe(node))\(notAnimatable(node))", at: node, path: path)
            return nil
        }
        let integer = Int(number)
        if let range, !range.contains(integer) {
            context.error("\(integer) is out of range \(NumberText.format(range))", at: node, path: path)
            return nil
        }
        return integer
    }

    public static func decodeBoolean(_ node: JSONNode, path: JSONPath, context: DecodeContext) -> Bool? {
        guard let bool = node.bool else {
            context.error(
                "expected true or false, got \(node.value.typeName)\(notAnimatable(node))", at: node,
                path: path)
            return nil
        }
        return bool
    }

    public static func decodeString(_ node: JSONNode, path: JSONPath, context: DecodeContext) -> String? {
        guard let string = node.string else {
            context.error(
                "expected a string, got \(node.value.typeName)\(notAnimatable(node))", at: node, path: path)
            return nil
        }
        return string
    }

    public static func decodeChoice(
        _ node: JSONNode, path: JSONPath, choices: [String], context: DecodeContext
    ) -> String? {
        guard let string = decodeString(node, path: path, context: context) else { return nil }
        guard choices.contains(string) else {
            let hint = Suggestion.hint(for: string, among: choices)
            context.error(
                "'\(string)' is not one of \(choices.joined(separator: ", "))\(hint)", at: node, path: path)
            return nil
        }
        return string
    }

    public static func constantColor(_ node: JSONNode, path: JSONPath, context: DecodeContext) -> RGBA? {
        switch node.value {
        case .string(let text):
            guard let color = RGBA(css: text) else {
                let hint =
                    text.hasPrefix("#") ? "" : Suggestion.hint(for: text.lowercased(), among: RGBA.cssNames)
                context.error(
                    "invalid color '\(text)'\(hint); expected \(RGBA.writtenForms)", at: node, path: path)
                return nil
            }
            return color
        case .array(let elements):
            guard elements.count == 3 || elements.count == 4 else {
                context.error(
                    "expected a color [r, g, b] or [r, g, b, a], got \(elements.count) components", at: node,
                    path: path)
                return nil
            }
            let components = elements.enumerated().map { index, element in
                constantNumber(element, path: path.index(index), range: 0...1, context: context)
            }
            let values = components.compactMap { $0 }
            guard values.count == components.count else { return nil }
            return RGBA(r: values[0], g: values[1], b: values[2], a: values.count == 4 ? values[3] : 1)
        default:
            context.error(
                "expected a color (\(RGBA.writtenForms)), got \(node.value.typeName)",
                at: node, path: path)
            return nil
        }
    }

    public static func constantPoint(
        _ node: JSONNode, path: JSONPath, range: ClosedRange<Double>?, context: DecodeContext
    ) -> Point2? {
        guard let elements = node.elements else {
            context.error("expected a point [x, y], got \(node.value.typeName)", at: node, path: path)
            return nil
        }
        guard elements.count == 2 else {
            context.error(
                "expected a point [x, y], got an array of \(elements.count) elements", at: node, path: path)
            return nil
        }
        let x = constantNumber(elements[0], path: path.index(0), range: range, context: context)
        let y = constantNumber(elements[1], path: path.index(1), range: range, context: context)
        guard let x, let y else { return nil }
        return Point2(x: x, y: y)
    }

    /// `"easeInOut"`, `"cubicBezier(0.4, 0, 0.2, 1)"` or `{"cubicBezier": [0.4, 0, 0.2, 1]}`.
    public static func decodeEasing(_ node: JSONNode, path: JSONPath, context: DecodeContext) -> Easing? {
        switch node.value {
        case .string(let text):
            switch text {
            case "linear": return .linear
            case "easeIn": return .easeIn
            case "easeOut": return .easeOut
            case "easeInOut": return .easeInOut
            default: break
            }
            if let arguments = bezierArguments(in: text) {
                return bezier(arguments, node: node, path: path, context: context)
            }
            let named = Easing.names.filter { $0 != "cubicBezier" }
            context.error(
                "unknown easing '\(text)'\(Suggestion.hint(for: text, among: named)); expected one of "
                    + "\(named.joined(separator: ", ")) or \"cubicBezier(x1, y1, x2, y2)\"",
                at: node, path: path)
            return nil
        case .object(let members):
            ObjectKeys.check(members, path: path, allowed: ["cubicBezier"], context: context)
            guard let controls = node["cubicBezier"] else {
                if members.isEmpty {
                    context.error("expected {\"cubicBezier\": [x1, y1, x2, y2]}", at: node, path: path)
                }
                return nil
            }
            let controlsPath = path.key("cubicBezier")
            guard let elements = controls.elements, elements.count == 4 else {
                context.error(
                    "expected 4 numbers [x1, y1, x2, y2], got \(describe(controls))", at: controls,
                    path: controlsPath)
                return nil
            }
            // The y controls are checked here so that the message points at the element; the x
            // controls have their own message in `bezier`.
            let numbers = elements.enumerated().map { index, element in
                constantNumber(
                    element, path: controlsPath.index(index),
                    range: index.isMultiple(of: 2) ? nil : bezierYRange,
                    context: context)
            }
            let values = numbers.compactMap { $0 }
            guard values.count == 4 else { return nil }
            return bezier(values, node: controls, path: controlsPath, context: context)
        default:
            context.error(
                "expected an easing name or {\"cubicBezier\": [x1, y1, x2, y2]}, got \(node.value.typeName)",
                at: node, path: path)
            return nil
        }
    }

    // MARK: Helpers

    static func decodeAnimated<Value>(
        _ node: JSONNode, path: JSONPath, context: DecodeContext,
        constant: (JSONNode, JSONPath) -> Value?
    ) -> Animated<Value>? {
        guard let members = node.members else {
            return constant(node, path).map(Animated.constant)
        }
        let before = context.diagnostics.count
        ObjectKeys.check(members, path: path, allowed: animationKeys, context: context)
        let keyframesNode = node["keyframes"], springNode = node["spring"]
        var result: Animated<Value>?
        switch (keyframesNode, springNode) {
        case (let keyframesNode?, nil):
            result = decodeKeyframes(
                keyframesNode, path: path.key("keyframes"), context: context, constant: constant)
        case (nil, let springNode?):
            result = decodeSpring(springNode, path: path.key("spring"), context: context, constant: constant)
        case (.some, .some):
            context.error(
                "an animated value has either 'keyframes' or 'spring', not both", at: node, path: path)
        case (nil, nil):
            if members.isEmpty {
                context.error(
                    "empty object; an animated value is {\"keyframes\": […]} or {\"spring\": {…}}", at: node,
                    path: path)
            } else if context.diagnostics.count == before {
                context.error(
                    "an animated value needs 'keyframes' or 'spring' beside 'time'", at: node, path: path)
            }
        }
        var source = TimeSource.global
        if let timeNode = node["time"] {
            source = TimeSourceDecoding.decode(timeNode, path: path.key("time"), context: context) ?? source
        }
        guard context.diagnostics.count == before, let result else { return nil }
        let animated = source == .global ? result : .retimed(result, source)
        context.recordFrameInput(animated)
        return animated
    }

    /// The keys an animation object may have. An effect stage whose object has only these keys
    /// is an animation of the effect's shorthand parameter.
    static let animationKeys = ["keyframes", "spring", "time"]

    static func decodeKeyframes<Value>(
        _ node: JSONNode, path: JSONPath, context: DecodeContext,
        constant: (JSONNode, JSONPath) -> Value?
    ) -> Animated<Value>? {
        guard let elements = node.elements else {
            context.error("expected an array of keyframes, got \(node.value.typeName)", at: node, path: path)
            return nil
        }
        guard !elements.isEmpty else {
            context.error("keyframes must not be empty", at: node, path: path)
            return nil
        }
        let before = context.diagnostics.count
        var keyframes: [Keyframe<Value>] = []
        var previousTime: Double?
        for (index, element) in elements.enumerated() {
            let keyframePath = path.index(index)
            guard let members = element.members else {
                context.error(
                    "expected a keyframe {\"t\": seconds, \"v\": value}, got \(element.value.typeName)",
                    at: element, path: keyframePath)
                continue
            }
            ObjectKeys.check(members, path: keyframePath, allowed: ["t", "v", "ease"], context: context)
            var time: Double?
            if let timeNode = element["t"] {
                let timePath = keyframePath.key("t")
                if let t = constantNumber(timeNode, path: timePath, range: nil, context: context) {
                    if t < 0 {
                        context.error(
                            "keyframe time must be ≥ 0, got \(NumberText.format(t))", at: timeNode,
                            path: timePath)
                    } else if let previousTime, t <= previousTime {
                        context.error(
                            "keyframe time \(NumberText.format(t)) is not after the previous keyframe's time "
                                + "\(NumberText.format(previousTime)); times must be strictly increasing",
                            at: timeNode, path: timePath)
                    } else {
                        time = t
                    }
                    previousTime = max(previousTime ?? t, t)
                }
            } else {
                context.error("missing required key 't'", at: element, path: keyframePath)
            }
            var value: Value?
            if let valueNode = element["v"] {
                value = constant(valueNode, keyframePath.key("v"))
            } else {
                context.error("missing required key 'v'", at: element, path: keyframePath)
            }
            var easing: Easing? = .linear
            if let easeNode = element["ease"] {
                easing = decodeEasing(easeNode, path: keyframePath.key("ease"), context: context)
            }
            if let time, let value, let easing {
                keyframes.append(Keyframe(time: time, value: value, easing: easing))
            }
        }
        return context.diagnostics.count == before ? .keyframes(keyframes) : nil
    }

    static func decodeSpring<Value>(
        _ node: JSONNode, path: JSONPath, context: DecodeContext,
        constant: (JSONNode, JSONPath) -> Value?
    ) -> Animated<Value>? {
        guard let members = node.members else {
            context.error(
                "expected a spring {\"from\": …, \"to\": …, …}, got \(node.value.typeName)", at: node,
                path: path)
            return nil
        }
        let before = context.diagnostics.count
        ObjectKeys.check(
            members, path: path,
            allowed: ["from", "to", "at", "response", "dampingFraction", "duration", "bounce"],
            context: context)

        func required(_ key: String) -> Value? {
            guard let child = node[key] else {
                context.error("missing required key '\(key)'", at: node, path: path)
                return nil
            }
            return constant(child, path.key(key))
        }
        let from = required("from")
        let to = required("to")
        let start = checkedNumber(node, "at", path: path, fallback: 0, springStart, context)
        let spring = springParameters(node, path: path, limits: .animatedValue, context: context)
        guard let from, let to, context.diagnostics.count == before else { return nil }
        return .spring(from: from, to: to, start: start, spring: spring)
    }

    /// A rule a number must keep, and how a message states it.
    struct NumberRule: Sendable {
        let bounds: NumberBounds
        let text: String

        init(_ bounds: NumberBounds, _ text: String) {
            self.bounds = bounds
            self.text = text
        }

        func isValid(_ value: Double) -> Bool { bounds.contains(value) }
    }

    /// The limits of a spring's parameters. Transitions are stricter than animated values: a
    /// removal must settle before the layer goes, so it needs some damping.
    struct SpringLimits: Sendable {
        let duration: NumberRule
        let dampingFraction: NumberRule
        let bounce: NumberRule

        static let animatedValue = SpringLimits(
            duration: NumberRule(NumberBounds(0...10, excludesLower: true), "in (0, 10] seconds"),
            dampingFraction: NumberRule(NumberBounds(0...10), "in 0…10"),
            bounce: NumberRule(NumberBounds(-1...1, excludesLower: true, excludesUpper: true), "in (-1, 1)"))
        static let transition = SpringLimits(
            duration: NumberRule(NumberBounds(0.01...10), "in 0.01…10 seconds"),
            dampingFraction: NumberRule(NumberBounds(0.05...10), "in 0.05…10"),
            bounce: NumberRule(NumberBounds(-0.99...0.99), "in −0.99…0.99"))
    }

    /// A spring's `at`: any time on the timeline (the magnitude range still bounds it).
    static let springStart = NumberRule(NumberBounds(0...Double.infinity), "≥ 0 seconds")

    /// SwiftUI's two spring parametrisations, `response`/`dampingFraction` or
    /// `duration`/`bounce`, read from `node` (not both; neither gives the default spring). The
    /// caller checks the object's other keys.
    static func springParameters(
        _ node: JSONNode, path: JSONPath, limits: SpringLimits, context: DecodeContext
    ) -> Spring {
        let usesPhysical = node["response"] != nil || node["dampingFraction"] != nil
        let usesPerceptual = node["duration"] != nil || node["bounce"] != nil
        if usesPhysical && usesPerceptual {
            context.error(
                "give either 'response'/'dampingFraction' or 'duration'/'bounce', not both", at: node,
                path: path)
            return .default
        }
        if usesPerceptual {
            return Spring(
                duration: checkedNumber(
                    node, "duration", path: path, fallback: Spring.default.response, limits.duration, context),
                bounce: checkedNumber(node, "bounce", path: path, fallback: 0, limits.bounce, context))
        }
        return Spring(
            response: checkedNumber(
                node, "response", path: path, fallback: Spring.default.response, limits.duration, context),
            dampingFraction: checkedNumber(
                node, "dampingFraction", path: path, fallback: Spring.default.dampingFraction,
                limits.dampingFraction, context))
    }

    /// The number at `key` of `node` when present and valid; `fallback` otherwise (reporting
    /// why when present).
    private static func checkedNumber(
        _ node: JSONNode, _ key: String, path: JSONPath, fallback: Double, _ rule: NumberRule,
        _ context: DecodeContext
    ) -> Double {
        guard let child = node[key] else { return fallback }
        guard let value = constantNumber(child, path: path.key(key), range: nil, context: context) else {
            return fallback
        }
        guard rule.isValid(value) else {
            context.error(
                "\(NumberText.format(value)) is out of range: \(key) must be \(rule.text)", at: child,
                path: path.key(key))
            return fallback
        }
        return value
    }

    static func decodeList<Value>(
        _ node: JSONNode, path: JSONPath, what: String, context: DecodeContext,
        element decode: (JSONNode, JSONPath) -> Animated<Value>?
    ) -> [Animated<Value>]? {
        guard let elements = node.elements else {
            context.error("expected \(what), got \(node.value.typeName)", at: node, path: path)
            return nil
        }
        var values: [Animated<Value>] = []
        var failed = false
        for (index, element) in elements.enumerated() {
            if let value = decode(element, path.index(index)) {
                values.append(value)
            } else {
                failed = true
            }
        }
        return failed ? nil : values
    }

    static func bezierArguments(in text: String) -> [Double]? {
        let compact = text.filter { !$0.isWhitespace }
        guard compact.hasPrefix("cubicBezier("), compact.hasSuffix(")") else { return nil }
        let inner = compact.dropFirst("cubicBezier(".count).dropLast()
        let numbers = inner.split(separator: ",", omittingEmptySubsequences: false).map { Double(String($0)) }
        guard numbers.count == 4, numbers.allSatisfy({ $0 != nil }) else { return nil }
        return numbers.compactMap { $0 }
    }

    static func bezier(_ values: [Double], node: JSONNode, path: JSONPath, context: DecodeContext) -> Easing?
    {
        guard (0...1).contains(values[0]), (0...1).contains(values[2]) else {
            context.error(
                "cubicBezier x1 and x2 must be in 0…1, got \(NumberText.format(values[0])) and \(NumberText.format(values[2]))",
                at: node, path: path)
            return nil
        }
        guard values.allSatisfy({ $0.isFinite }), bezierYRange.contains(values[1]),
            bezierYRange.contains(values[3])
        else {
            context.error(
                "cubicBezier y1 and y2 must be in \(NumberText.format(bezierYRange)), got "
                    + "\(NumberText.format(values[1])) and \(NumberText.format(values[3]))",
                at: node, path: path)
            return nil
        }
        return .cubicBezier(values[0], values[1], values[2], values[3])
    }

    static func outOfRange(_ value: Double, _ range: ClosedRange<Double>) -> String {
        let number = NumberText.format(value)
        switch (range.lowerBound.isFinite, range.upperBound.isFinite) {
        case (true, false):
            return "\(number) is out of range (must be ≥ \(NumberText.format(range.lowerBound)))"
        case (false, true):
            return "\(number) is out of range (must be ≤ \(NumberText.format(range.upperBound)))"
        default: return "\(number) is out of range \(NumberText.format(range))"
        }
    }

    static func describe(_ node: JSONNode) -> String {
        if let number = node.number { return NumberText.format(number) }
        return node.value.typeName
    }

    static func notAnimatable(_ node: JSONNode) -> String {
        node.members != nil ? " (this value cannot be animated)" : ""
    }
}
