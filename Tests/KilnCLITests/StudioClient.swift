import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A running `kiln studio` and a plain HTTP/1.1 client for it, over a socket (no libcurl on a bare
/// machine, and the tests choose the Host header themselves).
struct StudioClient {
    struct Reply {
        let status: Int
        let body: [UInt8]
        var text: String { String(decoding: body, as: UTF8.self) }
        var json: [String: Any] {
            (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:]
        }
    }

    let process: Process
    /// The URL the studio printed, with its token.
    let url: String
    let port: UInt16
    let token: String
    let stderr: Pipe

    /// Starts `kiln studio ARGS --port 0` and reads the URL it prints.
    static func start(_ args: [String], cwd: URL) throws -> StudioClient {
        let (process, out, err) = try KilnProcess.start(["studio"] + args + ["--port", "0"], cwd: cwd)
        var text = ""
        let deadline = Date().addingTimeInterval(30)
        while !text.contains("\n"), Date() < deadline, process.isRunning {
            text += String(decoding: out.fileHandleForReading.availableData, as: UTF8.self)
        }
        guard let range = text.range(of: "http://127.0.0.1:"),
            let port = UInt16(text[range.upperBound...].prefix { $0.isNumber }),
            let tokenStart = text.range(of: "/?token=")
        else {
            if process.isRunning { process.terminate() }
            throw StudioTestError("no URL from kiln studio: '\(text)'")
        }
        let token = String(text[tokenStart.upperBound...].prefix { $0.isHexDigit })
        return StudioClient(
            process: process, url: "http://127.0.0.1:\(port)/?token=\(token)", port: port, token: token,
            stderr: err)
    }

    /// The reply to one request; `headers` nil sends the session's token as the page does.
    func get(
        _ target: String, host: String? = nil, method: String = "GET", headers: [String: String]? = nil
    ) throws -> Reply {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw StudioTestError("socket: \(errno)") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw StudioTestError("connect: \(errno)") }
        let extra = (headers ?? ["X-Kiln-Token": token]).map { "\($0.key): \($0.value)\r\n" }.joined()
        let request =
            "\(method) \(target) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\n\(extra)Connection: close\r\n\r\n"
        _ = request.withCString { send(fd, $0, strlen($0), 0) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            bytes += buffer[0..<count]
        }
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        guard
            let split = (0..<max(0, bytes.count - 3)).first(where: { Array(bytes[$0..<$0 + 4]) == separator })
        else { throw StudioTestError("no HTTP reply for \(target)") }
        let head = String(decoding: bytes[..<split], as: UTF8.self)
        let status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
        return Reply(status: status, body: Array(bytes[(split + 4)...]))
    }

    /// The studio's peak resident memory so far (VmHWM), in bytes.
    func peakResidentBytes() throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
        else { throw StudioTestError("no VmHWM in /proc/\(process.processIdentifier)/status") }
        return kilobytes * 1024
    }

    /// Sends `signal` and waits for the exit status.
    func stop(_ signal: Int32 = SIGINT) -> Int32? {
        kill(process.processIdentifier, signal)
        guard KilnProcess.waitForExit(process, timeout: 20) else { return nil }
        return process.terminationStatus
    }
}

struct StudioTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The job the studio tests open: a colour and a number variable, and a rotation, so time,
/// variables, pins and edits all change pixels.
enum StudioFixture {
    static func job(background: String = "#101018") -> String {
        """
        {
          "kiln": 1,
          "variables": {
            "accent": { "type": "color", "default": "#ff5a36" },
            "size": { "type": "number", "default": 200, "min": 50, "max": 400 }
          },
          "output": { "path": "out.mp4", "width": 320, "height": 180, "fps": 30, "duration": 2 },
          "layers": [
            { "type": "solid", "color": "\(background)" },
            { "type": "shape", "shape": "roundedRect", "size": [{ "var": "size" }, 100], "cornerRadius": 20,
              "fill": { "var": "accent" }, "position": [160, 90],
              "rotation": { "keyframes": [ { "t": 0, "v": -20 }, { "t": 2, "v": 20 } ] } }
          ]
        }
        """
    }

    /// FNV-1a of the bytes, as the page computes it for the frames it shows.
    static func fnv1a(_ bytes: [UInt8]) -> String {
        var hash: UInt32 = 0x811c_9dc5
        for byte in bytes {
            hash ^= UInt32(byte)
            hash = hash &* 0x0100_0193
        }
        return String(format: "%08x", hash)
    }
}
