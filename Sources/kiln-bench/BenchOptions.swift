import Foundation
import KilnCommandLine

/// kiln-bench's command line, described and parsed like every `kiln` command's.
struct BenchOptions {
    static let frames = OptionSpec(
        "--frames", kind: .int(3...100_000), default: .int(24),
        help: "frames per row: each row is the median of N frames, after one warm-up frame")
    static let encodeFrames = OptionSpec(
        "--encode-frames", kind: .int(3...100_000), default: .int(24),
        help: "frames each libx264 encode row encodes")
    static let size = OptionSpec(
        "--size", kind: .string, placeholder: "WxH", default: .string("1920x1080"),
        help: "the frame size, even numbers")
    static let only = OptionSpec(
        "--only", kind: .string, placeholder: "TEXT",
        help: "measure only the rows whose names contain TEXT (case-insensitive), e.g. --only transcript, "
            + "--only \"gaussian blur\"")
    static let json = OptionSpec.flag("--json", help: "print the rows, ratios and assembly lines as JSON")
    static let jobs = OptionSpec(
        "--jobs", kind: .string, placeholder: "LIST",
        help: "instead of the rows: export these jobs (comma-separated files, or all = every jobs/*.json) "
            + "end to end, each against libx264 alone on the same frames")
    static let seconds = OptionSpec(
        "--seconds", kind: .double(minimum: 0.01), placeholder: "S",
        help: "with --jobs: only each job's first S seconds (default: all of it)")
    static let repeats = OptionSpec(
        "--repeat", kind: .int(1...100), placeholder: "N", default: .int(1),
        help: "with --jobs: export and encode-only N times each, alternated, and report medians "
            + "(the ratio: the median of the N runs' ratios, with their range)")
    static let spec = CommandSpec(
        "kiln-bench", summary: "the numbers of docs/performance.md, measured in one run",
        description: """
            Measures, at the given size, on an animated 3×3 mesh gradient: render ms/frame and
            ns·core/px with 1 thread and with all threads; float→YUV (Kiln's fused SIMD pass) against
            RGBA→YUV with libswscale; libx264 encode at veryfast and medium on the same frames (1 encoder
            thread, so the cost is per core); a Gaussian blur of the whole frame at σ = 3 and σ = 30;
            pixel effects; the transcript overlay, also on its own (the frame with it minus the frame
            without it, in the same run); assembling a 10-minute video from ten 60 s segments by stream
            copy (--only assembly).

            With --jobs, whole jobs instead: per job, the export as `kiln render` does it, and libx264
            alone encoding the same frames with the same preset, CRF and threads, in the same run;
            frames, wall times, real-time factor, render ns·core/px (the export's CPU time beyond the
            encoder's), their ratio and each one's peak memory. On a shared machine one run of each
            moves by ±10 %: --repeat alternates several and reports medians.
            """,
        options: [frames, encodeFrames, size, only, json, jobs, seconds, repeats])

    var frames = 24
    var encodeFrames = 24
    var width = 1920
    var height = 1080
    var json = false
    /// `--jobs`: the job files to export end to end.
    var jobs: [String]?
    var seconds = Double.infinity
    /// `--repeat`: alternated runs of each job's export and encode-only.
    var repeats = 1
    /// Only the rows whose names contain this (lowercased).
    var only: String?

    /// The options, or help printed and exit 0, or a usage error and exit 64.
    init(_ args: [String]) {
        let parsed: ParsedArguments
        do {
            parsed = try CommandLineParser.parse(args, spec: Self.spec, command: Self.spec.name)
        } catch let error as UsageError {
            fail(error.message + "\n" + error.helpHint(program: ""))
        } catch {
            fail("\(error)")
        }
        if parsed.helpRequested {
            print(HelpText.command(Self.spec, path: Self.spec.name, program: ""), terminator: "")
            exit(0)
        }
        frames = parsed.int(Self.frames) ?? frames
        encodeFrames = parsed.int(Self.encodeFrames) ?? encodeFrames
        json = parsed.flag(Self.json)
        only = parsed.string(Self.only)?.lowercased()
        jobs = parsed.string(Self.jobs).map(jobFiles)
        seconds = parsed.double(Self.seconds) ?? seconds
        repeats = parsed.int(Self.repeats) ?? repeats
        let parts = (parsed.string(Self.size) ?? "").split(separator: "x").map { Int($0) }
        guard parts.count == 2, let w = parts[0], let h = parts[1], w > 0, h > 0, w % 2 == 0, h % 2 == 0
        else {
            fail("--size expects WxH, even numbers, got '\(parsed.string(Self.size) ?? "")'")
        }
        (width, height) = (w, h)
    }
}
