/// Reads a pointer event log: JSON (an array of `{"t", "x", "y", "kind", "key"}` or an object
/// with an `events` array) or CSV (`t,x,y,kind[,key]` under that header), stopping at the first
/// problem with its line (and JSON path). Every number is finite and bounded, so a log cannot
/// carry NaN or 1e308 into the path or the camera.
public enum PointerEventParser {
    public enum Format: String, Sendable { case json, csv }

    /// Logs are small; the fixed cap holds whatever the limits say.
    public static let maximumInputSize = 64 * 1024 * 1024
    public static let timeRange = 0.0...1_000_000
    public static let coordinateRange = -65_536.0...65_536
    /// In characters, as shown on the badge.
    public static let maximumKeyLength = 32
    static let eventKeys = ["t", "x", "y", "kind", "key"]

    /// `format` nil: from the extension (`.json`, `.csv`), else from the first character.
    public static func parse(
        _ bytes: [UInt8], file: String, format: Format? = nil, limits: ResourceLimits? = nil
    ) throws(PointerEventError) -> PointerEventLog {
        guard bytes.count <= maximumInputSize else {
            throw PointerEventError(file: file, line: nil, message: tooLarge(bytes.count))
        }
        if let limits,
            let problem = limits.violation(.eventLogBytes, bytes.count, "the event log's size in bytes")
        {
            throw PointerEventError(file: file, line: nil, message: problem)
        }
        let maximumCount =
            limits?.count(.eventLogEvents) ?? Int(ResourceLimits.Name.eventLogEvents.defaultValue)
        let log: PointerEventLog
        switch format ?? detect(file: file, bytes: bytes) {
        case .json: log = try JSONEvents(file: file, maximumCount: maximumCount).parse(bytes)
        case .csv: log = try CSVEvents(file: file, maximumCount: maximumCount).parse(bytes)
        }
        return log
    }

    /// Reads and parses a log file; errors name the file as given.
    public static func load(file: String, format: Format? = nil, limits: ResourceLimits? = nil)
        throws(PointerEventError) -> PointerEventLog
    {
        let byteLimit = min(maximumInputSize, limits?.count(.eventLogBytes) ?? maximumInputSize)
        let bytes: [UInt8]
        switch RegularFileReader.read(path: file, limit: byteLimit) {
        case .success(let read): bytes = read
        case .failure(.missing): throw PointerEventError(file: file, line: nil, message: "no such file")
        case .failure(.notRegular(let kind)):
            throw PointerEventError(file: file, line: nil, message: "is \(kind), not an event log")
        case .failure(.tooLarge(let size)):
            let problem = limits?.violation(.eventLogBytes, size, "the event log's size in bytes")
            throw PointerEventError(file: file, line: nil, message: problem ?? tooLarge(size))
        case .failure(.unreadable(let reason)):
            throw PointerEventError(file: file, line: nil, message: "cannot be read (\(reason))")
        }
        return try parse(bytes, file: file, format: format, limits: limits)
    }

    static func detect(file: String, bytes: [UInt8]) -> Format {
        let lower = file.lowercased()
        if lower.hasSuffix(".json") { return .json }
        if lower.hasSuffix(".csv") { return .csv }
        let first = bytes.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
        return first == UInt8(ascii: "{") || first == UInt8(ascii: "[") ? .json : .csv
    }

    private static func tooLarge(_ size: Int) -> String {
        "expected at most \(maximumInputSize) bytes (64 MiB), got a file of \(size) bytes"
    }

    /// The problem with an event's time, coordinates, kind and key taken together, and with its
    /// time after the previous event's, if any; `field` names the key the problem is about.
    static func problem(_ event: PointerEvent, after previous: PointerEvent?) -> (
        field: String, message: String
    )? {
        if event.kind == .key {
            guard let key = event.key, !key.isEmpty else {
                return ("key", "expected the key's text for a key event, e.g. \"⌘K\"")
            }
            if key.count > maximumKeyLength {
                return (
                    "key", "expected a key text of at most \(maximumKeyLength) characters, got \(key.count)"
                )
            }
        } else if event.key != nil {
            return ("key", "a key text is only for kind \"key\", got kind \"\(event.kind.rawValue)\"")
        } else if event.position == nil {
            return ("x", "expected x and y: a \(event.kind.rawValue) event places the pointer")
        }
        if let previous, event.time < previous.time {
            return (
                "t",
                "expected events in time order, got \(NumberText.format(event.time)) after "
                    + NumberText.format(previous.time)
            )
        }
        return nil
    }

    /// Two events placing the pointer at one moment would ask it to be in two places.
    static func samePlaceTimeProblem(_ event: PointerEvent, lastPlaced: PointerEvent?) -> String? {
        guard event.position != nil, let lastPlaced, lastPlaced.time == event.time else { return nil }
        return "two events place the pointer at \(NumberText.format(event.time)) s; expected a later time"
    }

    static func numberProblem(_ value: Double?, _ range: ClosedRange<Double>, unit: String) -> String? {
        guard let value else { return "expected a number of \(unit)" }
        guard value.isFinite, range.contains(value) else {
            return
                "expected a number of \(unit) in \(NumberText.format(range)), got \(NumberText.format(value))"
        }
        return nil
    }

    static func kindProblem(_ text: String) -> String {
        let names = PointerEvent.Kind.allCases.map(\.rawValue)
        return "unknown kind '\(text)'; expected one of \(names.joined(separator: ", "))"
            + Suggestion.hint(for: text, among: names)
    }
}

/// The JSON form, with errors at `line:column` naming the JSON path.
private struct JSONEvents {
    let file: String
    let maximumCount: Int

    func parse(_ bytes: [UInt8]) throws(PointerEventError) -> PointerEventLog {
        let root: JSONNode
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            throw PointerEventError(
                file: file, line: error.location.line, column: error.location.column, message: error.message)
        }
        var array = root, arrayPath = JSONPath.root
        if let members = root.members {
            guard let events = members.first(where: { $0.key == "events" }) else {
                throw failure("expected an \"events\" array in the top-level object", at: root, path: .root)
            }
            array = events.value
            arrayPath = JSONPath.root.key("events")
        }
        guard let elements = array.elements else {
            throw failure(
                "expected an array of events {\"t\", \"x\", \"y\", \"kind\"}, got \(array.value.typeName)",
                at: array, path: arrayPath)
        }
        guard elements.count <= maximumCount else {
            throw failure(
                ResourceLimits.message(
                    .eventLogEvents, value: Double(elements.count), maximum: Double(maximumCount),
                    what: "the number of events"), at: array, path: arrayPath)
        }
        var events: [PointerEvent] = []
        events.reserveCapacity(elements.count)
        var lastPlaced: PointerEvent?
        for (index, node) in elements.enumerated() {
            let path = arrayPath.index(index)
            let event = try self.event(node, path: path)
            if let (field, message) = PointerEventParser.problem(event, after: events.last) {
                throw failure(message, at: node[field] ?? node, path: path.key(field))
            }
            if let message = PointerEventParser.samePlaceTimeProblem(event, lastPlaced: lastPlaced) {
                throw failure(message, at: node["t"] ?? node, path: path.key("t"))
            }
            if event.position != nil { lastPlaced = event }
            events.append(event)
        }
        return PointerEventLog(events: events)
    }

    private func event(_ node: JSONNode, path: JSONPath) throws(PointerEventError) -> PointerEvent {
        guard let members = node.members else {
            throw failure(
                "expected an event {\"t\": s, \"x\": px, \"y\": px, \"kind\": \"click\"}, got \(node.value.typeName)",
                at: node, path: path)
        }
        var seen = Set<String>()
        for member in members {
            guard PointerEventParser.eventKeys.contains(member.key) else {
                throw failure(
                    "unknown key '\(member.key)'; expected t, x, y, kind and key"
                        + Suggestion.hint(for: member.key, among: PointerEventParser.eventKeys),
                    location: member.keyLocation, path: path.key(member.key))
            }
            guard seen.insert(member.key).inserted else {
                throw failure(
                    "duplicate key '\(member.key)'; expected it once", location: member.keyLocation,
                    path: path.key(member.key))
            }
        }
        func number(_ key: String, _ range: ClosedRange<Double>, unit: String) throws(PointerEventError)
            -> Double?
        {
            guard let value = node[key] else { return nil }
            if let problem = PointerEventParser.numberProblem(value.number, range, unit: unit) {
                let got = value.number == nil ? ", got \(value.value.typeName)" : ""
                throw failure(problem + got, at: value, path: path.key(key))
            }
            return value.number
        }
        guard let time = try number("t", PointerEventParser.timeRange, unit: "seconds") else {
            throw failure("expected \"t\": the event's time in seconds", at: node, path: path)
        }
        let x = try number("x", PointerEventParser.coordinateRange, unit: "pixels")
        let y = try number("y", PointerEventParser.coordinateRange, unit: "pixels")
        guard (x == nil) == (y == nil) else {
            throw failure("expected both x and y, or neither", at: node, path: path.key(x == nil ? "x" : "y"))
        }
        guard let kindNode = node["kind"] else {
            throw failure("expected \"kind\": move, click, tap, drag or key", at: node, path: path)
        }
        guard let kindText = kindNode.string else {
            throw failure(
                "expected a string, got \(kindNode.value.typeName)", at: kindNode, path: path.key("kind"))
        }
        guard let kind = PointerEvent.Kind(rawValue: kindText) else {
            throw failure(PointerEventParser.kindProblem(kindText), at: kindNode, path: path.key("kind"))
        }
        var key: String?
        if let keyNode = node["key"] {
            guard let text = keyNode.string else {
                throw failure(
                    "expected a string, got \(keyNode.value.typeName)", at: keyNode, path: path.key("key"))
            }
            key = text
        }
        return PointerEvent(
            time: time, position: x.flatMap { x in y.map { SIMD2(x, $0) } }, kind: kind, key: key)
    }

    func failure(_ message: String, at node: JSONNode, path: JSONPath) -> PointerEventError {
        failure(message, location: node.location, path: path)
    }

    func failure(_ message: String, location: SourceLocation, path: JSONPath) -> PointerEventError {
        PointerEventError(
            file: file, line: location.line, column: location.column,
            message: path.isRoot ? message : "\(path): \(message)")
    }
}

/// The CSV form: a header naming the columns, then one event a line; a field may be quoted
/// ("…", with "" for a quote), which is how a key text holding a comma is written.
private struct CSVEvents {
    let file: String
    let maximumCount: Int

    func parse(_ bytes: [UInt8]) throws(PointerEventError) -> PointerEventLog {
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        guard let text = String(validating: body, as: UTF8.self) else {
            throw PointerEventError(file: file, line: nil, message: "expected UTF-8 text")
        }
        var header: [String]?
        var events: [PointerEvent] = []
        var lastPlaced: PointerEvent?
        var lineNumber = 0
        // LF, CRLF and a lone CR each end a line, as for transcripts.
        for rawLine in text.split(
            omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" })
        {
            lineNumber += 1
            let line = rawLine.trimmingSpaces
            if line.isEmpty || line.hasPrefix("#") { continue }
            let fields = try split(line, line: lineNumber)
            guard let columns = header else {
                let names = fields.map { $0.lowercased() }
                guard names == ["t", "x", "y", "kind"] || names == ["t", "x", "y", "kind", "key"] else {
                    throw error(
                        "expected the header t,x,y,kind or t,x,y,kind,key, got a line of \(fields.count) fields",
                        line: lineNumber)
                }
                header = names
                continue
            }
            guard fields.count == columns.count || (fields.count == 4 && columns.count == 5) else {
                throw error(
                    "expected \(columns.count) fields (\(columns.joined(separator: ","))), got \(fields.count)",
                    line: lineNumber)
            }
            guard events.count < maximumCount else {
                throw error(
                    ResourceLimits.message(
                        .eventLogEvents, value: Double(maximumCount + 1), maximum: Double(maximumCount),
                        what: "the number of events"), line: lineNumber)
            }
            let event = try self.event(fields, line: lineNumber)
            if let (field, message) = PointerEventParser.problem(event, after: events.last) {
                throw error("\(field): \(message)", line: lineNumber)
            }
            if let message = PointerEventParser.samePlaceTimeProblem(event, lastPlaced: lastPlaced) {
                throw error("t: " + message, line: lineNumber)
            }
            if event.position != nil { lastPlaced = event }
            events.append(event)
        }
        guard header != nil else {
            throw PointerEventError(
                file: file, line: nil, message: "expected the header t,x,y,kind[,key]; the file is empty")
        }
        return PointerEventLog(events: events)
    }

    private func event(_ fields: [String], line: Int) throws(PointerEventError) -> PointerEvent {
        func number(_ index: Int, _ name: String, _ range: ClosedRange<Double>, unit: String)
            throws(PointerEventError) -> Double?
        {
            let text = fields[index]
            if text.isEmpty { return nil }
            let value = Double(text)
            if let problem = PointerEventParser.numberProblem(value, range, unit: unit) {
                throw error(
                    "\(name): " + problem + (value == nil ? ", got a field of \(text.count) characters" : ""),
                    line: line)
            }
            return value
        }
        guard let time = try number(0, "t", PointerEventParser.timeRange, unit: "seconds") else {
            throw error("t: expected the event's time in seconds, got an empty field", line: line)
        }
        let x = try number(1, "x", PointerEventParser.coordinateRange, unit: "pixels")
        let y = try number(2, "y", PointerEventParser.coordinateRange, unit: "pixels")
        guard (x == nil) == (y == nil) else { throw error("expected both x and y, or neither", line: line) }
        guard let kind = PointerEvent.Kind(rawValue: fields[3]) else {
            throw error("kind: " + PointerEventParser.kindProblem(fields[3]), line: line)
        }
        let key = fields.count > 4 && !fields[4].isEmpty ? fields[4] : nil
        return PointerEvent(
            time: time, position: x.flatMap { x in y.map { SIMD2(x, $0) } }, kind: kind, key: key)
    }

    private func split(_ line: String, line number: Int) throws(PointerEventError) -> [String] {
        var fields: [String] = [], field = "", quoted = false, wasQuoted = false
        var characters = line.makeIterator()
        while let c = characters.next() {
            if quoted {
                if c == "\"" {
                    // A doubled quote is a quote; a single one ends the field's quoted part.
                    var lookahead = characters
                    if lookahead.next() == "\"" {
                        field.append("\"")
                        characters = lookahead
                    } else {
                        quoted = false
                    }
                } else {
                    field.append(c)
                }
            } else if c == "," {
                fields.append(wasQuoted ? field : field.trimmingSpaces)
                field = ""
                wasQuoted = false
            } else if c == "\"" && field.trimmingSpaces.isEmpty && !wasQuoted {
                quoted = true
                wasQuoted = true
                field = ""
            } else {
                field.append(c)
            }
        }
        guard !quoted else { throw error("expected a closing quote", line: number) }
        fields.append(wasQuoted ? field : field.trimmingSpaces)
        return fields
    }

    func error(_ message: String, line: Int) -> PointerEventError {
        PointerEventError(file: file, line: line, message: message)
    }
}

extension StringProtocol {
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
