import Foundation

/// The values of a parameter table decoded from one JSON object. Values that had errors hold
/// their default or a harmless placeholder; callers check `DecodeContext.diagnostics` at the end.
///
/// Values are read through the keys the table was built from (`parameters[key]`, in
/// `ParameterKey.swift`); the getters by name below are what those reads call. Reading a key that
/// is not in the table decoded is a programming error and traps.
public struct DecodedParameters: Sendable {
    enum Stored: Sendable {
        case number(Animated<Double>)
        case integer(Int)
        case boolean(Bool)
        case string(String)
        case color(Animated<RGBA>)
        case point(Animated<Point2>)
        case colors([Animated<RGBA>])
        case points([Animated<Point2>])
        case asset(URL?, written: String)
        /// Decoded by the owner from the node.
        case structured
    }

    /// The path of the decoded object itself.
    public let objectPath: JSONPath
    let values: [String: Stored]
    let nodes: [String: JSONNode]

    func number(_ name: String) -> Animated<Double> {
        guard case .number(let value) = stored(name) else { wrongGetter(name, "number") }
        return value
    }

    func integer(_ name: String) -> Int {
        guard case .integer(let value) = stored(name) else { wrongGetter(name, "integer") }
        return value
    }

    func boolean(_ name: String) -> Bool {
        guard case .boolean(let value) = stored(name) else { wrongGetter(name, "boolean") }
        return value
    }

    /// For `.string`, `.choice` and `.assetPath` (the path as written) parameters.
    func string(_ name: String) -> String {
        switch stored(name) {
        case .string(let value): return value
        case .asset(_, let written): return written
        default: wrongGetter(name, "string")
        }
    }

    func color(_ name: String) -> Animated<RGBA> {
        guard case .color(let value) = stored(name) else { wrongGetter(name, "color") }
        return value
    }

    func point(_ name: String) -> Animated<Point2> {
        guard case .point(let value) = stored(name) else { wrongGetter(name, "point") }
        return value
    }

    func colors(_ name: String) -> [Animated<RGBA>] {
        guard case .colors(let value) = stored(name) else { wrongGetter(name, "colorList") }
        return value
    }

    func points(_ name: String) -> [Animated<Point2>] {
        guard case .points(let value) = stored(name) else { wrongGetter(name, "pointList") }
        return value
    }

    /// The resolved file, or nil when absent (empty default) or invalid.
    func asset(_ name: String) -> URL? {
        guard case .asset(let url, _) = stored(name) else { wrongGetter(name, "assetPath") }
        return url
    }

    /// True when the key was written in the job rather than defaulted.
    func isPresent(_ name: String) -> Bool { nodes[name] != nil }

    /// The JSON written for the key, for caller-side checks that want a location.
    func node(_ name: String) -> JSONNode? { nodes[name] }

    func path(_ name: String) -> JSONPath { objectPath.key(name) }

    private func stored(_ name: String) -> Stored {
        guard let value = values[name] else {
            preconditionFailure("'\(name)' is not a parameter of this table (at \(objectPath))")
        }
        return value
    }

    private func wrongGetter(_ name: String, _ getter: String) -> Never {
        preconditionFailure("parameter '\(name)' is not a \(getter) parameter")
    }
}
