import Foundation
import KilnModel
import KilnScene

/// What `kiln layers` prints: every registered layer kind, the transform keys, every effect and
/// every transition, each parameter with its type, range, default and help, as text or JSON.
enum RegistryListing {
    /// The three sections a name may be listed in; effects and transitions share some names
    /// (`blur`, `opacity`).
    enum Section: String, CaseIterable {
        case layer, effect, transition

        /// The key of the section's array in the JSON.
        var jsonKey: String { rawValue + "s" }
    }

    /// One listed name: its section, its line (name, summary and how a job writes it), its
    /// parameter table and its JSON object.
    struct Entry {
        let section: Section
        let name: String
        let heading: String
        let parameters: ParameterTable
        let json: [String: Any]
    }

    static var entries: [Entry] {
        let layers = LayerRegistry.kinds.map { kind in
            Entry(
                section: .layer, name: kind.name, heading: "\(kind.name) — \(kind.summary)",
                parameters: kind.parameters,
                json: [
                    "name": kind.name, "summary": kind.summary,
                    "parameters": parameterObjects(kind.parameters),
                ])
        }
        let effects = LayerRegistry.effects.map { effect in
            let shorthand = effect.shorthand.map { " (a bare number sets \($0))" } ?? ""
            return Entry(
                section: .effect, name: effect.name,
                heading: "\(effect.name) — \(effect.summary)\(shorthand)",
                parameters: effect.parameters,
                json: [
                    "name": effect.name, "summary": effect.summary,
                    "shorthand": effect.shorthand.map { $0 as Any } ?? NSNull(),
                    "parameters": parameterObjects(effect.parameters),
                ])
        }
        let transitions = LayerRegistry.transitions.map { transition in
            let shorthand =
                transition.shorthand.map {
                    transition.shorthandTakesAnyValue
                        ? ", the value is its \($0)" : ", a bare value sets \($0)"
                } ?? ""
            return Entry(
                section: .transition, name: transition.name,
                heading:
                    "\(transition.name) — \(transition.summary) (e.g. \(transition.example)\(shorthand))",
                parameters: transition.parameters,
                json: [
                    "name": transition.name, "summary": transition.summary,
                    "shorthand": transition.shorthand.map { $0 as Any } ?? NSNull(),
                    "example": transition.example, "parameters": parameterObjects(transition.parameters),
                ])
        }
        return layers + effects + transitions
    }

    /// Every name `kiln layers NAME` takes, once each, for "did you mean".
    static var names: [String] {
        var seen: Set<String> = []
        return entries.map(\.name).filter { seen.insert($0).inserted }
    }

    static var text: String {
        let all = entries
        var lines = ["Layer kinds (\"type\"):", ""]
        lines += all.filter { $0.section == .layer }.flatMap(entryLines)
        lines.append(
            """
            Every layer also takes: name, opacity (0…1), effects (below); appear and disappear (seconds),
            transition and transitionAnimation (transitions below); visualEffect (property mappings);
            scrollTransition (inside a scroll layer); blendMode, how it mixes with what is below it in
            its parent: \(BlendMode.allCases.map(\.rawValue).joined(separator: ", "));
            mask ({"layer": …, "mode": alpha or luminance, "inverted": …}); compositingGroup (group,
            stack and scroll: false lets the children mix with what is below the container);
            see docs/job-format.md. And the transform keys:
            """)
        lines += parameterLines(ParameterTable(LayerTransform.parameters))
        lines += ["Effects (\"effects\": [{\"name\": value-or-parameters}, …], applied in order):", ""]
        lines += all.filter { $0.section == .effect }.flatMap(entryLines)
        lines += [
            "Transitions (\"transition\": \"name\", {\"name\": value} or {\"name\": {parameters}}; an array",
            "combines them; {\"insertion\": …, \"removal\": …} is asymmetric):", "",
        ]
        lines += all.filter { $0.section == .transition }.flatMap(entryLines)
        return lines.joined(separator: "\n")
    }

    /// `kiln layers NAME`: each entry of that name (an effect and a transition may share one),
    /// its section named, since it is read without the section's heading.
    static func text(of matches: [Entry]) -> String {
        matches.map { entry in
            var lines = ["\(entry.section.rawValue) " + entry.heading]
            lines +=
                entry.parameters.parameters.isEmpty
                ? ["    (no parameters)", ""] : parameterLines(entry.parameters)
            if entry.section == .layer {
                lines += [
                    "Every layer also takes name, opacity, blendMode, mask, effects, transitions and the transform keys "
                        + "(see `kiln layers`).", "",
                ]
            }
            return lines.joined(separator: "\n")
        }.joined(separator: "\n")
    }

    /// One object with `layers`, `transform`, `effects` and `transitions`, each entry with its
    /// name, summary and parameters.
    static var json: [String: Any] {
        var object = json(of: entries)
        object["transform"] = parameterObjects(ParameterTable(LayerTransform.parameters))
        return object
    }

    /// `layers`, `effects` and `transitions` holding these entries (each key present, so a tool
    /// reads one shape whatever NAME was).
    static func json(of matches: [Entry]) -> [String: Any] {
        var object: [String: Any] = [:]
        for section in Section.allCases {
            object[section.jsonKey] = matches.filter { $0.section == section }.map(\.json)
        }
        return object
    }

    private static func entryLines(_ entry: Entry) -> [String] {
        [entry.heading] + parameterLines(entry.parameters)
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
        case .structured(let shape, _): return shape
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
