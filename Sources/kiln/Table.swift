/// A listing read on a terminal: a header row and rows of columns, each column as wide as its
/// widest cell, two spaces apart. Trailing spaces are dropped, so an empty last column leaves none.
enum Table {
    static func aligned(_ rows: [[String]]) -> [String] {
        let columns = rows.map(\.count).max() ?? 0
        let widths = (0..<columns).map { column in
            rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0
        }
        return rows.map { row in
            var line = ""
            for (column, cell) in row.enumerated() {
                let gap = column + 1 < row.count ? widths[column] - cell.count + 2 : 0
                line += cell + String(repeating: " ", count: gap)
            }
            while line.last == " " { line.removeLast() }
            return line
        }
    }

    /// `text` at most `limit` characters long, cut in the middle with an ellipsis, so both a
    /// name's start and its distinguishing end stay.
    static func shortened(_ text: String, to limit: Int) -> String {
        guard text.count > limit, limit >= 3 else { return text }
        let head = (limit - 1) / 2, tail = limit - 1 - head
        return String(text.prefix(head)) + "…" + String(text.suffix(tail))
    }
}
