/// Decodes a layer's `transition` through the registered kinds: `"twirl"`, `{"scale": 0.5}`,
/// `{"blurReplace": {"radius": 8}}`, an array of transitions (combined), or
/// `{"insertion": …, "removal": …}` (asymmetric). Only those two structural forms are known here;
/// every name is looked up in the registry.
public struct TransitionDecoder {
    public let context: DecodeContext
    private let kindsByName: [String: TransitionKind]
    private let names: [String]

    public init(kinds: [TransitionKind], context: DecodeContext) {
        var byName: [String: TransitionKind] = [:]
        var names: [String] = []
        for kind in kinds where byName[kind.name] == nil {
            byName[kind.name] = kind
            names.append(kind.name)
        }
        self.kindsByName = byName
        self.names = names
        self.context = context
    }

    public func decode(_ node: JSONNode, path: JSONPath) -> Transition? {
        let before = context.diagnostics.count
        let transition: Transition?
        switch node.value {
        case .string(let name):
            transition = decodeBareName(name, node: node, path: path)
        case .array:
            transition = kind(named: CombinedTransition.kind.name, at: node.location, path: path).flatMap {
                build($0, value: node, path: path)
            }
        case .object(let members):
            if node["insertion"] != nil || node["removal"] != nil {
                transition = kind(named: AsymmetricTransition.kind.name, at: node.location, path: path)
                    .flatMap {
                        build($0, parameters: node, path: path)
                    }
            } else if members.count == 1, let member = members.first {
                let memberPath = path.key(member.key)
                transition = kind(named: member.key, at: member.keyLocation, path: memberPath).flatMap {
                    decodeValue(of: $0, member: member, path: memberPath)
                }
            } else {
                context.error(
                    "expected a transition object with one key naming it (e.g. {\"scale\": 0.5}), "
                        + "or {\"insertion\": …, \"removal\": …}", at: node, path: path)
                transition = nil
            }
        default:
            context.error(
                "expected a transition: a name such as \"opacity\", an object such as {\"scale\": 0.5}, "
                    + "or an array of transitions; got \(node.value.typeName)", at: node, path: path)
            transition = nil
        }
        return context.diagnostics.count == before ? transition : nil
    }

    private func kind(named name: String, at location: SourceLocation?, path: JSONPath) -> TransitionKind? {
        if let kind = kindsByName[name] { return kind }
        context.error(
            "unknown transition '\(name)'\(Suggestion.hint(for: name, among: names)) "
                + "(known: \(names.joined(separator: ", ")))", location: location, path: path)
        return nil
    }

    /// `"scale"`: every parameter at its default, when none is required.
    private func decodeBareName(_ name: String, node: JSONNode, path: JSONPath) -> Transition? {
        guard let kind = kind(named: name, at: node.location, path: path) else { return nil }
        if let required = kind.parameters.parameters.first(where: \.isRequired) {
            context.error(
                "'\(name)' needs a value, e.g. \(kind.example) (\(required.name): \(required.kind))",
                at: node,
                path: path)
            return nil
        }
        return build(kind, parameters: JSONNode(value: .object([]), location: node.location), path: path)
    }

    /// The value of `{"name": value}`: the shorthand, or an object of parameters.
    private func decodeValue(of kind: TransitionKind, member: JSONMember, path: JSONPath) -> Transition? {
        let value = member.value
        if kind.shorthandTakesAnyValue || (value.members == nil && kind.shorthand != nil) {
            return build(kind, value: value, path: path)
        }
        if kind.parameters.parameters.isEmpty {
            context.error(
                "'\(kind.name)' takes no value; write it as the string \"\(kind.name)\"",
                location: member.keyLocation, path: path)
            return nil
        }
        guard value.members != nil else {
            context.error(
                "expected an object of \(kind.name) parameters, e.g. \(kind.example), got \(value.value.typeName)",
                at: value, path: path)
            return nil
        }
        return build(kind, parameters: value, path: path)
    }

    /// The shorthand set to `value`, the other parameters at their defaults.
    private func build(_ kind: TransitionKind, value: JSONNode, path: JSONPath) -> Transition? {
        guard let shorthand = kind.shorthand else {
            context.error("'\(kind.name)' is written as \(kind.example)", at: value, path: path)
            return nil
        }
        let parameters = JSONNode(
            value: .object([JSONMember(key: shorthand, keyLocation: value.location, value: value)]),
            location: value.location)
        return build(kind, parameters: parameters, path: path)
    }

    private func build(_ kind: TransitionKind, parameters node: JSONNode, path: JSONPath) -> Transition? {
        let parameters = kind.parameters.decode(node, path: path, context: self.context)
        // Built even when a parameter had an error, so nested transitions report in the same run;
        // `decode` discards the result then.
        return kind.make(parameters, self).map(Transition.init)
    }
}
