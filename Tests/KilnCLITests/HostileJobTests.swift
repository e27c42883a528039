import Foundation
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// Jobs written to do harm or by mistake (issue 20): outputs that would destroy the queue, the
/// job or its inputs; reads outside the roots; FIFOs; files quoted in errors; control characters;
/// secrets in connection strings; unusable or damaged queues. The jobs are the files under
/// Fixtures/Hostile.
final class HostileJobTests: QueueTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/Hostile")

    /// Copies fixtures into `folder` (the test's directory by default) and returns the first's path.
    @discardableResult
    func fixture(_ names: String..., into folder: URL? = nil) throws -> String {
        let target = folder ?? directory!
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        for name in names {
            try? FileManager.default.removeItem(at: target.appendingPathComponent(name))
            try FileManager.default.copyItem(
                at: Self.fixtures.appendingPathComponent(name), to: target.appendingPathComponent(name))
        }
        return target.appendingPathComponent(names[0]).path
    }

    func digest(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    func testAnOutputThatIsTheQueueDatabaseIsRefusedAndTheQueueSurvives() throws {
        let good = try write(
            "good.json",
            #"{"kiln": 1, "output": {"path": "out/good.mp4", "width": 320, "height": 180, "fps": 30, "duration": 0.2}, "layers": []}"#
        )
        XCTAssertEqual(try kiln(["enqueue", good]).status, 0)
        let before = try digest(database)
        try fixture("output-is-queue.json", "output-is-queue-wal.json")
        for name in ["output-is-queue.json", "output-is-queue-wal.json"] {
            let enqueued = try kiln(["enqueue", name])
            XCTAssertEqual(enqueued.status, 65, enqueued.stderr)
            XCTAssertTrue(enqueued.stderr.contains("is the queue database"), enqueued.stderr)
            XCTAssertTrue(enqueued.stderr.contains("queue.sqlite3"), enqueued.stderr)
            // `validate` and `render` know the queue from $KILN_QUEUE too.
            XCTAssertEqual(try kiln(["validate", name]).status, 65)
            XCTAssertEqual(try kiln(["render", name]).status, 65)
        }
        let rendered = try kiln(["render", good, "-o", database])
        XCTAssertEqual(rendered.status, 73, rendered.stderr)
        XCTAssertEqual(try digest(database), before, "the queue file was not touched")
        let status = try kiln(["status", "--json"])
        XCTAssertEqual(status.status, 0, status.stderr)
        XCTAssertTrue(status.stdout.contains("good.json"), status.stdout)
    }

    func testOutputsThatAreTheJobAnInputADeviceOrADirectoryAreRefused() throws {
        try fixture(
            "output-is-job.json", "output-is-input.json", "captions.srt", "output-is-device.json",
            "output-is-directory.json")
        let expectations = [
            "output-is-job.json": "is the job file", "output-is-input.json": "is an input of the job",
            "output-is-device.json": "/dev/null is a device", "output-is-directory.json": "is a directory",
        ]
        for (name, message) in expectations {
            let validated = try kiln(["validate", name])
            XCTAssertEqual(validated.status, 65, "\(name): \(validated.stderr)")
            XCTAssertTrue(validated.stderr.contains(message), "\(name): \(validated.stderr)")
            XCTAssertTrue(validated.stderr.contains("output.path"), "\(name): \(validated.stderr)")
        }
        let captions = try digest(directory.appendingPathComponent("captions.srt").path)
        let job = try digest(directory.appendingPathComponent("output-is-job.json").path)
        XCTAssertEqual(try kiln(["render", "output-is-input.json"]).status, 65)
        XCTAssertEqual(try kiln(["enqueue", "output-is-job.json"]).status, 65)
        // `-o` is checked the same way, before anything renders (EX_CANTCREAT).
        let ownFile = try write(
            "plain.json",
            #"{"kiln": 1, "output": {"width": 320, "height": 180, "fps": 30, "duration": 0.2}, "layers": [{"type": "transcript", "path": "captions.srt", "width": 300, "height": 160}]}"#
        )
        let device = try kiln(["render", ownFile, "-o", "/dev/null"])
        XCTAssertEqual(device.status, 73, device.stderr)
        XCTAssertTrue(device.stderr.contains("/dev/null is a device"), device.stderr)
        let input = try kiln(["render", ownFile, "-o", "captions.srt"])
        XCTAssertEqual(input.status, 73, input.stderr)
        XCTAssertTrue(input.stderr.contains("is an input of the job"), input.stderr)
        XCTAssertEqual(try digest(directory.appendingPathComponent("captions.srt").path), captions)
        XCTAssertEqual(try digest(directory.appendingPathComponent("output-is-job.json").path), job)
    }

    func testQueueCommandsConfineAssetsAndOutputsToTheRoots() throws {
        let jobs = directory.appendingPathComponent("jobs")
        let secret = directory.appendingPathComponent("private")
        try fixture("captions.srt", into: secret)
        let outside = try fixture("transcript-outside-roots.json", into: jobs)
        let variable = try fixture("transcript-from-variable.json", "captions.srt", into: jobs)
        let output = try fixture("output-outside-roots.json", into: jobs)
        let secretPath = secret.appendingPathComponent("captions.srt").path

        let enqueued = try kiln(["enqueue", outside])
        XCTAssertEqual(enqueued.status, 65, enqueued.stderr)
        XCTAssertTrue(enqueued.stderr.contains("outside the asset roots"), enqueued.stderr)
        let absolute = try kiln(["enqueue", variable, "--set", "captions=\(secretPath)"])
        XCTAssertEqual(absolute.status, 65, absolute.stderr)
        XCTAssertTrue(absolute.stderr.contains("outside the asset roots"), absolute.stderr)
        let batch = try write("rows.csv", "captions\n../private/captions.srt\n")
        let rows = try kiln(["enqueue", variable, "--batch", batch])
        XCTAssertEqual(rows.status, 65, rows.stderr)
        XCTAssertTrue(rows.stderr.contains("outside the asset roots"), rows.stderr)
        let written = try kiln(["enqueue", output])
        XCTAssertEqual(written.status, 65, written.stderr)
        XCTAssertTrue(written.stderr.contains("outside the output roots"), written.stderr)
        XCTAssertEqual(try kiln(["enqueue", variable]).status, 0, "a job inside its roots is queued")
        // The shipped jobs' layout: outputs in a sibling directory that does not exist yet.
        let elsewhere = directory.appendingPathComponent("elsewhere").path
        XCTAssertEqual(try kiln(["enqueue", "--output-root", elsewhere, output]).status, 0)

        // A user's own job renders as before, unless roots are given.
        XCTAssertEqual(try kiln(["validate", outside]).status, 0)
        XCTAssertEqual(try kiln(["validate", "--asset-root", jobs.path, outside]).status, 65)

        // Queued under wider roots, the job is refused by a worker with the default ones before
        // any work: discarded, with the reason, and nothing written.
        // (It writes where the job queued above will: allowed, as the point is the worker's check.)
        let wide = try kiln([
            "enqueue", "--asset-root", directory.path, outside, "--json", "--allow-overwrite",
        ])
        XCTAssertEqual(wide.status, 0, wide.stderr)
        let worker = try kiln(["worker", "--drain"])
        XCTAssertEqual(worker.status, 0, worker.stderr)
        let status = try kiln(["status", "--json", "--state", "discarded"])
        XCTAssertTrue(status.stdout.contains("outside the asset roots"), status.stdout + worker.stderr)
        XCTAssertTrue(
            worker.stderr.contains("1 completed, 0 failed (will retry), 2 discarded"), worker.stderr)
    }

    func testAConfigurationFileGivesTheRootsAndRejectsUnknownKeys() throws {
        let jobs = directory.appendingPathComponent("jobs")
        let outside = try fixture("transcript-outside-roots.json", into: jobs)
        try fixture("captions.srt", into: directory.appendingPathComponent("private"))
        let config = try write("config.json", #"{"assetRoots": ["."], "limits": {"frames": 100000}}"#)
        let enqueued = try kiln(["enqueue", "--config", config, outside])
        XCTAssertEqual(enqueued.status, 0, enqueued.stderr)
        // The configuration's limits apply as --limit flags would.
        let tight = try write("tight.json", #"{"assetRoots": ["."], "limits": {"frames": 1}}"#)
        let limited = try kiln(["enqueue", "--config", tight, outside])
        XCTAssertEqual(limited.status, 65, limited.stderr)
        XCTAssertTrue(limited.stderr.contains("over the limit frames = 1"), limited.stderr)
        let wrong = try write("wrong.json", #"{"assetRoot": ["."]}"#)
        let refused = try kiln(["enqueue", "--config", wrong, outside])
        XCTAssertEqual(refused.status, 78, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("unknown key 'assetRoot'"), refused.stderr)
    }

    func testAFIFOAsAudioIsRefusedWithoutBlocking() throws {
        let job = try fixture("audio-fifo.json")
        XCTAssertEqual(mkfifo(directory.appendingPathComponent("pipe.wav").path, 0o600), 0)
        for command in [["validate", job], ["enqueue", job]] {
            let (process, out, err) = try KilnProcess.start(command, cwd: directory, environment: environment)
            XCTAssertTrue(KilnProcess.waitForExit(process, timeout: 30), "\(command[0]) blocked on the FIFO")
            let result = KilnProcess.collect(process, out, err)
            XCTAssertEqual(result.status, 65, result.stderr)
            XCTAssertTrue(result.stderr.contains("is a FIFO"), result.stderr)
        }
    }

    func testTranscriptErrorsDoNotQuoteTheFileAndOtherFilesAreNotTranscripts() throws {
        try fixture(
            "transcript-secret-lines.json", "secret.srt", "transcript-config-file.json", "settings.conf")
        let secret = try kiln(["validate", "transcript-secret-lines.json"])
        XCTAssertEqual(secret.status, 65, secret.stderr)
        XCTAssertTrue(secret.stderr.contains("secret.srt:1: expected a cue number"), secret.stderr)
        XCTAssertFalse(secret.stderr.contains("hunter2") || secret.stderr.contains("SECRET"), secret.stderr)
        let config = try kiln(["validate", "transcript-config-file.json"])
        XCTAssertEqual(config.status, 65, config.stderr)
        XCTAssertTrue(config.stderr.contains("cannot tell the transcript format"), config.stderr)
        XCTAssertFalse(config.stderr.contains("hunter2"), config.stderr)
    }

    func testControlCharactersFromJobsAreEscapedInMessagesStatusAndLogs() throws {
        try fixture("control-characters.json")
        let validated = try kiln(["validate", "control-characters.json"])
        XCTAssertEqual(validated.status, 65)
        XCTAssertTrue(validated.stderr.contains(#"\u{1B}]0;owned\u{7}\u{1B}[2J\u{0}"#), validated.stderr)
        let name = "evil\u{1B}[2J\u{7}.json"
        _ = try write(
            name,
            #"{"kiln": 1, "output": {"path": "out/evil.mp4", "width": 320, "height": 180, "fps": 30, "duration": 0.2}, "layers": []}"#
        )
        XCTAssertEqual(try kiln(["enqueue", name]).status, 0)
        let listing = try kiln(["status"])
        let details = try kiln(["status", "1"])
        let logs = try kiln(["logs", "1"])
        let worker = try kiln(["worker", "--drain"])
        for (what, text) in [
            ("validate", validated.stderr), ("status", listing.stdout), ("status 1", details.stdout),
            ("logs", logs.stdout), ("worker", worker.stderr),
        ] {
            XCTAssertFalse(
                text.unicodeScalars.contains {
                    $0.value < 0x20 && $0 != "\n" && $0 != "\t" || $0.value == 0x7F
                },
                "\(what) printed a control character: \(text.debugDescription)")
        }
        XCTAssertTrue(listing.stdout.contains(#"evil\u{1B}[2J\u{7}"#), listing.stdout)
    }

    func testALongVariableInTheOutputPathIsADataErrorNamingIt() throws {
        try fixture("long-variable-output.json")
        let title = String(repeating: "a", count: 300)
        for command in ["enqueue", "render"] {
            let result = try kiln([command, "long-variable-output.json", "--set", "title=\(title)"])
            XCTAssertEqual(result.status, 65, result.stderr)
            XCTAssertTrue(result.stderr.contains("variable 'title'"), result.stderr)
            XCTAssertFalse(result.stderr.contains("File name too long"), result.stderr)
        }
    }

    /// A refused 120 KB value is quoted in part, not echoed back whole.
    func testARefusedHugeSetValueIsNotEchoedInFull() throws {
        try fixture("long-variable-output.json")
        let huge = String(repeating: "b", count: 120_000)
        for setting in ["title=\(huge)", "\(huge)=x", "=\(huge)"] {
            let result = try kiln(["render", "long-variable-output.json", "--set", setting])
            XCTAssertNotEqual(result.status, 0, result.stderr)
            XCTAssertLessThan(result.stderr.utf8.count, 2_000, String(result.stderr.prefix(300)))
        }
    }

    /// A line break in any string a job (or its file's name) supplies cannot start a line that
    /// passes for Kiln's own: it comes out escaped or indented under the message it belongs to.
    func testLineBreaksInAJobCannotForgeLogLines() throws {
        let forged = #"x\r\nkiln: job 99 completed"#
        let jobs = [
            #"{"kiln": 1, "output": {"width": 64, "height": 36, "fps": 10, "duration": 0.2}, "layers": [{"type": "\#(forged)"}]}"#,
            #"{"kiln": 1, "output": {"width": 64, "height": 36, "fps": 10, "duration": 0.2}, "layers": [{"type": "text", "text": "a", "font": "\#(forged)"}]}"#,
            #"{"kiln": 1, "output": {"width": 64, "height": 36, "fps": 10, "duration": 0.2}, "layers": [{"type": "image", "path": "\#(forged).png"}]}"#,
            #"{"kiln": 1, "output": {"path": "missing/\#(forged)/o.mp4", "width": 64, "height": 36, "fps": 10, "duration": 0.2}, "layers": []}"#,
        ]
        var names = jobs.indices.map { "forge\($0).json" }
        names.append("n\r\nkiln: job 99 completed.json")
        for (index, name) in names.enumerated() {
            _ = try write(name, jobs[index < jobs.count ? index : 0])
            for command in [["validate", name], ["render", name, "--progress", "none"], ["enqueue", name]] {
                let result = try kiln(command)
                let lines = result.stderr.split(separator: "\n")
                XCTAssertFalse(
                    lines.contains { $0.hasPrefix("kiln: job") },
                    "\(command): \(result.stderr.debugDescription)")
                XCTAssertFalse(result.stderr.contains("\r"), "\(command): \(result.stderr.debugDescription)")
            }
        }
    }

    func testAnUnusableQueueExitsUnavailable() throws {
        let text = try write("notes.sqlite3", String(repeating: "not a database. ", count: 64))
        let folder = directory.appendingPathComponent("folder").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for location in [text, folder] {
            let result = try kiln(["status", "--queue", "sqlite:\(location)"])
            XCTAssertEqual(result.status, 69, result.stderr)
            XCTAssertFalse(result.stderr.contains("Program crashed"), result.stderr)
        }
    }

    func testAMalformedQueueIsNotWrittenTo() throws {
        let good = try write(
            "good.json",
            #"{"kiln": 1, "output": {"path": "out/good.mp4", "width": 320, "height": 180, "fps": 30, "duration": 0.2}, "layers": []}"#
        )
        for _ in 0..<8 { XCTAssertEqual(try kiln(["enqueue", good, "--allow-overwrite"]).status, 0) }
        XCTAssertFalse(FileManager.default.fileExists(atPath: database + "-wal"), "checkpointed on close")
        // Damage two b-tree pages of the jobs table, as a bad disk or a stray write would.
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: database))
        for page in [3, 4] {
            try handle.seek(toOffset: UInt64(4096 * page + 8))
            handle.write(Data(repeating: 0xFF, count: 200))
        }
        try handle.close()
        let damaged = try digest(database)
        let status = try kiln(["status"])
        XCTAssertEqual(status.status, 69, status.stderr)
        XCTAssertTrue(status.stderr.contains("malformed"), status.stderr)
        for command in [["enqueue", good], ["worker", "--drain"]] {
            let result = try kiln(command)
            XCTAssertEqual(result.status, 69, "\(command[0]): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("malformed"), result.stderr)
        }
        XCTAssertEqual(try digest(database), damaged, "nothing was written to the damaged file")
    }

    func testConnectionStringsArePrintedWithoutTheirPasswords() throws {
        for (url, secret) in [
            ("postgres://user:pw4321@[::1/db", "pw4321"),
            ("postgres://kiln@127.0.0.1:1/db?password=hunter2&connect_timeout=2", "hunter2"),
            ("postgresql://kiln:s3cret@127.0.0.1:1/db?connect_timeout=2", "s3cret"),
            ("postgres://kiln@127.0.0.1:1/?dbname=host%3Dx%20password%3Dn3sted&connect_timeout=2", "n3sted"),
            ("host=127.0.0.1 port=1 dbname='postgres://u:n3sted@x/db' connect_timeout=2", "n3sted"),
        ] {
            let result = try kiln(["status", "--queue", url])
            XCTAssertEqual(result.status, 69, result.stderr)
            XCTAssertFalse(result.stderr.contains(secret), result.stderr)
        }
    }

    /// libpq's `key=value` form is PostgreSQL: it used to be taken as a SQLite path, creating a
    /// file named with the password while `worker --once` worked an empty local queue (exit 0).
    func testKeyValueConnectionStringsAreNeverFileNames() throws {
        let location = "host=127.0.0.1 port=1 user=kiln password=kv5ecret dbname=q connect_timeout=2"
        for command in [["worker", "--once"], ["status"], ["enqueue", try writeJob("j", frames: 2)]] {
            let result = try kiln(command + ["--queue", location])
            XCTAssertEqual(result.status, 69, "\(command[0]): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("127.0.0.1"), result.stderr)
            XCTAssertFalse(result.stderr.contains("kv5ecret"), result.stderr)
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        XCTAssertFalse(left.contains { $0.contains("kv5ecret") }, "\(left)")
    }
}
