/// "Did you mean" for a mistyped command, option or choice: the closest candidate by edit
/// distance (insertions, deletions, substitutions and swaps of neighbours each count one), when
/// it is close enough to be what was meant. Own to this module so the command line needs no
/// other Kiln module.
public enum NameSuggestion {
    public static func closest(to word: String, among candidates: [String]) -> String? {
        let typed = Array(word.lowercased())
        let scored = candidates.map { ($0, distance(typed, Array($0.lowercased()))) }
        guard let (best, edits) = scored.min(by: { $0.1 < $1.1 }) else { return nil }
        // A third of the word may be wrong (at least one letter), and never all of the shorter
        // word: "x" suggests nothing, not "t".
        let shorter = min(typed.count, best.count)
        return edits <= max(1, shorter / 3) && edits < shorter ? best : nil
    }

    /// "; did you mean '--threads'?" or nothing.
    public static func hint(for word: String, among candidates: [String]) -> String {
        closest(to: word, among: candidates).map { "; did you mean '\($0)'?" } ?? ""
    }

    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        // The full table: words here are a few dozen letters at most.
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in stride(from: 1, through: a.count, by: 1) {
            for j in stride(from: 1, through: b.count, by: 1) {
                let substitution = table[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                var best = min(table[i - 1][j] + 1, table[i][j - 1] + 1, substitution)
                let swapped = i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]
                if swapped { best = min(best, table[i - 2][j - 2] + 1) }
                table[i][j] = best
            }
        }
        return table[a.count][b.count]
    }
}
