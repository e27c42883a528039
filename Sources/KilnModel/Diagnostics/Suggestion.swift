/// "Did you mean" hints for misspelt keys and names.
public enum Suggestion {
    /// The candidate closest to `word` (case-insensitive optimal-string-alignment distance, so a
    /// swapped pair of letters counts as one edit), or nil when nothing is plausibly meant.
    public static func closest(to word: String, among candidates: [String]) -> String? {
        let target = Array(word.lowercased())
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let other = Array(candidate.lowercased())
            let distance = editDistance(target, other)
            let shorter = min(target.count, other.count)
            // Short words are only "close" if most of them survives; otherwise "x" would suggest "t".
            guard distance < max(shorter, 1) || distance == 0, distance <= max(1, shorter / 3) else {
                continue
            }
            if best == nil || distance < best!.distance { best = (candidate, distance) }
        }
        return best?.candidate
    }

    /// Appends "; did you mean 'x'?" to a message when there is a close candidate.
    static func hint(for word: String, among candidates: [String]) -> String {
        guard let match = closest(to: word, among: candidates) else { return "" }
        return "; did you mean '\(match)'?"
    }

    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previousPrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var row = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            row[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, previousPrevious[j - 2] + 1)
                }
                row[j] = value
            }
            (previousPrevious, previous, row) = (previous, row, previousPrevious)
        }
        return previous[b.count]
    }
}
