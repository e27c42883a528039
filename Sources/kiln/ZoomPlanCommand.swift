import Foundation
import KilnCommandLine
import KilnModel

/// `kiln zoom-plan EVENTS`: auto-zoom camera keyframes from a pointer event log, printed as the
/// job's `camera` object.
enum ZoomPlanCommand: KilnSubcommand {
    static let maxZoom = OptionSpec(
        "--max-zoom", kind: .double(minimum: 1), default: .double(2),
        help: "the most the camera magnifies, 1…10")
    static let minHold = OptionSpec(
        "--min-hold", kind: .double(minimum: 0), default: .double(1.2),
        help: "the shortest time, seconds, a push-in or the whole view is held")
    static let margin = OptionSpec(
        "--margin", kind: .double(minimum: 0), default: .double(80),
        help: "screen pixels kept between every action and the frame's edge")
    static let size = OptionSpec(
        "--size", kind: .string, placeholder: "WxH", default: .string("1920x1080"),
        help: "the job's layout size in pixels, which the log's coordinates are in")
    static let transition = OptionSpec(
        "--transition", kind: .double(minimum: 0.05), default: .double(0.8),
        help: "seconds each push-in, pull-out or pan takes (less where the actions leave less time)")
    static let lead = OptionSpec(
        "--lead", kind: .double(minimum: 0), default: .double(0.35),
        help: "seconds the camera arrives before an action")
    static let linger = OptionSpec(
        "--linger", kind: .double(minimum: 0), default: .double(0.6),
        help: "seconds the camera stays after an action")
    static let ease = OptionSpec(
        "--ease", kind: .choice(["linear", "easeIn", "easeOut", "easeInOut"]), default: .string("easeInOut"),
        help: "the curve of every camera move")

    static let spec = CommandSpec(
        "zoom-plan", summary: "plan auto-zoom camera keyframes from a pointer event log",
        description: """
            Reads a pointer event log (JSON or CSV, as a pointer layer's "events") and prints a job's
            "camera" object: position and zoom keyframes that push in on where the clicks, taps, drags
            and keys happen and pull out between them, like a screen recorder's auto-zoom. Actions
            close in time share one view when they fit; every action stays --margin screen pixels
            inside the frame (unless it is nearer the layout's edge than that). Paste the object into
            the job beside "output", or onto a group holding the recording, and edit it like any
            keyframes. Exit 66 when the log is missing, 65 when it is malformed.
            """,
        options: [size, maxZoom, minHold, margin, transition, lead, linger, ease],
        positionals: [PositionalSpec("EVENTS", kind: .path, help: "the event log, .json or .csv")])

    static func run(_ args: ParsedArguments) throws -> Int32 {
        guard let file = args.positionals.first else { throw args.usageError("missing the event log EVENTS") }
        let sizeText = args.string(size) ?? "1920x1080"
        let sides = sizeText.lowercased().replacingOccurrences(of: "×", with: "x").split(separator: "x")
            .compactMap {
                Int($0)
            }
        guard sides.count == 2, sides.allSatisfy({ (16...65_536).contains($0) }) else {
            throw args.usageError(
                "--size expects WIDTHxHEIGHT in pixels, 16…65536 each (e.g. 1920x1080); got '\(sizeText)'")
        }
        var settings = ZoomPlan.Settings(size: SIMD2(Double(sides[0]), Double(sides[1])))
        func value(_ option: OptionSpec, _ range: ClosedRange<Double>, _ fallback: Double) throws -> Double {
            let v = args.double(option) ?? fallback
            guard v.isFinite, range.contains(v) else {
                throw args.usageError(
                    "\(option.long) expects a number in \(NumberText.format(range)), got \(NumberText.format(v))"
                )
            }
            return v
        }
        settings.maxZoom = try value(maxZoom, ZoomPlan.Settings.maxZoomRange, 2)
        settings.minHold = try value(minHold, ZoomPlan.Settings.secondsRange, 1.2)
        settings.margin = try value(margin, ZoomPlan.Settings.marginRange, 80)
        settings.transition = try value(transition, 0.05...60, 0.8)
        settings.lead = try value(lead, ZoomPlan.Settings.secondsRange, 0.35)
        settings.linger = try value(linger, ZoomPlan.Settings.secondsRange, 0.6)
        settings.ease =
            switch args.string(ease) {
            case "linear": .linear
            case "easeIn": .easeIn
            case "easeOut": .easeOut
            default: .easeInOut
            }
        guard 2 * settings.margin < min(settings.size.x, settings.size.y) else {
            throw args.usageError(
                "--margin \(NumberText.format(settings.margin)) leaves no room in \(sizeText)")
        }
        let log: PointerEventLog
        do {
            log = try PointerEventParser.load(file: file, limits: ResourceLimits())
        } catch {
            Output.error(error.description)
            return error.line == nil && error.message == "no such file"
                ? ExitCode.noInput : ExitCode.dataError
        }
        let frames = ZoomPlan.keyframes(for: log, settings: settings)
        print("{\n  \"camera\": " + ZoomPlan.cameraJSON(frames, indent: "  ") + "\n}")
        return ExitCode.ok
    }
}
