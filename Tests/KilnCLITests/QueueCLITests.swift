import Foundation
import KilnMedia
import KilnQueue
import KilnTestSupport
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// The export queue from the command line: enqueue, worker, status, logs, cancel, retry, prune, run.
final class QueueCLITests: QueueTestCase {
    func testEnqueueThenDrainRendersEverything() throws {
        let a = try writeJob("a", frames: 6), b = try writeJob("b", frames: 9)
        let enqueued = try kiln(["enqueue", a, b])
        XCTAssertEqual(enqueued.status, 0, enqueued.stderr)
        XCTAssertEqual(enqueued.stdout, "1\n2\n")
        XCTAssertEqual(try states(), ["available", "available"])
        let worker = try kiln(["worker", "--drain", "--concurrency", "2"])
        XCTAssertEqual(worker.status, 0, worker.stderr)
        XCTAssertTrue(worker.stderr.contains("2 completed"), worker.stderr)
        let jobs = try status()
        XCTAssertEqual(jobs.map { $0["state"] as? String }, ["completed", "completed"])
        for key in [
            "id", "state", "progress", "stage", "attempt", "maxAttempts", "output", "error", "attempts",
            "job",
        ] {
            XCTAssertNotNil(jobs[0][key], "status --json has '\(key)'")
        }
        XCTAssertEqual(jobs[0]["progress"] as? Double, 100)
        try assertQueueSound(frames: ["a": 6, "b": 9])
        let one = try kiln(["status", "1"])
        XCTAssertTrue(one.stdout.contains("job 1: completed"), one.stdout)
        let logs = try kiln(["logs", "1"])
        XCTAssertTrue(logs.stdout.contains("enqueued"), logs.stdout)
        XCTAssertTrue(logs.stdout.contains("attempt 1 completed"), logs.stdout)
    }

    func testAnInvalidJobInsertsNothing() throws {
        let good = try writeJob("good", frames: 2)
        let bad = try write(
            "bad.json",
            #"{"kiln": 1, "output": {"width": 33, "height": 32, "fps": 30, "duration": 1}, "layers": []}"#)
        let result = try kiln(["enqueue", good, bad])
        XCTAssertEqual(result.status, 65, result.stderr)
        XCTAssertTrue(result.stderr.contains("bad.json"), result.stderr)
        XCTAssertTrue(result.stderr.contains("output.width"), result.stderr)
        XCTAssertTrue(result.stderr.contains("nothing was enqueued"), result.stderr)
        XCTAssertEqual(try status().count, 0)
        XCTAssertEqual(try kiln(["enqueue", directory.appendingPathComponent("gone.json").path]).status, 66)
    }

    func testVariablesFromSetAndBatchRows() throws {
        let job = try write(
            "card.json",
            ##"""
            {"kiln": 1, "variables": {"title": "Hi", "color": {"type": "color", "default": "#102030"}},
             "output": {"path": "out/{job}-{title}.mp4", "width": 32, "height": 32, "fps": 10, "duration": {"frames": 3}, "preset": "ultrafast"},
             "layers": [{"type": "solid", "color": {"var": "color"}}]}
            """##)
        let rows = try write("rows.csv", "title,color\nred,#ff0000\nblue,#0000ff\n")
        XCTAssertEqual(try kiln(["enqueue", job, "--batch", rows]).status, 0)
        XCTAssertEqual(
            try kiln(["enqueue", job, "--set", "title=green", "--set", "color=#00ff00"]).status, 0)
        let badRows = try write("bad.csv", "title,color\nok,#ff0000\nbroken,notacolor\n")
        let rejected = try kiln(["enqueue", job, "--batch", badRows])
        XCTAssertEqual(rejected.status, 65)
        XCTAssertTrue(rejected.stderr.contains("bad.csv:3"), rejected.stderr)
        XCTAssertEqual(try status().count, 3, "the bad batch inserted nothing")
        XCTAssertEqual(try kiln(["worker", "--drain"]).status, 0)
        for (name, expected) in [("red", (255, 0, 0)), ("blue", (0, 0, 255)), ("green", (0, 255, 0))] {
            let path = outputs.appendingPathComponent("card-\(name).mp4").path
            var mean = (r: 0.0, g: 0.0, b: 0.0)
            _ = try VideoDecodeBack.decode(path: path) { if $0.index == 0 { mean = $0.meanRGB() } }
            XCTAssertEqual(mean.r, Double(expected.0), accuracy: 8, name)
            XCTAssertEqual(mean.g, Double(expected.1), accuracy: 8, name)
            XCTAssertEqual(mean.b, Double(expected.2), accuracy: 8, name)
        }
    }

    /// Two queued jobs writing one file would silently replace each other's video: refused at
    /// enqueue (73, nothing queued) unless --allow-overwrite, within a batch and against the queue.
    func testJobsThatWouldWriteOneFileAreRefused() throws {
        let job = try writeJob("same", frames: 2)
        XCTAssertEqual(try kiln(["enqueue", job]).status, 0)
        let again = try kiln(["enqueue", job])
        XCTAssertEqual(again.status, 73, again.stderr)
        XCTAssertTrue(again.stderr.contains("job 1 (available) already writes"), again.stderr)
        XCTAssertTrue(again.stderr.contains("--allow-overwrite"), again.stderr)
        XCTAssertEqual(try status().count, 1, "nothing was enqueued")
        let twice = try kiln(["enqueue", job, job, "--allow-overwrite"])
        XCTAssertEqual(twice.status, 0, twice.stderr)
        XCTAssertTrue(
            twice.stderr.contains("kiln: warning: 2 of the jobs being enqueued write"), twice.stderr)
        XCTAssertEqual(try status().count, 3)
        XCTAssertEqual(try kiln(["worker", "--drain"]).status, 0)
        XCTAssertEqual(try kiln(["enqueue", job]).status, 0, "a finished job's output may be written again")

        let card = try write(
            "card.json",
            ##"""
            {"kiln": 1, "variables": {"title": "Hi"},
             "output": {"path": "out/card-{title}.mp4", "width": 32, "height": 32, "fps": 10, "duration": {"frames": 1}},
             "layers": [{"type": "solid", "color": "#102030"}]}
            """##)
        let rows = try write("rows.csv", "title\nred\nblue\nred\n")
        let batch = try kiln(["enqueue", card, "--batch", rows])
        XCTAssertEqual(batch.status, 73, batch.stderr)
        XCTAssertTrue(batch.stderr.contains("2 of the jobs being enqueued write"), batch.stderr)
        XCTAssertTrue(batch.stderr.contains("card-red.mp4"), batch.stderr)
        XCTAssertFalse(batch.stderr.contains("card-blue.mp4"), batch.stderr)
        XCTAssertEqual(try status().count, 4)
    }

    func testConcurrentEnqueuesWithOneIdempotencyKeyMakeOneJob() throws {
        let job = try writeJob("same", frames: 2)
        _ = try kiln(["status"])  // create the database first, as a deployed queue would have it
        let processes = try (0..<10).map { _ in
            try KilnProcess.start(
                ["enqueue", job, "--idempotency-key", "nightly-2026-12-01"], cwd: directory,
                environment: environment)
        }
        let results = processes.map { KilnProcess.collect($0.0, $0.1, $0.2) }
        XCTAssertEqual(results.map(\.status), Array(repeating: 0, count: 10), results.map(\.stderr).joined())
        XCTAssertEqual(Set(results.map(\.stdout)), ["1\n"])
        XCTAssertEqual(try status().count, 1)
    }

    func testCancelRetryAndPrune() throws {
        let a = try writeJob("a", frames: 2), b = try writeJob("b", frames: 2)
        XCTAssertEqual(try kiln(["enqueue", a, b, "--at", "+1h"]).status, 0)
        XCTAssertEqual(try states(), ["scheduled", "scheduled"])
        XCTAssertEqual(try kiln(["cancel", "1"]).status, 0)
        XCTAssertEqual(try kiln(["cancel", "1"]).status, 65, "already cancelled")
        XCTAssertEqual(try kiln(["cancel", "99"]).status, 66)
        XCTAssertEqual(
            try kiln(["worker", "--drain"]).stderr.contains("0 completed"), true, "b is not due yet")
        XCTAssertEqual(try kiln(["retry", "1"]).status, 0)
        XCTAssertEqual(try kiln(["worker", "--drain"]).status, 0)
        XCTAssertEqual(try states(), ["completed", "scheduled"])
        XCTAssertEqual(try kiln(["prune", "--older-than", "1h"]).stderr, "kiln: removed 0 ended job(s)\n")
        XCTAssertEqual(try kiln(["prune", "--older-than", "0s"]).stderr, "kiln: removed 1 ended job(s)\n")
        XCTAssertEqual(try states(), ["scheduled"])
        XCTAssertEqual(try kiln(["prune"]).status, 64)
    }

    func testRunEnqueuesAndDrains() throws {
        let job = try writeJob("quick", frames: 4)
        let result = try kiln(["run", job])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, outputs.appendingPathComponent("quick.mp4").path + "\n")
        try assertQueueSound(frames: ["quick": 4])
    }

    /// `kiln run` on a terminal draws the render's bar (the worker's lines above it), stays quiet
    /// when piped, and with --progress json ends with a done event naming the output.
    func testRunShowsProgressOnATerminalAndAsJSON() throws {
        let shown = try writeJob("shown", frames: 30)
        let command = ["env", "KILN_QUEUE=sqlite:\(database)", KilnProcess.binary.path, "run", shown].map {
            "'\($0)'"
        }.joined(separator: " ")
        guard let terminal = try KilnProcess.tool("/usr/bin/script", ["-qec", command, "/dev/null"]) else {
            throw XCTSkip("util-linux script is not installed")
        }
        XCTAssertEqual(terminal.status, 0, terminal.stdout)
        for text in ["100%", "ETA", "job 1", "kiln worker: job 1: completed"] {
            XCTAssertTrue(terminal.stdout.contains(text), "'\(text)' missing:\n\(terminal.stdout)")
        }
        let piped = try kiln(["run", try writeJob("piped", frames: 4)])
        XCTAssertEqual(piped.status, 0, piped.stderr)
        XCTAssertFalse(piped.stderr.contains("ETA"), piped.stderr)

        let json = try kiln(["run", try writeJob("json", frames: 4), "--progress", "json"])
        XCTAssertEqual(json.status, 0, json.stderr)
        let events = try json.stdout.split(separator: "\n").map {
            try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any], String($0))
        }
        XCTAssertTrue(events.dropLast().allSatisfy { $0["event"] as? String == "progress" }, json.stdout)
        let done = try XCTUnwrap(events.last)
        XCTAssertEqual(done["event"] as? String, "done")
        let output = outputs.appendingPathComponent("json.mp4").path
        XCTAssertEqual(done["output"] as? String, output)
        XCTAssertEqual(
            done["bytes"] as? Int, try FileManager.default.attributesOfItem(atPath: output)[.size] as? Int)
    }

    func testEveryQueueCommandHasHelp() throws {
        for command in ["enqueue", "worker", "status", "logs", "cancel", "retry", "prune", "run"] {
            let result = try kiln([command, "--help"])
            XCTAssertEqual(result.status, 0, command)
            XCTAssertTrue(result.stdout.hasPrefix("usage: kiln \(command)"), result.stdout)
        }
        let unreachable = try kiln([
            "status", "--queue", "postgres://kiln:s3cret@127.0.0.1:1/kiln?connect_timeout=2",
        ])
        XCTAssertEqual(unreachable.status, 69, unreachable.stderr)
        XCTAssertFalse(unreachable.stderr.contains("s3cret"), unreachable.stderr)
    }
}
