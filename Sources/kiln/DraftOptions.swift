import Foundation
import KilnCommandLine
import KilnModel

/// The options that make a draft (`render`, and `preview` for the size): smaller with the same
/// layout, and/or part of the timeline.
extension OptionSpec {
    static let scale = OptionSpec(
        "--scale", kind: .double(minimum: 0), placeholder: "F",
        help: "a draft: the same picture smaller, width and height times F (0.05…1; 0.5 = half); every "
            + "position, size, font, stroke, offset and blur of the job scales with it; each side is rounded "
            + "to an even number of pixels, as H.264 yuv420p needs")
    static let size = OptionSpec(
        "--size", kind: .string, placeholder: "WxH",
        help: "a draft at this size in pixels, laid out as the job (not with --scale): WxH of the job's "
            + "shape (within 1 %), or one side, Wx or xH, with the other following it; at most the job's "
            + "size; rounded to even pixels")
    static let range = OptionSpec(
        "--range", kind: .string, placeholder: "A-B",
        help: "a draft of the job's seconds A to B (A- to its end, -B from its start; 90, 1:30 or 0:01:30 "
            + "alike): from the frame shown at A to the last frame starting before B, each as in the whole "
            + "render, with the audio cut to the same span")
    static let duration = OptionSpec(
        "--duration", kind: .double(minimum: 0), placeholder: "SECONDS",
        help: "a draft of the job's first SECONDS (as --range -SECONDS; not with --range)")

    static let draftSize: [OptionSpec] = [.scale, .size]
    static let draftSpan: [OptionSpec] = [.range, .duration]
}

/// The draft the command line asks for; empty without draft options. Only the syntax is checked
/// here: whether it fits the job is known once the job is loaded (`Job.drafted`).
func draftSettings(_ args: ParsedArguments) throws -> Draft {
    var draft = Draft()
    do {
        switch (args.double(.scale), args.string(.size)) {
        case (let factor?, nil): draft.size = .scale(factor)
        case (nil, let text?): draft.size = try DraftSize(sizeText: text)
        case (.some, .some): throw DraftError("give --scale or --size, not both")
        case (nil, nil): break
        }
        if args.declares(.range) {
            switch (args.string(.range), args.double(.duration)) {
            case (let text?, nil): draft.span = try DraftSpan(rangeText: text)
            case (nil, let seconds?): draft.span = .duration(seconds)
            case (.some, .some):
                throw DraftError("give --range or --duration, not both (--range A-B sets both ends)")
            case (nil, nil): break
            }
        }
    } catch let error as DraftError {
        throw args.usageError(error.message)
    }
    return draft
}

/// What a draft renders, for stderr: "kiln: draft: 960x540 of the job's 1920x1080; 2-5 s (frames
/// 60-149 of 300)". nil when it renders the job as it is.
func draftNote(job: OutputSettings, draft: OutputSettings, size: DraftSize?) -> String? {
    var parts: [String] = []
    if draft.width != job.width || draft.height != job.height {
        var part = "\(draft.width)x\(draft.height) of the job's \(job.width)x\(job.height)"
        if case .scale(let factor) = size {
            let exact = (Double(job.width) * factor, Double(job.height) * factor)
            if exact != (Double(draft.width), Double(draft.height)) {
                part += " (×\(OptionValue.double(factor).text) is \(pixels(exact.0))x\(pixels(exact.1)), "
                part += "rounded to even sides for H.264 yuv420p)"
            }
        } else if case .pixels(let w, let h) = size,
            w.map({ $0 != draft.width }) ?? false
                || h.map({ $0 != draft.height }) ?? false
        {
            part += " (rounded to even sides for H.264 yuv420p)"
        }
        parts.append(part)
    }
    if draft.startFrame != job.startFrame || draft.frameCount != job.frameCount {
        let first = draft.startFrame, last = draft.startFrame + draft.frameCount - 1
        parts.append(
            "\(secondsText(job.time(ofFrame: first)))-\(secondsText(job.time(ofFrame: last + 1))) s "
                + "(frames \(first)-\(last) of \(job.frameCount))")
    }
    return parts.isEmpty ? nil : "kiln: draft: " + parts.joined(separator: "; ")
}

/// Seconds to the microsecond without trailing zeros: 3 → "3", frame 89 at 30 fps → "2.966667".
func secondsText(_ value: Double) -> String {
    var text = String(format: "%.6f", value)
    while text.hasSuffix("0") { text.removeLast() }
    if text.hasSuffix(".") { text.removeLast() }
    return text
}

private func pixels(_ value: Double) -> String {
    value == value.rounded() ? String(Int(value)) : String(format: "%.2f", value)
}
