import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// `http://HOST[:PORT][/PATH]` where HOST is this machine: `localhost`, `127.x.y.z` or `[::1]`.
/// A completion webhook goes to a local service (a notifier, a relay), in plain HTTP: nothing a
/// worker announces leaves the machine unless that service sends it on.
public struct LoopbackURL: Sendable, Equatable {
    public let text: String
    let address: Address
    let port: UInt16
    let path: String

    enum Address: Sendable, Equatable {
        case v4(UInt32)  // host byte order
        case v6Loopback
    }

    public struct Problem: Error, CustomStringConvertible {
        public let description: String
    }

    public init(_ text: String) throws(Problem) {
        let expected =
            "expected http://localhost[:PORT]/PATH, http://127.0.0.1[:PORT]/PATH or http://[::1][:PORT]/PATH"
        guard text.hasPrefix("http://") else {
            throw Problem(
                description: "'\(text)' is not a local http:// address (\(expected); https and other hosts "
                    + "are not supported: run a local relay)")
        }
        guard text.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }), text.utf8.count <= 2048 else {
            throw Problem(description: "'\(text)' has spaces or control characters, or is too long")
        }
        let rest = text.dropFirst("http://".count)
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        let authority = String(rest[..<slash])
        path = slash == rest.endIndex ? "/" : String(rest[slash...])
        var host = authority
        var portText: String?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else {
                throw Problem(description: "'\(text)': unclosed '[' in the host")
            }
            host = String(authority[authority.index(after: authority.startIndex)..<close])
            let after = authority[authority.index(after: close)...]
            if after.hasPrefix(":") {
                portText = String(after.dropFirst())
            } else if !after.isEmpty {
                throw Problem(description: "'\(text)': expected ':PORT' after the host")
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = String(authority[..<colon])
            portText = String(authority[authority.index(after: colon)...])
        }
        if let portText {
            guard let number = UInt16(portText), number > 0 else {
                throw Problem(description: "'\(text)': the port must be 1…65535, got '\(portText)'")
            }
            port = number
        } else {
            port = 80
        }
        switch host.lowercased() {
        case "localhost": address = .v4(0x7F00_0001)
        case "::1": address = .v6Loopback
        default:
            let parts = host.split(separator: ".", omittingEmptySubsequences: false).map { UInt8($0) }
            guard parts.count == 4, parts.allSatisfy({ $0 != nil }), parts[0] == 127 else {
                throw Problem(description: "'\(text)': '\(host)' is not this machine (\(expected))")
            }
            address = .v4(parts.reduce(UInt32(0)) { $0 << 8 | UInt32($1!) })
        }
        self.text = text
    }

    /// Sends `body` as a JSON POST; nil when the service answered 2xx, otherwise what happened.
    func post(_ body: Data, timeoutSeconds: Double) -> String? {
        let family = address == .v6Loopback ? AF_INET6 : AF_INET
        let fd = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return "failed: no socket (\(String(cString: strerror(errno))))" }
        defer { close(fd) }
        var timeout = timeval(
            tv_sec: Int(timeoutSeconds), tv_usec: Int((timeoutSeconds - timeoutSeconds.rounded(.down)) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let connected: Int32
        switch address {
        case .v4(let host):
            var socketAddress = sockaddr_in()
            socketAddress.sin_family = sa_family_t(AF_INET)
            socketAddress.sin_port = port.bigEndian
            socketAddress.sin_addr = in_addr(s_addr: host.bigEndian)
            connected = withUnsafePointer(to: &socketAddress) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        case .v6Loopback:
            var socketAddress = sockaddr_in6()
            socketAddress.sin6_family = sa_family_t(AF_INET6)
            socketAddress.sin6_port = port.bigEndian
            socketAddress.sin6_addr = in6addr_loopback
            connected = withUnsafePointer(to: &socketAddress) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        }
        guard connected == 0 else { return "failed: \(String(cString: strerror(errno)))" }
        let authority = address == .v6Loopback ? "[::1]:\(port)" : "127.0.0.1:\(port)"
        let head =
            "POST \(path) HTTP/1.1\r\nHost: \(authority)\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(body.count)\r\nUser-Agent: kiln\r\nConnection: close\r\n\r\n"
        guard sendAll(fd, Data(head.utf8) + body) else {
            return "failed while sending: \(String(cString: strerror(errno)))"
        }
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 512)
        while !response.contains(0x0A) && response.count < 4096 {
            let count = recv(fd, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            response += buffer[..<count]
        }
        let statusLine = String(decoding: response.prefix { $0 != 0x0D && $0 != 0x0A }, as: UTF8.self)
        let fields = statusLine.split(separator: " ")
        guard fields.count >= 2, fields[0].hasPrefix("HTTP/"), let code = Int(fields[1]) else {
            return response.isEmpty
                ? "got no answer within \(String(format: "%g", timeoutSeconds)) s"
                : "got an answer that is not HTTP"
        }
        return (200..<300).contains(code) ? nil : "was answered \(statusLine.dropFirst(fields[0].count + 1))"
    }

    private func sendAll(_ fd: Int32, _ data: Data) -> Bool {
        data.withUnsafeBytes { raw -> Bool in
            var offset = 0
            while offset < raw.count {
                let sent = send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                guard sent > 0 else { return false }
                offset += sent
            }
            return true
        }
    }
}
