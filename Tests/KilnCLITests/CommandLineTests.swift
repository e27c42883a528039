import Foundation
import KilnTestSupport
import XCTest

/// The command line made from the descriptions: every option documented and round-tripping,
/// help, completion scripts and the man page from the same source, usage errors with "did you mean".
final class CommandLineTests: XCTestCase {
    /// The visible commands, as `kiln --help` lists them.
    func commandNames() throws -> [String] {
        let help = try KilnProcess.run(["--help"]).stdout
        let list = help.components(separatedBy: "commands:\n")[1].components(separatedBy: "\n\n")[0]
        return list.split(separator: "\n").map { String($0.split(separator: " ")[0]) }
    }

    func testEveryOptionOfEveryCommandIsDocumentedAndParses() throws {
        let result = try KilnProcess.run(["__check-descriptions"])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertEqual(result.stdout, "", "problems")
        XCTAssertTrue(result.stderr.contains("commands checked, 0 problems"), result.stderr)
    }

    func testEveryCommandHasHelpMadeFromItsDescription() throws {
        let names = try commandNames()
        for command in [
            "render", "preview", "validate", "layers", "limits", "enqueue", "worker", "status", "logs",
            "cancel",
            "retry", "prune", "run", "schedule", "completion", "help", "version",
        ] {
            XCTAssertTrue(names.contains(command), "kiln --help lacks \(command): \(names)")
        }
        for command in names {
            let result = try KilnProcess.run([command, "--help"])
            XCTAssertEqual(result.status, 0, command)
            XCTAssertTrue(result.stdout.hasPrefix("usage: kiln \(command)"), result.stdout)
            XCTAssertEqual(try KilnProcess.run(["help", command]).stdout, result.stdout, command)
        }
        let schedule = try KilnProcess.run(["schedule", "add", "--help"])
        XCTAssertTrue(
            schedule.stdout.hasPrefix("usage: kiln schedule add NAME JOB [--cron EXPR]"), schedule.stdout)
    }

    func testTheManPageIsCurrent() throws {
        let generated = try KilnProcess.run(["help", "--man"])
        XCTAssertEqual(generated.status, 0)
        let checkedIn = try String(
            contentsOf: KilnProcess.repositoryRoot.appendingPathComponent("docs/kiln.1"), encoding: .utf8)
        XCTAssertTrue(
            generated.stdout == checkedIn,
            "docs/kiln.1 is stale: run `.build/release/kiln help --man > docs/kiln.1`")
        for command in try commandNames() {
            // roff writes a hyphen as \-.
            let roff = command.replacingOccurrences(of: "-", with: "\\-")
            XCTAssertTrue(generated.stdout.contains(".SS \"\(roff)"), command)
        }
    }

    func testCompletionScriptsNameEveryCommandAndOption() throws {
        let names = try commandNames()
        for shell in ["bash", "zsh", "fish"] {
            let script = try KilnProcess.run(["completion", shell])
            XCTAssertEqual(script.status, 0, shell)
            for command in names { XCTAssertTrue(script.stdout.contains(command), "\(shell): \(command)") }
            for option in [
                "--threads", "--progress", "--segment-seconds", "--idempotency-key", "--misfire",
                "--older-than", "--unset",
            ] {
                let spelled = shell == "fish" ? "-l \(option.dropFirst(2))" : option
                XCTAssertTrue(script.stdout.contains(spelled), "\(shell): \(option)")
            }
        }
        let unknown = try KilnProcess.run(["completion", "tcsh"])
        XCTAssertEqual(unknown.status, 64)
        XCTAssertTrue(unknown.stderr.contains("SHELL expects bash, zsh, fish, got 'tcsh'"), unknown.stderr)
    }

    func testUsageErrorsNameTheCommandAndOptionAndSuggest() throws {
        let cases: [([String], String)] = [
            (
                ["render", "jobs/mesh-gradient.json", "--thread", "2"],
                "kiln: error: unknown option '--thread' for render; did you mean '--threads'?\nrun 'kiln render --help' for usage"
            ),
            (
                ["rendr"],
                "kiln: error: unknown command 'rendr'; did you mean 'render'?\nrun 'kiln --help' for usage"
            ),
            (
                ["render", "jobs/mesh-gradient.json", "--threads", "abc"],
                "--threads expects an integer in 1…256, got 'abc'"
            ),
            (
                ["render", "jobs/mesh-gradient.json", "--progress", "bra"],
                "--progress expects auto, bar, json, none, got 'bra'; did you mean 'bar'?"
            ),
            (
                ["preview", "jobs/mesh-gradient.json", "--at", "soon", "-o", "/tmp/x.png"],
                "--at expects a number ≥ 0, got 'soon'"
            ),
            (["schedule", "pasue", "x"], "unknown schedule action 'pasue'; did you mean 'pause'?"),
            (
                ["schedule", "add", "n", "j.json", "--cron", "@daily", "--misfire", "sometimes"],
                "--misfire expects run_once, skip, run_all, got 'sometimes'"
            ),
            (["status", "--json=yes"], "--json takes no value"),
            (["logs", "one"], "ID expects an integer"),
            (["worker", "--grace"], "--grace needs a value (SECONDS)"),
        ]
        for (args, message) in cases {
            let result = try KilnProcess.run(args)
            XCTAssertEqual(result.status, 64, "\(args): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(message), "\(args): \(result.stderr)")
        }
    }

    /// Issue 18: a word cut short, a mistyped program option, an action without its command and
    /// `kiln help` of a mistyped action all get "did you mean", with exit 64.
    func testCutShortAndMisplacedWordsAreSuggested() throws {
        let cases: [([String], String)] = [
            (
                ["sched", "list"],
                "unknown command 'sched'; did you mean 'schedule'?\nrun 'kiln --help' for usage"
            ),
            (["--verison"], "unknown option '--verison'; did you mean '--version'?"),
            (["pause", "nightly"], "unknown command 'pause'; did you mean 'schedule pause'?"),
            (["render", "jobs/mesh-gradient.json", "--threds", "2"], "did you mean '--threads'?"),
            (
                ["render", "jobs/mesh-gradient.json", "--segm", "2"],
                "unknown option '--segm' for render; did you mean '--segments' or '--segment-seconds'?"
            ),
            (["schedule", "ad", "x"], "unknown schedule action 'ad'; did you mean 'add'?"),
            (["help", "schedule", "ad"], "unknown schedule action 'ad'; did you mean 'add'?"),
            (["help", "render", "add"], "render has no actions"),
            (
                ["schedule", "list", "--jsn"],
                "unknown option '--jsn' for schedule list; did you mean '--json'?"
            ),
        ]
        for (args, message) in cases {
            let result = try KilnProcess.run(args)
            XCTAssertEqual(result.status, 64, "\(args): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(message), "\(args): \(result.stderr)")
        }
    }

    /// `kiln help schedule add` is `kiln schedule add --help`, as `kiln help render` is
    /// `kiln render --help`.
    func testHelpDescribesOneActionOfACommand() throws {
        for action in ["add", "update", "run"] {
            let help = try KilnProcess.run(["help", "schedule", action])
            XCTAssertEqual(help.status, 0, help.stderr)
            XCTAssertTrue(help.stdout.hasPrefix("usage: kiln schedule \(action) NAME"), help.stdout)
            XCTAssertEqual(help.stdout, try KilnProcess.run(["schedule", action, "--help"]).stdout)
        }
    }

    func testBenchUsesTheSameParser() throws {
        let bench = KilnProcess.binary.deletingLastPathComponent().appendingPathComponent("kiln-bench")
        for (args, message) in [
            (["--frames", "abc"], "kiln-bench: error: --frames expects an integer in 3…100000, got 'abc'"),
            (["--frame", "3"], "unknown option '--frame' for kiln-bench; did you mean '--frames'?"),
            (["--size", "1921x1080"], "--size expects WxH, even numbers, got '1921x1080'"),
        ] {
            let (process, out, err) = try KilnProcess.launch(bench, args, cwd: KilnProcess.repositoryRoot)
            let result = KilnProcess.collect(process, out, err)
            XCTAssertEqual(result.status, 64, "\(args): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(message), "\(args): \(result.stderr)")
        }
        let (process, out, err) = try KilnProcess.launch(bench, ["--help"], cwd: KilnProcess.repositoryRoot)
        let help = KilnProcess.collect(process, out, err)
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(
            help.stdout.hasPrefix("usage: kiln-bench [--frames N] [--encode-frames N]"), help.stdout)
    }

    /// `--jobs` with `--repeat`: each run's export and encode-only alternate, and the report
    /// gives the medians and every run's ratio.
    func testBenchJobsRepeatReportsEveryRun() throws {
        let bench = KilnProcess.binary.deletingLastPathComponent().appendingPathComponent("kiln-bench")
        let (process, out, err) = try KilnProcess.launch(
            bench, ["--jobs", "jobs/text.json", "--seconds", "0.5", "--repeat", "3", "--json"],
            cwd: KilnProcess.repositoryRoot)
        let result = KilnProcess.collect(process, out, err)
        XCTAssertEqual(result.status, 0, result.stderr)
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let job = try XCTUnwrap((object?["jobs"] as? [[String: Any]])?.first)
        XCTAssertEqual(job["runs"] as? Int, 3)
        let ratios = try XCTUnwrap(job["ratios"] as? [Double])
        XCTAssertEqual(ratios.count, 3)
        XCTAssertEqual(job["ratio"] as? Double, ratios.sorted()[1], "the median run's ratio")
        XCTAssertEqual(job["frames"] as? Int, 15)
    }

    /// `__render-frames` into a file that already exists (the raw frames a comparison reads)
    /// leaves exactly this render's frames, not the old file's tail after them.
    func testBenchRenderFramesReplacesAnExistingFile() throws {
        let bench = KilnProcess.binary.deletingLastPathComponent().appendingPathComponent("kiln-bench")
        let scratch = try TemporaryDirectory(label: "kiln-bench-raw")
        let raw = scratch.path("frames.raw")
        try Data(repeating: 7, count: 20_000_000).write(to: URL(fileURLWithPath: raw))
        let (process, out, err) = try KilnProcess.launch(
            bench, ["__render-frames", "jobs/text.json", "0.1", raw], cwd: KilnProcess.repositoryRoot)
        let result = KilnProcess.collect(process, out, err)
        XCTAssertEqual(result.status, 0, result.stderr)
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let frames = try XCTUnwrap(object?["frames"] as? Int)
        let job = try JSONSerialization.jsonObject(
            with: Data(contentsOf: KilnProcess.repositoryRoot.appendingPathComponent("jobs/text.json")))
        let output = try XCTUnwrap((job as? [String: Any])?["output"] as? [String: Any])
        let frameBytes = try XCTUnwrap(output["width"] as? Int) * XCTUnwrap(output["height"] as? Int) * 3 / 2
        let size = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: raw)[.size] as? Int)
        XCTAssertEqual(size, frames * frameBytes)
    }
}
