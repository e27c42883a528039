import Foundation
import KilnMedia
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// What `kiln studio` refuses: requests from other pages or without the session's token, files
/// outside the asset roots (answered as missing ones are), more renders than its line holds, and
/// connections that hold a slot without sending a request.
final class StudioSecurityTests: TemporaryDirectoryTestCase {
    var job: URL { directory.appendingPathComponent("studio.json") }

    override func setUpWithError() throws {
        try super.setUpWithError()
        try Data(StudioFixture.job().utf8).write(to: job)
    }

    func testRequestsFromOtherPagesAreRefusedWithNothingInTheReply() throws {
        let studio = try StudioClient.start([job.path], cwd: directory)
        defer { _ = studio.stop() }
        let own = "http://127.0.0.1:\(studio.port)"
        for headers in [
            ["Origin": "http://attacker.example"], ["Origin": "http://127.0.0.1:\(studio.port + 1)"],
            ["Origin": "null"], ["Sec-Fetch-Site": "cross-site"], ["Sec-Fetch-Site": "same-site"],
            ["Origin": own, "Sec-Fetch-Site": "cross-site"],
        ] {
            for target in ["/", "/job", "/frame?t=1", "/value?path=layers%5B1%5D.cornerRadius"] {
                let reply = try studio.get(
                    target, headers: headers.merging(["X-Kiln-Token": studio.token]) { $1 })
                XCTAssertEqual(reply.status, 403, "\(target) \(headers)")
                XCTAssertFalse(reply.text.contains("studio.json"), reply.text)
                XCTAssertFalse(reply.text.contains("cornerRadius"), reply.text)
                XCTAssertFalse(
                    reply.body.starts(with: [0x89, 0x50, 0x4E, 0x47]), "a frame went to \(headers)")
            }
        }
        for headers in [
            ["Origin": own, "Sec-Fetch-Site": "same-origin"],
            ["Origin": "http://localhost:\(studio.port)", "Host": "localhost:\(studio.port)"],
            ["Sec-Fetch-Site": "none"],
        ] {
            var sent = headers.merging(["X-Kiln-Token": studio.token]) { $1 }
            let host = sent.removeValue(forKey: "Host")
            XCTAssertEqual(try studio.get("/job", host: host, headers: sent).status, 200, "\(headers)")
        }
    }

    func testEveryRequestNeedsTheSessionsToken() throws {
        let studio = try StudioClient.start([job.path], cwd: directory)
        defer { _ = studio.stop() }
        XCTAssertEqual(studio.token.count, 64, studio.url)
        for target in ["/", "/job", "/frame?t=1", "/value?path=layers%5B1%5D.cornerRadius"] {
            XCTAssertEqual(try studio.get(target, headers: [:]).status, 403, target)
            XCTAssertEqual(
                try studio.get(target, headers: ["X-Kiln-Token": wrongToken(studio.token)]).status, 403)
            XCTAssertEqual(try studio.get(target, headers: ["X-Kiln-Token": ""]).status, 403)
            let separator = target.contains("?") ? "&" : "?"
            XCTAssertEqual(try studio.get(target + separator + "token=wrong", headers: [:]).status, 403)
            XCTAssertEqual(
                try studio.get(target + separator + "token=\(studio.token)", headers: [:]).status, 200)
            XCTAssertEqual(try studio.get(target).status, 200, target)
        }
        // Each start has its own.
        let second = try StudioClient.start([job.path], cwd: directory)
        defer { _ = second.stop() }
        XCTAssertNotEqual(second.token, studio.token)
        XCTAssertEqual(try second.get("/job", headers: ["X-Kiln-Token": studio.token]).status, 403)
    }

    /// A job whose picture is a variable: the page can name any file with it.
    func photoJob() -> String {
        """
        {
          "kiln": 1,
          "variables": { "photo": "photo.png" },
          "output": { "path": "out.mp4", "width": 64, "height": 36, "fps": 30, "duration": 1 },
          "layers": [ { "type": "image", "path": { "var": "photo" }, "size": [64, 36], "fit": "fill" } ]
        }
        """
    }

    func writePNG(_ url: URL, width: Int = 8, height: Int = 8) throws {
        let pixels = [UInt8](repeating: 200, count: width * height * 4)
        let png = try pixels.withUnsafeBufferPointer {
            try PNGCodec.encode(rgba: $0.baseAddress!, width: width, height: height, stride: width * 4)
        }
        try Data(png).write(to: url)
    }

    func testAPathOutsideTheAssetRootsIsAnsweredAsAMissingFileIs() throws {
        let jobs = directory.appendingPathComponent("jobs")
        let elsewhere = directory.appendingPathComponent("private")
        for folder in [jobs, elsewhere] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        try writePNG(jobs.appendingPathComponent("photo.png"))
        try writePNG(elsewhere.appendingPathComponent("secret.png"))
        try FileManager.default.createSymbolicLink(
            at: jobs.appendingPathComponent("link.png"),
            withDestinationURL: elsewhere.appendingPathComponent("secret.png"))
        let file = jobs.appendingPathComponent("photo.json")
        try Data(photoJob().utf8).write(to: file)
        let studio = try StudioClient.start([file.path], cwd: directory)
        defer { _ = studio.stop() }
        func frame(_ photo: String) throws -> StudioClient.Reply {
            let value = photo.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? photo
            return try studio.get("/frame?t=0&var.photo=\(value)")
        }
        XCTAssertEqual(try frame("photo.png").status, 200)
        let missing = try frame("nothing.png")
        XCTAssertEqual(missing.status, 422)
        for refused in [
            elsewhere.appendingPathComponent("secret.png").path, "../private/secret.png", "link.png",
            elsewhere.path, elsewhere.appendingPathComponent("nothing.png").path, "/etc/shadow",
            "/etc/passwd",
            "/dev/zero", "/root", "/nonexistent/x.png",
        ] {
            let reply = try frame(refused)
            XCTAssertEqual(reply.status, missing.status, refused)
            XCTAssertEqual(reply.text, missing.text, "\(refused) is answered unlike a missing file")
        }
        XCTAssertFalse(missing.text.contains("private"), missing.text)
        // --asset-root widens the roots on purpose.
        let wide = try StudioClient.start([file.path, "--asset-root", directory.path], cwd: directory)
        defer { _ = wide.stop() }
        XCTAssertEqual(try wide.get("/frame?t=0&var.photo=..%2Fprivate%2Fsecret.png").status, 200)
    }

    func testManyConcurrentFramesWithDistinctValuesStayUnderTheMemoryBudget() throws {
        try writePNG(directory.appendingPathComponent("photo.png"), width: 4000, height: 4000)
        let big = directory.appendingPathComponent("big.json")
        try Data(
            """
            {
              "kiln": 1,
              "variables": { "size": { "type": "number", "default": 20, "min": 1, "max": 1000 } },
              "output": { "path": "out.mp4", "width": 320, "height": 180, "fps": 30, "duration": 1 },
              "layers": [
                { "type": "image", "path": "photo.png", "size": [320, 180], "fit": "fill" },
                { "type": "shape", "shape": "roundedRect", "size": [{ "var": "size" }, 10], "cornerRadius": 2,
                  "fill": "#ff0000", "position": [160, 90] }
              ]
            }
            """.utf8
        ).write(to: big)
        let studio = try StudioClient.start([big.path, "--threads", "2"], cwd: directory)
        defer { _ = studio.stop() }
        XCTAssertEqual(try studio.get("/frame?t=0&var.size=5").status, 200)
        let statuses = Mutex64()
        // A thread each (not concurrentPerform, which runs only as many at once as there are cores).
        let done = DispatchGroup()
        for index in 0..<64 {
            done.enter()
            Thread {
                statuses.append((try? studio.get("/frame?t=0&var.size=\(100 + index)").status) ?? -1)
                done.leave()
            }.start()
        }
        XCTAssertEqual(done.wait(timeout: .now() + 300), .success, "the requests did not finish")
        let peak = try studio.peakResidentBytes()
        let seen = statuses.values
        print(
            "64 concurrent frames: peak RSS \(peak / 1_048_576) MB; statuses \(Dictionary(grouping: seen) { $0 }.mapValues(\.count))"
        )
        XCTAssertLessThan(peak, 1 << 30, "the studio's peak RSS is over the 1 GB budget")
        XCTAssertTrue(seen.allSatisfy { $0 == 200 || $0 == 503 }, "\(seen)")
        XCTAssertGreaterThan(seen.filter { $0 == 200 }.count, 0)
        XCTAssertGreaterThan(seen.filter { $0 == 503 }.count, 0, "no request was turned away")
        XCTAssertEqual(try studio.get("/job").status, 200)
    }

    func testSlowConnectionsDoNotLockOutARequestPastTheTimeout() throws {
        let studio = try StudioClient.start([job.path, "--connection-timeout", "2"], cwd: directory)
        defer { _ = studio.stop() }
        // More than the connection cap, each sending its request a byte at a time and never finishing.
        let slow = (0..<160).compactMap { _ in try? SlowConnection(port: studio.port) }
        defer { slow.forEach { $0.close() } }
        let trickle = Thread {
            for _ in 0..<40 {
                slow.forEach { $0.sendByte() }
                Thread.sleep(forTimeInterval: 0.25)
            }
        }
        trickle.start()
        Thread.sleep(forTimeInterval: 0.5)
        let start = Date()
        var answered = false
        while !answered, Date().timeIntervalSince(start) < 8 {
            answered = (try? studio.get("/job").status) == 200
            if !answered { Thread.sleep(forTimeInterval: 0.1) }
        }
        let waited = Date().timeIntervalSince(start)
        print("slow connections: a request was answered after \(String(format: "%.2f", waited)) s")
        XCTAssertTrue(answered, "no answer within 8 s while slow connections trickle")
        XCTAssertLessThan(waited, 4, "locked out past the 2 s timeout")
    }
}

/// Statuses gathered from many threads.
final class Mutex64: @unchecked Sendable {
    // @unchecked: `stored` is only touched under `lock`.
    private let lock = NSLock()
    private var stored: [Int] = []
    func append(_ value: Int) { lock.withLock { stored.append(value) } }
    var values: [Int] { lock.withLock { stored } }
}

/// A client that opens a connection and sends the start of a request, a byte at a time.
final class SlowConnection: @unchecked Sendable {
    // @unchecked: `sent` is only touched by the one thread that trickles.
    let fd: Int32
    private let request = Array("GET /job HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: ".utf8)
    private var sent = 0

    init(port: UInt16) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw StudioTestError("socket: \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            Glibc.close(fd)
            throw StudioTestError("connect: \(errno)")
        }
    }

    func sendByte() {
        let byte = sent < request.count ? request[sent] : UInt8(ascii: "x")
        sent += 1
        _ = withUnsafePointer(to: byte) { send(fd, $0, 1, Int32(MSG_NOSIGNAL)) }
    }

    func close() { Glibc.close(fd) }

}

/// The token with its first digit changed (a fixed "0" would be the token itself one time in
/// sixteen).
private func wrongToken(_ token: String) -> String {
    (token.first == "0" ? "1" : "0") + token.dropFirst()
}
