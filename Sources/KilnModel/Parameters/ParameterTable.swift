import Foundation

/// The declared keys of a JSON object (a layer kind's parameters, the output settings), which
/// decodes, validates and documents that object in one place.
public struct ParameterTable: Sendable {
    public let parameters: [Parameter]

    public init(_ parameters: [Parameter]) {
        precondition(Set(parameters.map(\.name)).count == parameters.count, "duplicate parameter names")
        self.parameters = parameters
    }

    public subscript(name: String) -> Parameter? {
        parameters.first { $0.name == name }
    }

    /// Decodes an object against the table, reporting every problem (unknown keys with "did you
    /// mean", wrong types, out-of-range values, missing required keys) and never stopping at the
    /// first. `extraKeys` are handled by the caller: allowed here, not decoded.
    public func decode(
        _ node: JSONNode, path: JSONPath, context: DecodeContext, extraKeys: Set<String> = []
    ) -> DecodedParameters {
        var values: [String: DecodedParameters.Stored] = [:]
        var nodes: [String: JSONNode] = [:]
        guard let members = node.members else {
            context.error("expected an object, got \(node.value.typeName)", at: node, path: path)
            for parameter in parameters {
                values[parameter.name] = fallback(for: parameter, context: context)
            }
            return DecodedParameters(objectPath: path, values: values, nodes: nodes)
        }
        ObjectKeys.check(
            members, path: path, allowed: parameters.map(\.name) + extraKeys.sorted(), context: context)
        for parameter in parameters {
            guard let valueNode = node[parameter.name] else {
                if parameter.isRequired {
                    context.error("missing required key '\(parameter.name)'", at: node, path: path)
                }
                values[parameter.name] = fallback(for: parameter, context: context)
                continue
            }
            nodes[parameter.name] = valueNode
            values[parameter.name] =
                decodeValue(parameter, valueNode, path: path.key(parameter.name), context: context)
                ?? fallback(for: parameter, context: context)
        }
        return DecodedParameters(objectPath: path, values: values, nodes: nodes)
    }

    private func decodeValue(
        _ parameter: Parameter, _ node: JSONNode, path: JSONPath, context: DecodeContext
    ) -> DecodedParameters.Stored? {
        switch parameter.kind {
        case .number(let range):
            return ValueDecoding.decodeNumber(node, path: path, range: range, context: context).map {
                .number($0)
            }
        case .constantNumber(let range):
            return ValueDecoding.constantNumber(node, path: path, range: range, context: context).map {
                .number(.constant($0))
            }
        case .integer(let range):
            return ValueDecoding.decodeInteger(node, path: path, range: range, context: context).map {
                .integer($0)
            }
        case .boolean:
            return ValueDecoding.decodeBoolean(node, path: path, context: context).map { .boolean($0) }
        case .string:
            return ValueDecoding.decodeString(node, path: path, context: context).map { .string($0) }
        case .choice(let choices):
            return ValueDecoding.decodeChoice(node, path: path, choices: choices, context: context).map {
                .string($0)
            }
        case .color:
            return ValueDecoding.decodeColor(node, path: path, context: context).map { .color($0) }
        case .point(let range):
            return ValueDecoding.decodePoint(node, path: path, range: range, context: context).map {
                .point($0)
            }
        case .colorList:
            return ValueDecoding.decodeColorList(node, path: path, context: context).map { .colors($0) }
        case .pointList(let range):
            return ValueDecoding.decodePointList(node, path: path, range: range, context: context).map {
                .points($0)
            }
        case .assetPath:
            guard let written = ValueDecoding.decodeString(node, path: path, context: context) else {
                return nil
            }
            return AssetResolution.resolve(written, node: node, path: path, context: context)
                .map { .asset($0, written: written) }
        case .structured:
            return .structured
        }
    }

    /// The default when there is one, else a placeholder inside the declared range so that
    /// later checks do not pile spurious errors on top of the real one.
    private func fallback(for parameter: Parameter, context: DecodeContext) -> DecodedParameters.Stored {
        switch (parameter.kind, parameter.defaultValue) {
        case (.number, .number(let value)?): return .number(.constant(value))
        case (.number, .integer(let value)?): return .number(.constant(Double(value)))
        case (.number(let range), _):
            return .number(.constant(min(max(0, range.lowerBound), range.upperBound)))
        case (.constantNumber, .number(let value)?): return .number(.constant(value))
        case (.constantNumber, .integer(let value)?): return .number(.constant(Double(value)))
        case (.constantNumber(let range), _):
            return .number(.constant(min(max(0, range.lowerBound), range.upperBound)))
        case (.integer, .integer(let value)?): return .integer(value)
        case (.integer(let range), _): return .integer(min(max(0, range.lowerBound), range.upperBound))
        case (.boolean, .boolean(let value)?): return .boolean(value)
        case (.boolean, _): return .boolean(false)
        case (.string, .string(let value)?): return .string(value)
        case (.string, _): return .string("")
        case (.choice, .string(let value)?): return .string(value)
        case (.choice(let choices), _): return .string(choices.first ?? "")
        case (.color, .color(let value)?): return .color(.constant(value))
        case (.color, _): return .color(.constant(.clear))
        case (.point, .point(let value)?): return .point(.constant(value))
        case (.point(let range), _):
            let coordinate = range.map { min(max(0, $0.lowerBound), $0.upperBound) } ?? 0
            return .point(.constant(Point2(x: coordinate, y: coordinate)))
        case (.colorList, _): return .colors([])
        case (.pointList, _): return .points([])
        case (.assetPath, .string(let value)?):
            // Defaults come from the program, not the user, so they are not checked for existence.
            return .asset(value.isEmpty ? nil : context.resolvePath(value), written: value)
        case (.assetPath, _): return .asset(nil, written: "")
        case (.structured, _): return .structured
        }
    }
}
