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
            """,
        options: [frames, encodeFrames, size, only, json])

    var frames = 24
    var encodeFrames = 24
    var width = 1920
    var height = 1080
    var json = false
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
        let parts = (parsed.string(Self.size) ?? "").split(separator: "x").map { Int($0) }
        guard parts.count == 2, let w = parts[0], let h = parts[1], w > 0, h > 0, w % 2 == 0, h % 2 == 0
        else {
            fail("--size expects WxH, even numbers, got '\(parsed.string(Self.size) ?? "")'")
        }
        (width, height) = (w, h)
    }
}
