import CLibPQ
import Foundation

/// A connection string (URL or libpq `key=value` form) as libpq parses it: what may be shown
/// (user, host, port, database) and the password, kept only to scrub it from messages.
struct PostgresLocation {
    let user: String?
    let host: String?
    let port: String?
    let database: String?
    private let password: String?

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
        user = values["user"]
        host = values["host"] ?? values["hostaddr"]
        port = values["port"]
        database = values["dbname"]
        password = values["password"].flatMap { $0.isEmpty ? nil : $0 }
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

    /// `message` with the password (and its percent-encoded form) replaced, in case libpq
    /// quoted it.
    func scrubbed(_ message: String) -> String {
        guard let password else { return message }
        var text = message.replacingOccurrences(of: password, with: "***")
        if let encoded = password.addingPercentEncoding(withAllowedCharacters: .alphanumerics),
            encoded != password
        {
            text = text.replacingOccurrences(of: encoded, with: "***")
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
