import CLibPQ
import Foundation

/// A connection string (URL or libpq `key=value` form) as libpq parses it: what may be shown
/// (user, host, port, database) and the password, kept only to scrub it from messages.
struct PostgresLocation {
    let user: String?
    let host: String?
    let port: String?
    let database: String?

    init(parsing conninfo: String) throws(PostgresError) {
        var errorMessage: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(conninfo, &errorMessage) else {
            let reason = errorMessage.map { String(cString: $0) } ?? "out of memory"
            PQfreemem(errorMessage)
            throw PostgresError(
                sqlState: nil,
                message: "the connection string does not parse (\(Self.withoutQuotes(reason))); it is not "
                    + "shown, since it may hold a password",
                isConnectionFailure: true)
        }
        defer { PQconninfoFree(options) }
        var values: [String: String] = [:]
        var option = options
        while let keyword = option.pointee.keyword {
            if let value = option.pointee.val { values[String(cString: keyword)] = String(cString: value) }
            option += 1
        }
        // A value may itself hold a connection string (libpq expands `dbname` in some calls, and a
        // careless user pastes a URL into a field): such a value is never shown, and every
        // secret inside it is scrubbed like the password.
        user = values["user"].map(Self.shown)
        host = (values["host"] ?? values["hostaddr"]).map(Self.shown)
        port = values["port"].map(Self.shown)
        database = values["dbname"].map(Self.shown)
        secrets =
            ([values["password"]]
            + values.values.filter(Self.holdsConnectionString).flatMap(Self.nestedSecrets))
            .compactMap { $0 }.filter { !$0.isEmpty }
    }

    /// Whether libpq takes `text` as a connection string: a `postgres://`/`postgresql://` URL,
    /// or `key=value` pairs with keywords libpq knows. A plain file name has no `=` and does not
    /// parse, so it stays a file name.
    static func isConnectionString(_ text: String) -> Bool {
        if text.hasPrefix("postgres://") || text.hasPrefix("postgresql://") { return true }
        guard text.contains("=") else { return false }
        var errorMessage: UnsafeMutablePointer<CChar>?
        let options = PQconninfoParse(text, &errorMessage)
        PQfreemem(errorMessage)
        guard let options else { return false }
        PQconninfoFree(options)
        return true
    }

    private let secrets: [String]

    private static func holdsConnectionString(_ value: String) -> Bool {
        value.contains("=") || value.contains("://") || value.contains("@")
    }

    private static func shown(_ value: String) -> String {
        holdsConnectionString(value) ? "(hidden)" : value
    }

    /// The whole value, and every password a nested connection string names (one level: that is
    /// all libpq expands).
    private static func nestedSecrets(_ value: String) -> [String?] {
        var found: [String?] = [value]
        var errorMessage: UnsafeMutablePointer<CChar>?
        let options = PQconninfoParse(value, &errorMessage)
        PQfreemem(errorMessage)
        guard let options else { return found }
        defer { PQconninfoFree(options) }
        var option = options
        while let keyword = option.pointee.keyword {
            if String(cString: keyword) == "password", let text = option.pointee.val {
                found.append(String(cString: text))
            }
            option += 1
        }
        return found
    }

    /// `postgres://user@host:port/database`, with only the parts the string names.
    var redacted: String {
        var text = "postgres://"
        if let user, !user.isEmpty { text += Self.escaped(user) + "@" }
        if let host {
            text += host.contains(":") && !host.contains(",") ? "[\(host)]" : host
        }
        if let port, !port.isEmpty { text += ":" + port }
        if let database, !database.isEmpty { text += "/" + Self.escaped(database) }
        return text
    }

    /// `message` with the password, any value holding a nested connection string and the
    /// passwords inside those (and their percent-encoded forms) replaced, in case libpq quoted
    /// them.
    func scrubbed(_ message: String) -> String {
        var text = message
        // Longest first, so a whole nested string goes before the password inside it.
        for secret in secrets.sorted(by: { $0.count > $1.count }) {
            text = text.replacingOccurrences(of: secret, with: "***")
            if let encoded = secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics),
                encoded != secret
            {
                text = text.replacingOccurrences(of: encoded, with: "***")
            }
        }
        return text
    }

    /// libpq quotes the part of the string it stopped at, which may be the password.
    private static func withoutQuotes(_ reason: String) -> String {
        var text = reason.trimmingCharacters(in: .whitespacesAndNewlines)
        for marker in [" in URI", " in connection info string"] {
            if let range = text.range(of: marker) { text = String(text[..<range.lowerBound]) }
        }
        return text.replacingOccurrences(of: #""[^"]*""#, with: "\"…\"", options: .regularExpression)
    }

    private static func escaped(_ part: String) -> String {
        part.addingPercentEncoding(
            withAllowedCharacters: .urlUserAllowed.subtracting(CharacterSet(charactersIn: ":@")))
            ?? part
    }
}
