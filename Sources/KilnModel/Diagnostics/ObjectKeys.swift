/// Rejects duplicate and unknown keys of a JSON object. RFC 8259 leaves duplicates undefined,
/// and silently taking one of them hides mistakes, so every object in a job goes through here.
enum ObjectKeys {
    static func check(_ members: [JSONMember], path: JSONPath, allowed: [String], context: DecodeContext) {
        var seen = Set<String>()
        for member in members {
            let memberPath = path.key(member.key)
            if !seen.insert(member.key).inserted {
                context.error("duplicate key '\(member.key)'", location: member.keyLocation, path: memberPath)
                continue
            }
            if allowed.contains(member.key) { continue }
            var message = "unknown key '\(member.key)'"
            let hint = Suggestion.hint(for: member.key, among: allowed)
            if hint.isEmpty {
                message += allowed.isEmpty ? "" : " (allowed keys: \(allowed.joined(separator: ", ")))"
            } else {
                message += hint
            }
            context.error(message, location: member.keyLocation, path: memberPath)
        }
    }
}
