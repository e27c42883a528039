import Foundation
import KilnModel

/// `kiln enqueue --batch`: one job per row, the row's values as variables. CSV (RFC 4180: a
/// header row of variable names, quoted fields with "" escapes and line breaks) or JSON Lines
/// (one object of strings or numbers per line). Errors name the file and line.
public enum BatchFile {
    public static let maximumRows = 100_000
    public static let maximumSize = 64 * 1024 * 1024

    public struct Failure: Error, CustomStringConvertible {
        public let file: String
        public let line: Int?
        public let message: String
        /// 66 (EX_NOINPUT) when there is no readable regular file to read, 65 for its content.
        public var exitCode: Int32 = 65
        public var description: String { "\(file)\(line.map { ":\($0)" } ?? ""): \(message)" }
    }

    /// The rows, each with the line it starts on.
    public static func rows(file: String) throws(Failure) -> [(line: Int, values: [String: String])] {
        // Opened non-blocking and checked on the descriptor: a FIFO or device is refused at once
        // instead of blocking the enqueue (or being read forever).
        let data: Data
        switch RegularFileReader.read(path: file, limit: maximumSize) {
        case .success(let bytes): data = Data(bytes)
        case .failure(.missing):
            throw Failure(file: file, line: nil, message: "no such file", exitCode: 66)
        case .failure(.notRegular(let kind)):
            throw Failure(file: file, line: nil, message: "is \(kind), not a regular file", exitCode: 66)
        case .failure(.tooLarge):
            throw Failure(file: file, line: nil, message: "larger than \(maximumSize / 1024 / 1024) MiB")
        case .failure(.unreadable(let reason)):
            throw Failure(file: file, line: nil, message: "cannot be read (\(reason))", exitCode: 66)
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw Failure(file: file, line: nil, message: "is not UTF-8 text")
        }
        let rows: [(line: Int, values: [String: String])]
        switch URL(fileURLWithPath: file).pathExtension.lowercased() {
        case "csv": rows = try csv(text, file: file)
        case "jsonl", "ndjson": rows = try jsonLines(text, file: file)
        default:
            throw Failure(file: file, line: nil, message: "expected a .csv or .jsonl file")
        }
        guard !rows.isEmpty else { throw Failure(file: file, line: nil, message: "has no rows") }
        guard rows.count <= maximumRows else {
            throw Failure(file: file, line: nil, message: "more than \(maximumRows) rows")
        }
        return rows
    }

    static func csv(_ text: String, file: String) throws(Failure) -> [(line: Int, values: [String: String])] {
        var records: [(line: Int, fields: [String])] = []
        var field = "", fields: [String] = []
        var quoted = false, atFieldStart = true, line = 1, recordLine = 1
        var characters = Array(text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text)
        characters.append("\n")
        var i = 0
        while i < characters.count {
            let c = characters[i]
            i += 1
            if quoted {
                if c == "\"" {
                    if i < characters.count && characters[i] == "\"" {
                        field.append("\"")
                        i += 1
                    } else {
                        quoted = false
                    }
                } else {
                    if c == "\n" || c == "\r\n" { line += 1 }
                    field.append(c)
                }
                continue
            }
            switch c {
            case "\"" where atFieldStart:
                quoted = true
                atFieldStart = false
            case "\"":
                throw Failure(file: file, line: line, message: "a quote inside an unquoted field")
            case ",":
                fields.append(field)
                field = ""
                atFieldStart = true
            case "\n", "\r\n", "\r":
                fields.append(field)
                if !(fields.count == 1 && fields[0].isEmpty) { records.append((recordLine, fields)) }
                field = ""
                fields = []
                atFieldStart = true
                line += 1
                recordLine = line
            default:
                field.append(c)
                atFieldStart = false
            }
        }
        if quoted { throw Failure(file: file, line: recordLine, message: "a quoted field is not closed") }
        guard let header = records.first else { return [] }
        let names = header.fields.map { $0.trimmingCharacters(in: .whitespaces) }
        if let empty = names.firstIndex(where: \.isEmpty) {
            throw Failure(file: file, line: 1, message: "column \(empty + 1) of the header has no name")
        }
        if Set(names).count != names.count {
            throw Failure(file: file, line: 1, message: "the header names a column twice")
        }
        return try records.dropFirst().map { record throws(Failure) in
            guard record.fields.count == names.count else {
                throw Failure(
                    file: file, line: record.line,
                    message: "expected \(names.count) fields (as the header), got \(record.fields.count)")
            }
            return (record.line, Dictionary(uniqueKeysWithValues: zip(names, record.fields)))
        }
    }

    static func jsonLines(_ text: String, file: String) throws(Failure) -> [(
        line: Int, values: [String: String]
    )] {
        var rows: [(line: Int, values: [String: String])] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !line.isEmpty else { continue }
            guard let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
            else {
                throw Failure(file: file, line: index + 1, message: "expected one JSON object per line")
            }
            var values: [String: String] = [:]
            for (key, value) in object {
                switch value {
                case let string as String: values[key] = string
                case let number as NSNumber: values[key] = number.stringValue
                default:
                    throw Failure(
                        file: file, line: index + 1,
                        message: "'\(key)' must be a string or a number, not \(type(of: value))")
                }
            }
            rows.append((index + 1, values))
        }
        return rows
    }
}
