/// JSON Schema fragments for the values a job writes, one beside each form `ValueDecoding` (and
/// the other decoders) accept, so the schema grows with the parameter tables instead of being kept
/// by hand.
///
/// Variables are replaced before anything is decoded, so wherever a number or a string is read
/// a `{"var": name}` may stand instead, and a string that must be one of a few may hold `${name}`:
/// the schema accepts both and leaves them to `kiln validate`, which knows the values.
public enum ValueSchema {
    // MARK: Variables

    public static let variable = JSONSchema.reference(
        "variable",
        to: .object(
            [
                (
                    "var",
                    JSONSchema.pattern("^[A-Za-z_][A-Za-z0-9_]{0,63}$").describing(
                        "a declared variable's name")
                )
            ],
            required: ["var"]
        ).describing(
            "the value of a variable declared in 'variables' (a number for number variables, a string otherwise)"
        ))

    public static let interpolated = JSONSchema.reference(
        "interpolatedString",
        to: JSONSchema.pattern(#"\$\{"#).describing(
            "a string holding ${name} variable references, checked once they are replaced"))

    // MARK: Plain values

    /// A constant number in `range` (the magnitude limit when nil).
    public static func number(_ range: ClosedRange<Double>?) -> JSONSchema {
        number(NumberBounds(range ?? ValueDecoding.magnitudeRange))
    }

    /// A constant number within `bounds`, which are narrowed to the magnitude limit every
    /// number without a range of its own also keeps.
    public static func number(_ bounds: NumberBounds) -> JSONSchema {
        .anyOf([boundedNumber(bounds), variable])
    }

    static func boundedNumber(_ bounds: NumberBounds, type: String = "number") -> JSONSchema {
        var schema = JSONSchema.type(type)
        if bounds.lower.isFinite {
            schema = schema.with(bounds.excludesLower ? "exclusiveMinimum" : "minimum", .number(bounds.lower))
        }
        if bounds.upper.isFinite {
            schema = schema.with(bounds.excludesUpper ? "exclusiveMaximum" : "maximum", .number(bounds.upper))
        }
        return schema
    }

    public static func integer(_ range: ClosedRange<Int>?) -> JSONSchema {
        let bounds = range.map { NumberBounds(Double($0.lowerBound)...Double($0.upperBound)) }
        return .anyOf([boundedNumber(bounds ?? NumberBounds(-9e15...9e15), type: "integer"), variable])
    }

    public static let boolean = JSONSchema.type("boolean")

    public static let string = JSONSchema.anyOf([.type("string"), variable])

    public static func choice(_ choices: [String]) -> JSONSchema {
        .anyOf([.enumeration(choices), interpolated, variable])
    }

    /// A file path as written: any text but the empty string.
    public static let path = JSONSchema.anyOf([
        JSONSchema.type("string").with("minLength", .number(1)), variable,
    ])

    /// `[x, y]`, each coordinate in `range`.
    public static func point(_ range: ClosedRange<Double>?) -> JSONSchema {
        let coordinate = number(range)
        return JSONSchema.array(of: coordinate, count: 2...2)
    }

    // MARK: Colours

    /// The text forms: `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa` and the CSS names in any case.
    public static let colorText = JSONSchema.reference(
        "colorText",
        to: .anyOf([
            .pattern("^#(?:[0-9A-Fa-f]{3,4}|[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})$"),
            .enumeration(RGBA.cssNames),
            .pattern("^(?:" + RGBA.cssNames.map(caseInsensitive).joined(separator: "|") + ")$"),
        ]).describing("#rgb, #rgba, #rrggbb, #rrggbbaa, or a CSS colour name (any case)"))

    public static let color = JSONSchema.reference(
        "color",
        to: .anyOf([
            colorText,
            JSONSchema.array(of: number(0...1), count: 3...4).describing("[r, g, b] or [r, g, b, a] in 0…1"),
            interpolated, variable,
        ]).describing(RGBA.writtenForms))

    /// `[aA][bB]…`: ECMAScript patterns, which editors run, have no case-insensitive flag.
    private static func caseInsensitive(_ name: String) -> String {
        name.map { character in
            let lower = character.lowercased(), upper = character.uppercased()
            return lower == upper ? String(character) : "[\(lower)\(upper)]"
        }.joined()
    }

    // MARK: Time

    /// A time the decoder reads as a plain number without a range of its own: ≥ 0, and within the
    /// magnitude limit.
    public static let seconds = number(0...ValueDecoding.magnitudeRange.upperBound)

    /// Trigger times (`{"since": …}`, a symbol effect's `at`): 1 to 10000 seconds ≥ 0, strictly
    /// increasing (which the schema cannot say) and within the timeline.
    public static let triggerTimes = JSONSchema.array(
        of: .anyOf([boundedNumber(NumberBounds(0...Double.infinity)), variable]),
        count: 1...TimeSourceDecoding.maximumTriggerCount)

    public static let timeSource = JSONSchema.reference(
        "timeSource",
        to: .anyOf([
            .enumeration(TimeSourceDecoding.names),
            .object([("since", triggerTimes.describing("trigger times in seconds"))], required: ["since"]),
            interpolated, variable,
        ]).describing(
            "the clock an animation's times are read on: global (job time), layer (since the layer appeared) "
                + "or {\"since\": [t1, t2, …]} (restarting at each trigger)"))

    public static let easing = JSONSchema.reference(
        "easing",
        to: .anyOf([
            .enumeration(Easing.names.filter { $0 != "cubicBezier" }),
            .pattern(bezierText),
            .object(
                [
                    (
                        "cubicBezier",
                        JSONSchema.type("array").with(
                            "prefixItems",
                            [
                                number(0...1), number(ValueDecoding.bezierYRange), number(0...1),
                                number(ValueDecoding.bezierYRange),
                            ]
                        ).with("items", .bool(false)).with("minItems", .number(4))
                            .describing("[x1, y1, x2, y2]: x in 0…1, y in -10…10")
                    )
                ], required: ["cubicBezier"]),
            interpolated, variable,
        ]).describing(
            "linear, easeIn, easeOut, easeInOut, \"cubicBezier(x1, y1, x2, y2)\" or {\"cubicBezier\": [x1, y1, x2, y2]}"
        ))

    /// `cubicBezier(…)` with four comma-separated parts; the decoder drops whitespace anywhere,
    /// even inside the word, and reads the numbers itself (their ranges are its to check).
    private static var bezierText: String {
        let word = "cubicBezier".map(String.init).joined(separator: #"\s*"#)
        return #"^\s*"# + word + #"\s*\([^(),]*(?:,[^(),]*){3}\)\s*$"#
    }

    // MARK: Animations

    /// A number that follows the soundtrack (`AudioDrivenDecoding`).
    public static let audioDriven = JSONSchema.reference(
        "audioDriven",
        to: ValueSchema.object(AudioDrivenDecoding.table).describing(
            "a number driven by the soundtrack: {\"audio\": \"level\" | \"band\", \"track\", \"range\", …}"))

    /// A constant (`constant`) or an animation of it: keyframes or a spring, either on an
    /// optional clock. `name` names the definition, one per constant shape.
    public static func animated(_ constant: JSONSchema, name: String) -> JSONSchema {
        let keyframe = JSONSchema.object(
            [
                ("t", seconds.describing("seconds, strictly increasing")),
                ("v", constant.describing("the value at t")),
                ("ease", easing.describing("the curve of the segment that ends here (default linear)")),
            ], required: ["t", "v"])
        let spring = springObject(value: constant, limits: .animatedValue)
        let animation = JSONSchema.object([
            (
                "keyframes",
                JSONSchema.array(of: keyframe, count: 1...Int.max).describing("at least one keyframe")
            ),
            ("spring", spring),
            ("time", timeSource),
        ]).with("oneOf", [.requiring(["keyframes"]), .requiring(["spring"])])
        return .reference(
            "animated" + name,
            to: .anyOf([constant, animation]).describing(
                "a constant, {\"keyframes\": [{\"t\", \"v\", \"ease\"}, …]} or {\"spring\": {\"from\", \"to\", …}}, "
                    + "with an optional \"time\""))
    }

    /// A spring object: `from`/`to` (when it animates a value) and one of SwiftUI's two
    /// parametrisations, never both.
    static func springObject(value: JSONSchema?, limits: ValueDecoding.SpringLimits) -> JSONSchema {
        var properties: [(String, JSONSchema)] = []
        if let value {
            properties += [
                ("from", value.describing("the value until 'at'")),
                ("to", value.describing("the value it springs towards")),
                ("at", number(ValueDecoding.springStart.bounds).describing("seconds it starts (default 0)")),
            ]
        }
        properties += [
            ("response", number(limits.duration.bounds).describing("seconds, the undamped period")),
            ("dampingFraction", number(limits.dampingFraction.bounds).describing("1 = no overshoot")),
            ("duration", number(limits.duration.bounds).describing("seconds (with bounce)")),
            ("bounce", number(limits.bounce.bounds).describing("0 = no bounce")),
        ]
        let physical = JSONSchema.anyOf([.requiring(["response"]), .requiring(["dampingFraction"])])
        let perceptual = JSONSchema.anyOf([.requiring(["duration"]), .requiring(["bounce"])])
        return JSONSchema.object(properties, required: value == nil ? [] : ["from", "to"])
            .with("not", JSONSchema().with("allOf", [physical, perceptual]))
            .describing("response/dampingFraction or duration/bounce, not both")
    }

    // MARK: Parameters

    /// The forms a parameter of `kind` accepts.
    public static func kind(_ kind: ParameterKind) -> JSONSchema {
        switch kind {
        case .number(let range):
            .anyOf([animated(number(range), name: "Number" + rangeName(range)), audioDriven])
        case .constantNumber(let range): number(range)
        case .integer(let range): integer(range)
        case .boolean: boolean
        case .string: string
        case .choice(let choices): choice(choices)
        case .color: animated(color, name: "Color")
        case .point(let range): animated(point(range), name: "Point" + rangeName(range))
        case .colorList: .array(of: animated(color, name: "Color"))
        case .pointList(let range): .array(of: animated(point(range), name: "Point" + rangeName(range)))
        case .assetPath: path
        case .structured(_, let schema): schema
        }
    }

    /// `(0,1)`, `(-100,100)`: the range in a definition's name.
    private static func rangeName(_ range: ClosedRange<Double>?) -> String {
        let range = range ?? ValueDecoding.magnitudeRange
        func bound(_ value: Double) -> String { value.isFinite ? OrderedJSON.numberText(value) : "" }
        return "(\(bound(range.lowerBound)),\(bound(range.upperBound)))"
    }

    /// A parameter's schema with its help (and its default, when it is a value a job could write).
    public static func parameter(_ parameter: Parameter) -> JSONSchema {
        var schema = kind(parameter.kind).describing(parameter.help)
        if let described = parameter.defaultDescription {
            schema = schema.describing(parameter.help + " (default: " + described + ")")
        } else if let value = parameter.defaultValue, let json = defaultJSON(value, kind: parameter.kind) {
            schema = schema.with("default", json)
        }
        return schema
    }

    /// The default as JSON, or nil when it is prose for the docs (a structured key's "none").
    private static func defaultJSON(_ value: ParameterValue, kind: ParameterKind) -> OrderedJSON? {
        switch (kind, value) {
        case (.structured, _), (.assetPath, _): nil
        case (_, .number(let number)): .number(number)
        case (_, .integer(let integer)): .number(Double(integer))
        case (_, .boolean(let bool)): .bool(bool)
        case (_, .string(let text)): .string(text)
        case (_, .color(let color)): .string(ParameterTableMarkdown.hex(color))
        case (_, .point(let point)): .array([.number(point.x), .number(point.y)])
        }
    }

    /// The object a table decodes: its keys and no others, the required ones required.
    public static func object(_ table: ParameterTable) -> JSONSchema {
        object(table.parameters)
    }

    public static func object(_ parameters: [Parameter]) -> JSONSchema {
        .object(
            parameters.map { ($0.name, parameter($0)) }, required: parameters.filter(\.isRequired).map(\.name)
        )
    }
}
