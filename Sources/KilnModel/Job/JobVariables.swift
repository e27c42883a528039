import Foundation

enum JobVariables {
    static let maximumCount = 256
    static let maximumValueLength = 4096
    static let declarationKeys = ["type", "default", "min", "max", "help"]

    /// What `resolve` reads from `variables`; the value checks that depend on the declared type
    /// are conditions on `type`.
    static let schema: JSONSchema = {
        let text = JSONSchema.type("string").with("maxLength", .number(Double(maximumValueLength)))
        let decimal = #"^[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$"#
        let hexadecimal = #"^[+-]?0[xX](?:[0-9A-Fa-f]+\.?[0-9A-Fa-f]*|\.[0-9A-Fa-f]+)(?:[pP][+-]?[0-9]+)?$"#
        let byType: [VariableDeclaration.Kind: JSONSchema] = [
            .text: .anyOf([text, .type("number")]),
            .number: .anyOf([.type("number"), .pattern(decimal), .pattern(hexadecimal)]),
            .color: ValueSchema.colorText,
            .path: .anyOf([
                JSONSchema.pattern("^[^\\u0000]+$").with("maxLength", .number(Double(maximumValueLength))),
                .type("number"),
            ]),
        ]
        let typed = JSONSchema.object(
            [
                (
                    "type",
                    JSONSchema.enumeration(VariableDeclaration.Kind.allCases.map(\.rawValue))
                        .describing("text, number, color or path")
                ),
                (
                    "default",
                    JSONSchema.anyOf([.type("string"), .type("number")]).describing("the value unless set")
                ),
                ("min", JSONSchema.type("number").describing("number variables: the smallest value allowed")),
                ("max", JSONSchema.type("number").describing("number variables: the largest value allowed")),
                ("help", JSONSchema.anything.describing("a note for people; ignored")),
            ], required: ["type", "default"]
        ).with(
            "allOf",
            VariableDeclaration.Kind.allCases.map { kind in
                .when(.having("type", .enumeration([kind.rawValue])), then: .having("default", byType[kind]!))
            })
        let declaration = JSONSchema.anyOf([
            JSONSchema.type("string").describing("a text variable and its default"),
            JSONSchema.type("number").describing("a number variable and its default"),
            typed,
        ])
        return JSONSchema.type("object")
            .with("propertyNames", JSONSchema.pattern("^[A-Za-z_][A-Za-z0-9_]{0,63}$"))
            .with("maxProperties", .number(Double(maximumCount)))
            .with("additionalProperties", declaration)
    }()

    /// Reads the `variables` object (declarations) and applies the overrides; reports every
    /// problem. Returns the final value of each variable as text, checked against its kind.
    static func resolve(
        _ root: JSONNode, overrides: [String: String], context: DecodeContext,
        path: JSONPath = JSONPath.root.key("variables")
    ) -> (declarations: [String: VariableDeclaration], values: [String: String]) {
        var declarations: [String: VariableDeclaration] = [:]
        if let node = root["variables"] {
            if let members = node.members {
                if members.count > maximumCount {
                    context.error(
                        "at most \(maximumCount) variables, got \(members.count)", at: node, path: path)
                }
                for member in members.prefix(maximumCount) {
                    if let declaration = declaration(member, path: path.key(member.key), context: context) {
                        declarations[member.key] = declaration
                    }
                }
            } else {
                context.error(
                    "expected an object of variable declarations, got \(node.value.typeName)", at: node,
                    path: path)
            }
        }
        var values = declarations.mapValues(\.defaultValue)
        for (name, value) in overrides.sorted(by: { $0.key < $1.key }) {
            guard let declaration = declarations[name] else {
                let known = declarations.keys.sorted()
                let hint = Suggestion.hint(for: name, among: known)
                context.error(
                    "no variable '\(TerminalText.excerpt(name))' in this job\(hint)"
                        + (known.isEmpty
                            ? " (it declares none)" : " (declared: \(known.joined(separator: ", ")))"),
                    location: nil, path: path.key(TerminalText.excerpt(name)))
                continue
            }
            if let problem = check(value, as: declaration) {
                context.error(
                    "value '\(TerminalText.excerpt(value))' for variable '\(name)': \(problem)",
                    location: nil,
                    path: path.key(name)
                )
                continue
            }
            values[name] = value
        }
        return (declarations, values)
    }

    /// `"name": {"type": "number", "default": 1, "min": 0, "max": 10}`, or the shorthands
    /// `"name": "text"` and `"name": 12`.
    private static func declaration(_ member: JSONMember, path: JSONPath, context: DecodeContext)
        -> VariableDeclaration?
    {
        let name = member.key
        guard isValidName(name) else {
            context.error(
                "variable names are letters, digits and _ (not starting with a digit), got '\(name)'",
                location: member.keyLocation, path: path)
            return nil
        }
        switch member.value.value {
        case .string(let text):
            return VariableDeclaration(name: name, kind: .text, defaultValue: text, range: nil)
        case .number(let number):
            return VariableDeclaration(
                name: name, kind: .number, defaultValue: NumberText.format(number), range: nil)
        case .object(let members):
            ObjectKeys.check(
                members, path: path, allowed: declarationKeys, context: context)
            let node = member.value
            guard let typeNode = node["type"], let typeName = typeNode.string,
                let kind = VariableDeclaration.Kind(rawValue: typeName)
            else {
                context.error(
                    "expected 'type': one of \(VariableDeclaration.Kind.allCases.map(\.rawValue).joined(separator: ", "))",
                    at: node["type"] ?? node, path: path.key("type"))
                return nil
            }
            for key in ["min", "max"] {
                // Ignoring `"min": "5"` would quietly lift the bound its author meant to set.
                if let bound = node[key], bound.number == nil {
                    context.error(
                        "expected a number, got \(bound.value.typeName)", at: bound, path: path.key(key))
                    return nil
                }
            }
            var range: ClosedRange<Double>?
            if kind == .number, node["min"] != nil || node["max"] != nil {
                let low = node["min"]?.number ?? -Double.greatestFiniteMagnitude
                let high = node["max"]?.number ?? Double.greatestFiniteMagnitude
                guard low <= high else {
                    context.error("min must not exceed max", at: node, path: path)
                    return nil
                }
                range = low...high
            }
            guard let defaultNode = node["default"] else {
                context.error("missing required key 'default'", at: node, path: path)
                return nil
            }
            let text: String
            switch defaultNode.value {
            case .string(let s): text = s
            case .number(let n): text = NumberText.format(n)
            default:
                context.error(
                    "expected a string or number default, got \(defaultNode.value.typeName)", at: defaultNode,
                    path: path.key("default"))
                return nil
            }
            let declaration = VariableDeclaration(name: name, kind: kind, defaultValue: text, range: range)
            if let problem = check(text, as: declaration) {
                context.error(
                    "default '\(TerminalText.excerpt(text))': \(problem)", at: defaultNode,
                    path: path.key("default"))
                return nil
            }
            return declaration
        default:
            context.error(
                "expected a declaration object, a string or a number, got \(member.value.value.typeName)",
                at: member.value, path: path)
            return nil
        }
    }

    static func isValidName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, !name.isEmpty, name.count <= 64 else { return false }
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "_"))
        return !CharacterSet.decimalDigits.contains(first)
            && name.unicodeScalars.allSatisfy { $0.isASCII && allowed.contains($0) }
    }

    /// Why `value` does not fit the declaration, or nil.
    static func check(_ value: String, as declaration: VariableDeclaration) -> String? {
        if value.utf8.count > maximumValueLength { return "longer than \(maximumValueLength) bytes" }
        switch declaration.kind {
        case .text: return nil
        case .number:
            guard let number = Double(value), number.isFinite else { return "expected a number" }
            if let range = declaration.range, !range.contains(number) {
                return
                    "expected \(NumberText.format(range.lowerBound))…\(NumberText.format(range.upperBound))"
            }
            return nil
        case .color:
            return RGBA(css: value) == nil
                ? "expected a colour: #rgb, #rgba, #rrggbb, #rrggbbaa or a CSS colour name" : nil
        case .path:
            if value.isEmpty { return "a path must not be empty" }
            return value.contains("\0") ? "a path must not contain NUL" : nil
        }
    }

    /// The job with every `{"var": …}` and `${…}` replaced (the `variables` object itself is left
    /// alone); unknown names are errors at their location.
    static func substitute(
        _ node: JSONNode, path: JSONPath, declarations: [String: VariableDeclaration],
        values: [String: String],
        context: DecodeContext
    ) -> JSONNode {
        switch node.value {
        case .object(let members):
            if members.count == 1, members[0].key == "var" {
                guard let name = members[0].value.string else {
                    context.error("expected a variable name", at: members[0].value, path: path.key("var"))
                    return node
                }
                guard let declaration = declarations[name], let value = values[name] else {
                    context.error(unknown(name, declarations), at: members[0].value, path: path.key("var"))
                    context.unresolvedReferences.insert(path.description)
                    return node
                }
                let replaced: JSONValue =
                    declaration.kind == .number ? .number(Double(value) ?? 0) : .string(value)
                return JSONNode(value: replaced, location: node.location)
            }
            let isRoot = path == .root
            return JSONNode(
                value: .object(
                    members.map { member in
                        // Inline compositions take their variables from the layers that play them.
                        guard !(isRoot && (member.key == "variables" || member.key == "compositions")) else {
                            return member
                        }
                        return JSONMember(
                            key: member.key, keyLocation: member.keyLocation,
                            value: substitute(
                                member.value, path: path.key(member.key), declarations: declarations,
                                values: values,
                                context: context))
                    }),
                location: node.location)
        case .array(let elements):
            return JSONNode(
                value: .array(
                    elements.enumerated().map { index, element in
                        substitute(
                            element, path: path.index(index), declarations: declarations, values: values,
                            context: context)
                    }),
                location: node.location)
        case .string(let text) where text.contains("${"):
            return JSONNode(
                value: .string(
                    interpolate(text, opening: "${", values: values) { name in
                        context.error(unknown(name, declarations), at: node, path: path)
                    }),
                location: node.location)
        default:
            return node
        }
    }

    static func unknown(_ name: String, _ declarations: [String: VariableDeclaration]) -> String {
        let known = declarations.keys.sorted()
        return "unknown variable '\(name)'\(Suggestion.hint(for: name, among: known))"
            + (known.isEmpty
                ? " (no variables are declared)" : " (declared: \(known.joined(separator: ", ")))")
    }

    /// Replaces `<opening>name}` with the values; calls `missing` for names it does not know and
    /// leaves them as written.
    static func interpolate(
        _ text: String, opening: String, values: [String: String], missing: (String) -> Void
    ) -> String {
        var result = ""
        var rest = Substring(text)
        while let start = rest.range(of: opening) {
            result += rest[..<start.lowerBound]
            let after = rest[start.upperBound...]
            guard let close = after.firstIndex(of: "}") else {
                result += rest[start.lowerBound...]
                return result
            }
            let name = String(after[..<close])
            if let value = values[name] {
                result += value
            } else {
                missing(name)
                result += rest[start.lowerBound...close]
            }
            rest = after[after.index(after: close)...]
        }
        return result + rest
    }
}
