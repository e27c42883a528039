import Foundation

/// Job variables as a JSON object of strings, keys sorted so equal maps store equal text.
enum VariablesJSON {
    static func encode(_ variables: [String: String]) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: variables, options: [.sortedKeys]) else {
            return "{}"
        }
        return String(decoding: data, as: UTF8.self)
    }

    static func decode(_ text: String) -> [String: String] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: String] ?? [:]
    }
}
