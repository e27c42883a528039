/// "Did you mean" for a mistyped command, option or choice: the closest candidate by edit
/// distance (insertions, deletions, substitutions and swaps of neighbours each count one), when
/// it is close enough to be what was meant; failing that, the candidates the word begins, since a
/// name cut short (`sched`, `--thr`) is as common a slip as a misspelt one. Own to this module so
/// the command line needs no other Kiln module.
public enum NameSuggestion {
    /// More prefix matches than this say nothing about what was meant (`re` begins too much).
    static let mostPrefixMatches = 3

    public static func closest(to word: String, among candidates: [String]) -> String? {
        let typed = Array(word.lowercased())
        let scored = candidates.map { ($0, distance(typed, Array($0.lowercased()))) }
        guard let (best, edits) = scored.min(by: { $0.1 < $1.1 }) else { return nil }
        // A third of the word may be wrong (at least one letter), and never all of the shorter
        // word: "x" suggests nothing, not "t".
        let shorter = min(typed.count, best.count)
        return edits <= max(1, shorter / 3) && edits < shorter ? best : nil
    }

    /// What to suggest for `word`: the closest candidate, then the few it is a prefix of (at least
    /// two letters besides dashes, so `-x` is no prefix of `--xyz`) in the candidates' order:
    /// `--seg` is one letter from `--set` and the start of `--segments`.
    public static func suggestions(for word: String, among candidates: [String]) -> [String] {
        let near = closest(to: word, among: candidates).map { [$0] } ?? []
        let typed = word.lowercased()
        guard typed.drop(while: { $0 == "-" }).count >= 2 else { return near }
        let extended = candidates.filter {
            $0.lowercased().hasPrefix(typed) && $0.count > word.count && !near.contains($0)
        }
        return extended.count + near.count <= mostPrefixMatches ? near + extended : near
    }

    /// "; did you mean '--threads'?", "; did you mean '--segments' or '--segment-seconds'?" or
    /// nothing.
    public static func hint(for word: String, among candidates: [String]) -> String {
        let quoted = suggestions(for: word, among: candidates).map { "'\($0)'" }
        guard let last = quoted.last else { return "" }
        let list = quoted.count == 1 ? last : quoted.dropLast().joined(separator: ", ") + " or " + last
        return "; did you mean \(list)?"
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
