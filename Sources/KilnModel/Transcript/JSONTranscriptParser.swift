/// The JSON of the transcripts in `shared/seeds`:
/// `{"segments": [{"start": seconds, "text": "…"}, …], …}` or a bare array of segments. A segment
/// lasts until the next one starts. A segment may list when its words are said:
/// `"words": [{"start": seconds, "text": "…"}]`, each word found in the segment's text after the
/// one before it.
enum JSONTranscriptParser {
    static let segmentKeys = ["start", "text", "words"]
    static let wordKeys = ["start", "text"]

    static func parse(_ bytes: [UInt8], file: String) throws(TranscriptError) -> Transcript {
        let root: JSONNode
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            throw TranscriptError(
                file: file, line: error.location.line, column: error.location.column, message: error.message)
        }
        let failure = Failure(file: file)
        let (segments, segmentsPath) = try segmentArray(in: root, failure: failure)
        guard let elements = segments.elements else {
            throw failure(
                "expected an array of segments, got \(segments.value.typeName)", at: segments,
                path: segmentsPath)
        }
        if let problem = TranscriptParser.countProblem(elements.count, noun: "segment") {
            throw failure(problem, at: segments, path: segmentsPath)
        }
        var lines: [TranscriptLine] = []
        lines.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            let line = try segment(element, path: segmentsPath.index(index), failure: failure)
            if let previous = lines.last, line.start < previous.start {
                throw failure(
                    "expected segments in order of their start, got \(NumberText.format(line.start)) after "
                        + "a segment starting at \(NumberText.format(previous.start))",
                    at: element["start"] ?? element, path: segmentsPath.index(index).key("start"))
            }
            lines.append(line)
        }
        return Transcript(lines: lines)
    }

    /// Other top-level keys (`$schema`, `id`, `language`…) describe the transcript and are left
    /// alone; only the segments matter here.
    private static func segmentArray(
        in root: JSONNode, failure: Failure
    ) throws(TranscriptError) -> (JSONNode, JSONPath) {
        switch root.value {
        case .array:
            return (root, .root)
        case .object(let members):
            let matches = members.filter { $0.key == "segments" }
            guard let first = matches.first else {
                throw failure("expected a \"segments\" array in the top-level object", at: root, path: .root)
            }
            if matches.count > 1 {
                throw failure(
                    "duplicate key 'segments'; expected it once", location: matches[1].keyLocation,
                    path: JSONPath.root.key("segments"))
            }
            return (first.value, JSONPath.root.key("segments"))
        default:
            throw failure(
                "expected an object with a \"segments\" array, or an array of segments, got "
                    + root.value.typeName, at: root, path: .root)
        }
    }

    private static func segment(
        _ node: JSONNode, path: JSONPath, failure: Failure
    ) throws(TranscriptError) -> TranscriptLine {
        guard let members = node.members else {
            throw failure(
                "expected a segment {\"start\": seconds, \"text\": \"…\"}, got \(node.value.typeName)",
                at: node,
                path: path)
        }
        var seen = Set<String>()
        for member in members {
            guard segmentKeys.contains(member.key) else {
                let hint = Suggestion.hint(for: member.key, among: segmentKeys)
                throw failure(
                    "unknown key '\(member.key)'; expected only \"start\", \"text\" and \"words\"" + hint,
                    location: member.keyLocation, path: path.key(member.key))
            }
            guard seen.insert(member.key).inserted else {
                throw failure(
                    "duplicate key '\(member.key)'; expected it once", location: member.keyLocation,
                    path: path.key(member.key))
            }
        }
        guard let startNode = node["start"] else {
            throw failure("expected a \"start\" in seconds", at: node, path: path)
        }
        let latest = ValueDecoding.magnitudeRange.upperBound
        guard let start = startNode.number, start >= 0, start <= latest else {
            let got = startNode.number.map(NumberText.format) ?? startNode.value.typeName
            throw failure(
                "expected a number of seconds in 0…\(NumberText.format(latest)), got \(got)", at: startNode,
                path: path.key("start"))
        }
        guard let textNode = node["text"] else {
            throw failure("expected a \"text\" string", at: node, path: path)
        }
        guard let text = textNode.string else {
            throw failure(
                "expected a string, got \(textNode.value.typeName)", at: textNode, path: path.key("text"))
        }
        if let problem = TranscriptParser.textProblem(text) {
            throw failure(problem, at: textNode, path: path.key("text"))
        }
        guard let wordsNode = node["words"] else { return TranscriptLine(start: start, text: text) }
        return TranscriptLine(
            start: start, text: text,
            wordTimes: try wordTimes(
                wordsNode, in: text, after: start, path: path.key("words"), failure: failure))
    }

    /// Each word's place in the text: searched from where the word before it ended, so that a
    /// word said twice is found twice.
    private static func wordTimes(
        _ node: JSONNode, in text: String, after segmentStart: Double, path: JSONPath, failure: Failure
    ) throws(TranscriptError) -> [TranscriptLine.WordTime] {
        guard let elements = node.elements else {
            throw failure("expected an array of words, got \(node.value.typeName)", at: node, path: path)
        }
        let utf8 = Array(text.utf8)
        var times: [TranscriptLine.WordTime] = []
        var searchFrom = 0
        var previousStart = segmentStart
        for (index, element) in elements.enumerated() {
            let wordPath = path.index(index)
            guard let members = element.members else {
                throw failure(
                    "expected a word {\"start\": seconds, \"text\": \"…\"}, got \(element.value.typeName)",
                    at: element, path: wordPath)
            }
            for member in members where !wordKeys.contains(member.key) {
                throw failure(
                    "unknown key '\(member.key)'; expected only \"start\" and \"text\""
                        + Suggestion.hint(for: member.key, among: wordKeys),
                    location: member.keyLocation, path: wordPath.key(member.key))
            }
            guard let startNode = element["start"], let wordStart = startNode.number,
                wordStart >= previousStart, wordStart <= ValueDecoding.magnitudeRange.upperBound
            else {
                throw failure(
                    "expected a number of seconds from the segment's start (or the word before) on, "
                        + "\(NumberText.format(previousStart)) or later",
                    at: element["start"] ?? element, path: wordPath.key("start"))
            }
            guard let word = element["text"]?.string, !word.isEmpty else {
                throw failure(
                    "expected the word's \"text\", a non-empty string", at: element["text"] ?? element,
                    path: wordPath.key("text"))
            }
            let needle = Array(word.utf8)
            guard let found = firstOffset(of: needle, in: utf8, from: searchFrom) else {
                throw failure(
                    "expected the word's text in the segment's text after the words before it",
                    at: element["text"] ?? element, path: wordPath.key("text"))
            }
            times.append(TranscriptLine.WordTime(offset: found, start: wordStart))
            searchFrom = found + needle.count
            previousStart = wordStart
        }
        return times
    }

    /// Checked against the segment's text, which is at most `TranscriptParser.maximumTextLength`
    /// characters: the plain search is cheap enough.
    private static func firstOffset(of needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        var offset = start
        while offset + needle.count <= haystack.count {
            if haystack[offset..<offset + needle.count].elementsEqual(needle) { return offset }
            offset += 1
        }
        return nil
    }

    /// Makes errors that point at a JSON value and name its path, like job diagnostics.
    private struct Failure {
        let file: String

        func callAsFunction(_ message: String, at node: JSONNode, path: JSONPath) -> TranscriptError {
            callAsFunction(message, location: node.location, path: path)
        }

        func callAsFunction(_ message: String, location: SourceLocation, path: JSONPath) -> TranscriptError {
            TranscriptError(
                file: file, line: location.line, column: location.column,
                message: path.isRoot ? message : "\(path): \(message)")
        }
    }
}
