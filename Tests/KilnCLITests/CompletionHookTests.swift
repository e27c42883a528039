import Foundation
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// `kiln worker --on-done CMD` and `--on-done-url URL`: each job's end is announced once.
final class CompletionHookTests: QueueTestCase {
    /// Two workers share the queue, each with the same hook: every job that ends while they run
    /// (rendered, cancelled while waiting, discarded) is announced exactly once, with its state,
    /// output and size; a job that ended before they started is not.
    func testEachEndIsAnnouncedOnceWithTheJob() throws {
        let early = try writeJob("early", frames: 2), fast = try writeJob("fast", frames: 3)
        let later = try writeJob("later", frames: 2), tooLong = try writeJob("toolong", frames: 4)
        XCTAssertEqual(try kiln(["enqueue", early, "--at", "+1h"]).status, 0)
        XCTAssertEqual(try kiln(["cancel", "1"]).status, 0)
        XCTAssertEqual(try kiln(["enqueue", fast]).status, 0)
        XCTAssertEqual(try kiln(["enqueue", later, "--at", "+1h"]).status, 0)
        // Over the workers' frame limit: discarded at once.
        XCTAssertEqual(try kiln(["enqueue", tooLong]).status, 0)
        let log = directory.appendingPathComponent("hook.log").path
        let hook =
            #"printf '%s %s %s\n' "$KILN_JOB_ID" "$KILN_JOB_STATE" "$KILN_JOB_OUTPUT" >> hook.log; "#
            + #"cat >> hook.jsonl"#
        let workers = try ["w1", "w2"].map {
            try startWorker(["--on-done", hook, "--limit", "frames=3"], name: $0)
        }
        defer { for worker in workers where worker.isRunning { worker.terminate() } }
        try waitUntil(60, "the due jobs end") {
            try states() == ["cancelled", "completed", "scheduled", "discarded"]
        }
        XCTAssertEqual(try kiln(["cancel", "3"]).status, 0, "cancelled while waiting, by the CLI")
        try waitUntil(20, "three announcements") {
            ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").count >= 3
        }
        Thread.sleep(forTimeInterval: 6)  // a second look by both workers must not repeat any
        for worker in workers { worker.terminate() }
        for worker in workers { XCTAssertTrue(KilnProcess.waitForExit(worker, timeout: 30)) }
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init)
        XCTAssertEqual(
            lines.sorted(),
            [
                "2 completed \(outputs.appendingPathComponent("fast.mp4").path)",
                "3 cancelled \(outputs.appendingPathComponent("later.mp4").path)",
                "4 discarded \(outputs.appendingPathComponent("toolong.mp4").path)",
            ], "each end once, none from before the workers started")
        let payloads = try String(
            contentsOfFile: directory.appendingPathComponent("hook.jsonl").path, encoding: .utf8
        )
        .split(separator: "\n").map {
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let completed = try XCTUnwrap(payloads.first { $0["id"] as? Int == 2 })
        XCTAssertEqual(completed["event"] as? String, "job.ended")
        XCTAssertEqual(completed["state"] as? String, "completed")
        let size = try FileManager.default.attributesOfItem(
            atPath: outputs.appendingPathComponent("fast.mp4").path)[.size]
        XCTAssertEqual((completed["bytes"] as? NSNumber)?.intValue, (size as? NSNumber)?.intValue)
        let discarded = try XCTUnwrap(payloads.first { $0["id"] as? Int == 4 })
        XCTAssertTrue((discarded["error"] as? String ?? "").contains("frames"), "\(discarded)")
    }

    /// A failing hook is logged and leaves the job completed; a webhook gets the same JSON.
    func testAFailingHookIsLoggedAndTheWebhookIsPosted() throws {
        let server = try OneShotHTTPServer()
        let job = try writeJob("posted", frames: 2)
        XCTAssertEqual(try kiln(["enqueue", job]).status, 0)
        let result = try kiln([
            "worker", "--drain", "--on-done", "echo hook ran >&2; exit 3",
            "--on-done-url", "http://127.0.0.1:\(server.port)/kiln/done",
        ])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("hook ran"), result.stderr)
        XCTAssertTrue(result.stderr.contains("job 1: on-done command exited 3"), result.stderr)
        XCTAssertEqual(try states(), ["completed"])
        let request = try XCTUnwrap(server.received(timeout: 10))
        XCTAssertTrue(request.head.hasPrefix("POST /kiln/done HTTP/1.1\r\n"), request.head)
        XCTAssertTrue(request.head.lowercased().contains("content-type: application/json"), request.head)
        let body = try XCTUnwrap(JSONSerialization.jsonObject(with: request.body) as? [String: Any])
        XCTAssertEqual(body["id"] as? Int, 1)
        XCTAssertEqual(body["output"] as? String, outputs.appendingPathComponent("posted.mp4").path)
    }

    func testOnlyLocalAddressesAreAccepted() throws {
        for url in [
            "https://127.0.0.1/x", "http://example.invalid/x", "http://10.0.0.1:80/", "http://127.0.0.1:0/",
        ] {
            let result = try kiln(["worker", "--drain", "--on-done-url", url])
            XCTAssertEqual(result.status, 64, url)
            XCTAssertTrue(result.stderr.contains("--on-done-url"), result.stderr)
        }
    }
}

/// A loopback HTTP listener that takes one request, answers 204 and keeps what it got.
final class OneShotHTTPServer: @unchecked Sendable {
    let port: UInt16
    private let listener: Int32
    private let done = DispatchSemaphore(value: 0)
    private var request: (head: String, body: Data)?

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && listen(fd, 1) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else {
            close(fd)
            throw XCTSkip("no loopback socket: \(String(cString: strerror(errno)))")
        }
        listener = fd
        port = UInt16(bigEndian: address.sin_port)
        Thread { [self] in serve() }.start()
    }

    deinit { close(listener) }

    private func serve() {
        let connection = accept(listener, nil, nil)
        guard connection >= 0 else {
            done.signal()
            return
        }
        defer { close(connection) }
        var bytes = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            if let end = bytes.range(of: Data("\r\n\r\n".utf8)) {
                let head = String(decoding: bytes[..<end.lowerBound], as: UTF8.self)
                let length =
                    head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                    .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
                if bytes.count - end.upperBound >= length {
                    request = (head + "\r\n", bytes[end.upperBound..<end.upperBound + length])
                    break
                }
            }
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            bytes.append(contentsOf: buffer[..<count])
        }
        _ = "HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n".withCString {
            send(connection, $0, strlen($0), 0)
        }
        done.signal()
    }

    func received(timeout: Double) -> (head: String, body: Data)? {
        guard done.wait(timeout: .now() + timeout) == .success else { return nil }
        return request
    }
}
