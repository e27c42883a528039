import Foundation
import KilnModel
import KilnScene

/// What `kiln layers` prints: every registered layer kind, the transform keys, every effect and
/// every transition, each parameter with its type, range, default and help, as text or JSON.
enum RegistryListing {
    static var text: String {
        var lines = ["Layer kinds (\"type\"):", ""]
        for kind in LayerRegistry.kinds {
            lines.append("\(kind.name) — \(kind.summary)")
            lines += parameterLines(kind.parameters)
        }
        lines.append(
            """
            Every layer also takes: name, opacity (0…1), effects (below); appear and disappear (seconds),
            transition and transitionAnimation (transitions below); visualEffect (property mappings);
            scrollTransition (inside a scroll layer); see docs/job-format.md. And the transform keys:
            """)
        lines += parameterLines(ParameterTable(LayerTransform.parameters))
        lines += ["Effects (\"effects\": [{\"name\": value-or-parameters}, …], applied in order):", ""]
        for effect in LayerRegistry.effects {
            let shorthand = effect.shorthand.map { " (a bare number sets \($0))" } ?? ""
            lines.append("\(effect.name) — \(effect.summary)\(shorthand)")
            lines += parameterLines(effect.parameters)
        }
        lines += [
            "Transitions (\"transition\": \"name\", {\"name\": value} or {\"name\": {parameters}}; an array",
            "combines them; {\"insertion\": …, \"removal\": …} is asymmetric):", "",
        ]
        for transition in LayerRegistry.transitions {
            let shorthand =
                transition.shorthand.map {
                    transition.shorthandTakesAnyValue
                        ? ", the value is its \($0)" : ", a bare value sets \($0)"
                } ?? ""
            lines.append(
                "\(transition.name) — \(transition.summary) (e.g. \(transition.example)\(shorthand))")
            lines += parameterLines(transition.parameters)
        }
        return lines.joined(separator: "\n")
    }

    /// One object with `layers`, `transform`, `effects` and `transitions`, each entry with its
    /// name, summary and parameters.
    static var json: [String: Any] {
        [
            "layers": LayerRegistry.kinds.map {
                ["name": $0.name, "summary": $0.summary, "parameters": parameterObjects($0.parameters)]
            },
            "transform": parameterObjects(ParameterTable(LayerTransform.parameters)),
            "effects": LayerRegistry.effects.map {
                [
                    "name": $0.name, "summary": $0.summary,
                    "shorthand": $0.shorthand.map { $0 as Any } ?? NSNull(),
                    "parameters": parameterObjects($0.parameters),
                ]
            },
            "transitions": LayerRegistry.transitions.map {
                [
                    "name": $0.name, "summary": $0.summary,
                    "shorthand": $0.shorthand.map { $0 as Any } ?? NSNull(),
                    "example": $0.example, "parameters": parameterObjects($0.parameters),
                ]
            },
        ]
    }

    private static func parameterLines(_ table: ParameterTable) -> [String] {
        table.parameters.map { p in
            let requirement =
                p.defaultDescription.map { "default \($0)" } ?? p.defaultValue.map {
                    "default \(describe($0))"
                }
                ?? (p.isRequired ? "required" : "default empty")
            return "    \(p.name) (\(describe(p.kind)); \(requirement)): \(p.help)"
        } + [""]
    }

    private static func parameterObjects(_ table: ParameterTable) -> [[String: Any]] {
        table.parameters.map { p in
            var object: [String: Any] = [
                "name": p.name, "type": p.kind.description, "animatable": p.kind.isAnimatable,
                "required": p.isRequired, "help": p.help,
                "default": p.defaultValue.map(jsonValue) ?? NSNull(),
            ]
            if let description = p.defaultDescription { object["defaultDescription"] = description }
            if let range = range(of: p.kind) { object["range"] = range }
            if case .choice(let choices) = p.kind { object["choices"] = choices }
            return object
        }
    }

    /// `[low, high]`, an unbounded end as null (JSON has no infinity).
    private static func range(of kind: ParameterKind) -> [Any]? {
        func bounds(_ low: Double, _ high: Double) -> [Any] {
            [low.isFinite ? low : NSNull(), high.isFinite ? high : NSNull()]
        }
        switch kind {
        case .number(let r), .constantNumber(let r): return bounds(r.lowerBound, r.upperBound)
        case .integer(let r): return [r.lowerBound, r.upperBound]
        case .point(let r?), .pointList(let r?): return bounds(r.lowerBound, r.upperBound)
        default: return nil
        }
    }

    private static func jsonValue(_ value: ParameterValue) -> Any {
        switch value {
        case .number(let v): v
        case .integer(let v): v
        case .boolean(let v): v
        case .string(let v): v
        case .color(let c): [c.r, c.g, c.b, c.a]
        case .point(let p): [p.x, p.y]
        }
    }

    private static func describe(_ kind: ParameterKind) -> String {
        switch kind {
        case .number(let r): return "number \(r.lowerBound)…\(r.upperBound), animatable"
        case .constantNumber(let r): return "number \(r.lowerBound)…\(r.upperBound)"
        case .integer(let r): return "integer \(r.lowerBound)…\(r.upperBound)"
        case .boolean: return "boolean"
        case .string: return "string"
        case .choice(let options): return options.joined(separator: "|")
        case .color: return "color, animatable"
        case .point: return "point [x, y], animatable"
        case .colorList: return "array of colors"
        case .pointList: return "array of points"
        case .assetPath: return "file path relative to the job"
        case .structured(let shape): return shape
        }
    }

    private static func describe(_ value: ParameterValue) -> String {
        switch value {
        case .number(let v): return "\(v)"
        case .integer(let v): return "\(v)"
        case .boolean(let v): return "\(v)"
        case .string(let v): return "\"\(v)\""
        case .color(let c): return "[\(c.r), \(c.g), \(c.b), \(c.a)]"
        case .point(let p): return "[\(p.x), \(p.y)]"
        }
    }
}
