import Foundation

/// Who may use the studio: requests from its own page only. A browser attaches cookies and
/// follows links for any site, so the studio trusts nothing ambient: a request must name one of
/// the studio's own addresses as its Host (against DNS rebinding), must not come from another
/// page (`Sec-Fetch-Site`, `Origin`), and must carry the session's token, which only the
/// terminal that started the studio has seen.
public struct StudioAccess: Sendable {
    /// The token as the URL carries it: 32 random bytes in hex.
    public let token: String
    /// The Host header values accepted: the listening address and localhost names, with the
    /// port. nil (any) when --host widened the address on purpose, as the machine's names are
    /// not known here; Origin must then still name the same host as the request.
    let hosts: Set<String>?

    public init(token: String, host: String, port: Int) {
        self.token = token
        hosts =
            host.hasPrefix("127.")
            ? ["\(host):\(port)", "localhost:\(port)", "127.0.0.1:\(port)", "[::1]:\(port)"] : nil
    }

    /// A fresh token from the system's random source (getrandom).
    public static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }
            .joined()
    }

    /// Why `request` is turned away, or nil. The reply says nothing about the job or the files.
    public func refusal(_ request: HTTPRequest) -> HTTPResponse? {
        let host = request.host?.lowercased() ?? ""
        if let hosts, !hosts.contains(host) {
            return .text("unexpected Host header", status: 421)
        }
        // Only a request the user made (typing the URL: none) or the page made (same-origin).
        if let site = request.fetchSite?.lowercased(), site != "same-origin", site != "none" {
            return Self.forbidden
        }
        if let origin = request.origin?.lowercased() {
            let own = hosts.map { $0.map { "http://\($0)" } } ?? ["http://\(host)"]
            guard own.contains(origin) else { return Self.forbidden }
        }
        guard let given = request.tokenHeader ?? request.query["token"], Self.same(given, token) else {
            return Self.forbidden
        }
        return nil
    }

    static let forbidden = HTTPResponse.text(
        "forbidden: open the URL kiln studio printed (with its token) in a browser", status: 403)

    /// Compares in time that depends only on the lengths.
    static func same(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
