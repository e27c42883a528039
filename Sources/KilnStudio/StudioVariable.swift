import Foundation

/// A variable the job declares, as the page's controls need it: read from the document's
/// `variables` object (the loader has already checked it when the job loaded).
struct StudioVariable {
    let name: String
    let type: String
    let defaultValue: String
    let minimum: Double?
    let maximum: Double?

    var json: [String: Any] {
        var object: [String: Any] = ["name": name, "type": type, "default": defaultValue]
        if let minimum { object["min"] = minimum }
        if let maximum { object["max"] = maximum }
        return object
    }

    /// The declarations in `document`, by name; none when it has no `variables` object.
    static func declared(in document: [UInt8]) -> [StudioVariable] {
        guard
            let root = try? JSONSerialization.jsonObject(with: Data(document)) as? [String: Any],
            let variables = root["variables"] as? [String: Any]
        else { return [] }
        return variables.keys.sorted().compactMap { name in
            switch variables[name] {
            // Before NSNumber: a string never reads as one. (Booleans are not variables.)
            case let text as String:
                return StudioVariable(
                    name: name, type: "text", defaultValue: text, minimum: nil, maximum: nil)
            case let number as NSNumber:
                return StudioVariable(
                    name: name, type: "number", defaultValue: number.stringValue, minimum: nil, maximum: nil)
            case let object as [String: Any]:
                let value = object["default"]
                let text = (value as? String) ?? (value as? NSNumber)?.stringValue ?? ""
                return StudioVariable(
                    name: name, type: object["type"] as? String ?? "text", defaultValue: text,
                    minimum: (object["min"] as? NSNumber)?.doubleValue,
                    maximum: (object["max"] as? NSNumber)?.doubleValue)
            default: return nil
            }
        }
    }
}
