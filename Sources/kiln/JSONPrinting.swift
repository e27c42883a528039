import Foundation

func printJSON(_ object: Any) throws {
    let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted])
    print(String(decoding: data, as: UTF8.self))
}

/// One JSON object on one line (keys sorted), for streams of events a program reads line by line.
func jsonLine(_ object: [String: Any]) -> String {
    let data =
        (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
        ?? Data("{}".utf8)
    return String(decoding: data, as: UTF8.self)
}
