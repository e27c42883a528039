/// The frame pixels a prepared layer can touch; nil (in `PreparedLayer.extent`) means anywhere.
public struct PixelExtent: Sendable, Equatable {
    public var rows: Range<Int>
    public var columns: Range<Int>

    public init(rows: Range<Int>, columns: Range<Int>) {
        self.rows = rows
        self.columns = columns
    }

    public static let empty = PixelExtent(rows: 0..<0, columns: 0..<0)

    public var isEmpty: Bool { rows.isEmpty || columns.isEmpty }

    public func union(_ other: PixelExtent) -> PixelExtent {
        if isEmpty { return other }
        if other.isEmpty { return self }
        return PixelExtent(
            rows: min(rows.lowerBound, other.rows.lowerBound)..<max(rows.upperBound, other.rows.upperBound),
            columns: min(
                columns.lowerBound, other.columns.lowerBound)..<max(
                    columns.upperBound, other.columns.upperBound))
    }

    public func intersection(_ other: PixelExtent) -> PixelExtent {
        let r = rows.clamped(to: other.rows), c = columns.clamped(to: other.columns)
        return r.isEmpty || c.isEmpty ? .empty : PixelExtent(rows: r, columns: c)
    }

    func grown(by amount: Int, within canvas: Canvas) -> PixelExtent {
        guard !isEmpty else { return self }
        return PixelExtent(
            rows: max(0, rows.lowerBound - amount)..<min(canvas.height, rows.upperBound + amount),
            columns: max(0, columns.lowerBound - amount)..<min(canvas.width, columns.upperBound + amount))
    }

    static func whole(_ canvas: Canvas) -> PixelExtent {
        PixelExtent(rows: 0..<canvas.height, columns: 0..<canvas.width)
    }
}
