/// Which of a job's frames a draft renders: `--range A-B` or `--duration S`. The video starts
/// with the frame the job shows at A and ends with the last frame that starts before B, each
/// at the time it has in the whole job (frame times are never re-timed), and the soundtrack is
/// cut to the same span.
public enum DraftSpan: Sendable, Hashable {
    /// Seconds of the job's timeline; a missing end is the job's start or end.
    case range(from: Double?, to: Double?)
    /// The first this many seconds.
    case duration(Double)

    /// Parses `--range`: `A-B`, `A-` or `-B`, each a time in seconds (`2.5`) or as a clock
    /// reads (`1:30`, `1:02:03.5`).
    public init(rangeText text: String) throws(DraftError) {
        let ends = text.split(separator: "-", omittingEmptySubsequences: false)
        guard ends.count == 2, !(ends[0].isEmpty && ends[1].isEmpty) else {
            throw DraftError(
                "--range expects START-END in seconds (2-5, 1:30-2:00), START- (to the job's end) or -END "
                    + "(from its start); got '\(text)'")
        }
        func time(_ end: Substring) throws(DraftError) -> Double? {
            if end.isEmpty { return nil }
            guard let seconds = Self.seconds(String(end)) else {
                throw DraftError(
                    "--range expects times in seconds (2.5) or as minutes:seconds (1:30) or "
                        + "hours:minutes:seconds (1:02:03.5); '\(end)' in '\(text)' is neither")
            }
            return seconds
        }
        let from = try time(ends[0]), to = try time(ends[1])
        if let from, let to, to <= from {
            throw DraftError(
                "--range \(text) is empty: its end (\(NumberText.seconds(to)) s) must come after its start "
                    + "(\(NumberText.seconds(from)) s)")
        }
        self = .range(from: from, to: to)
    }

    /// `90`, `1:30`, `0:01:30.25` → seconds; nil for anything else, negative or not finite.
    static func seconds(_ text: String) -> Double? {
        let fields = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(fields.count) else { return nil }
        var total = 0.0
        for (index, field) in fields.enumerated() {
            let last = index == fields.count - 1
            // Only digits (and the last field's decimal point): no signs, exponents or spaces.
            guard !field.isEmpty, field.allSatisfy({ $0.isASCII && ($0.isNumber || (last && $0 == ".")) }),
                let value = Double(field), value.isFinite
            else { return nil }
            // Minutes and seconds after a colon stay below 60, as on a clock.
            if index > 0, value >= 60 { return nil }
            total = total * 60 + value
        }
        return total
    }

    /// The job frames this span covers in `output` (the job's own timing), or why it cannot.
    public func frames(of output: OutputSettings) throws(DraftError) -> Range<Int> {
        let length = output.durationSeconds
        let lasts =
            "the job lasts \(NumberText.seconds(length)) s (\(output.frameCount) frames at \(output.frameRate) fps)"
        let from: Double, to: Double
        switch self {
        case .duration(let seconds):
            guard seconds > 0, seconds.isFinite else {
                throw DraftError(
                    "--duration expects a number of seconds above 0, got \(NumberText.format(seconds))")
            }
            guard seconds <= length + Self.slack else {
                throw DraftError(
                    "--duration \(NumberText.seconds(seconds)) is longer than the job: \(lasts); leave it out "
                        + "to render it all")
            }
            (from, to) = (0, seconds)
        case .range(let start, let end):
            from = start ?? 0
            to = end ?? length
            guard from < length else {
                throw DraftError(
                    "--range starts at \(NumberText.seconds(from)) s, at or past the end: \(lasts)")
            }
            guard to <= length + Self.slack else {
                throw DraftError(
                    "--range ends at \(NumberText.seconds(to)) s, past the end: \(lasts); write "
                        + "'\(NumberText.seconds(from))-' to render to the end")
            }
        }
        let rate = Double(output.frameRate.numerator) / Double(output.frameRate.denominator)
        // The frame on screen at `from`, up to the last frame that starts before `to`.
        let first = Int((from * rate + Self.slack).rounded(.down))
        let end = Int((to * rate - Self.slack).rounded(.up))
        return min(first, output.frameCount - 1)..<min(max(end, first + 1), output.frameCount)
    }

    /// Keeps a time written as a frame's start on that frame: 4.1 s × 30 fps multiplies out to
    /// 122.99999999999999.
    static let slack = 1e-9
}
