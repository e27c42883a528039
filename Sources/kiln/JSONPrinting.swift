import Foundation

func printJSON(_ object: Any) throws {
    print(try jsonText(object, compact: false))
}

/// `object` as JSON text: pretty over several lines, or `compact` on one.
func jsonText(_ object: Any, compact: Bool) throws -> String {
    if compact {
        let data = try JSONSerialization.data(
            withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self)
    }
    let data = try JSONSerialization.data(
        withJSONObject: object, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])
    // Foundation writes an empty array or object over three lines; `[]` is what people and tools
    // expect. A line break is never inside a JSON string, so only empty containers match.
    let text = String(decoding: data, as: UTF8.self)
        .replacing(#/\[\n\s*\]/#, with: "[]").replacing(#/\{\n\s*\}/#, with: "{}")
    return text
}

/// One JSON object on one line (keys sorted), for streams of events a program reads line by line.
func jsonLine(_ object: [String: Any]) -> String {
    let data =
        (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
        ?? Data("{}".utf8)
    return String(decoding: data, as: UTF8.self)
}
