/// Timed lines of speech in order of their start, and which of them is being said at a time.
///
/// A line is current from its start (inclusive) until it ends (exclusive): at its written `end`,
/// else where the next line starts; the last open-ended line never ends here, because only the
/// caller knows the video's duration (see `end(ofLine:videoDuration:)`). So at exactly a line's
/// start that line is current, and the line before it has just stopped when it ended there.
/// Where cues overlap, the one that started last wins; of lines with the same start, the later
/// one in the file.
public struct Transcript: Sendable, Hashable {
    public let lines: [TranscriptLine]
    /// For each index, the latest time any line up to it stops being current. Once a time has
    /// passed this, no earlier line can be current, which ends the backward search in
    /// `current(at:)` early (at once in a gap between cues).
    private let latestEndThrough: [Double]

    /// Sorts the lines by start, keeping the file's order among equal starts.
    public init(lines: [TranscriptLine]) {
        let isSorted = zip(lines, lines.dropFirst()).allSatisfy { $0.start <= $1.start }
        let sorted =
            isSorted
            ? lines
            : lines.enumerated().sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }
                .map(\.element)
        self.lines = sorted
        var latest = -Double.infinity
        var latestEndThrough: [Double] = []
        latestEndThrough.reserveCapacity(sorted.count)
        for index in sorted.indices {
            latest = max(latest, Self.stop(of: index, in: sorted))
            latestEndThrough.append(latest)
        }
        self.latestEndThrough = latestEndThrough
    }

    public var isEmpty: Bool { lines.isEmpty }

    /// The index of the line being said at `time`, or nil before the first line, in a gap
    /// between cues with written ends, or for NaN.
    public func current(at time: Double) -> Int? {
        guard !time.isNaN else { return nil }
        var low = 0
        var high = lines.count
        while low < high {
            let middle = (low + high) / 2
            if lines[middle].start <= time {
                low = middle + 1
            } else {
                high = middle
            }
        }
        var index = low - 1
        while index >= 0, latestEndThrough[index] > time {
            if time < Self.stop(of: index, in: lines) { return index }
            index -= 1
        }
        return nil
    }

    /// When the line stops being shown: its written end, else the next line's start, else the
    /// video's end (never before the line's own start, so the interval is at worst empty).
    public func end(ofLine index: Int, videoDuration: Double) -> Double {
        let line = lines[index]
        if let end = line.end { return end }
        if index + 1 < lines.count { return lines[index + 1].start }
        return max(line.start, videoDuration)
    }

    private static func stop(of index: Int, in lines: [TranscriptLine]) -> Double {
        if let end = lines[index].end { return end }
        return index + 1 < lines.count ? lines[index + 1].start : .infinity
    }
}
