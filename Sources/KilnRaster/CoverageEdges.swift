/// A path's outline as line edges in frame pixels, clipped to the frame and sorted by their top,
/// with the exact-area coverage accumulation that font rasterizers use: each edge adds, to the
/// cells of the rows it crosses, the signed area it sweeps towards the right, so a running sum
/// along a row is the winding-weighted coverage of every pixel (the approximation FreeType's gray
/// rasterizer makes: exact area for one edge, summed where edges share a pixel).
///
/// Each row is computed from the edges alone, never from the row above, so a row's result does
/// not depend on which band it falls in: one band and any split agree bit for bit.
struct CoverageEdges: Sendable {
    struct Edge: Sendable {
        // y0 < y1; x at y0 and the slope dx/dy; +1 downwards, −1 upwards.
        var y0: Float, y1: Float, x0: Float, slope: Float, direction: Float
        /// Which polygon and which of its sides: pieces of neighbouring sides sharing a pixel
        /// are one chain, which cannot make three windings there; any other pair may.
        var contour: Int32 = 0, side: Int32 = 0
    }

    private(set) var edges: [Edge] = []
    /// Horizontal sides strictly inside a row, sorted by y: they sweep no area, but one joins
    /// the chains at its ends across the pixels it passes, so a pixel it shares with another
    /// chain may hold three windings (a star's crossbar under its diagonal).
    private(set) var horizontals: [Horizontal] = []

    /// Whether `accumulate` looks for pixels that chains share (see `ExactRows`). A stroke's
    /// outline is hundreds of overlapping pieces, so nearly every pixel of its edge would be
    /// computed again; it keeps the summed coverage.
    private(set) var findsCrossings = true

    mutating func ignoreCrossings() {
        findsCrossings = false
        horizontals = []
    }

    struct Horizontal: Sendable {
        var y: Float, x0: Float, x1: Float
        var contour: Int32, side: Int32
    }
    /// Frame bounds of the edges (pixels), clamped to the frame.
    private(set) var rows: Range<Int> = 0..<0
    private(set) var columns: Range<Int> = 0..<0
    let frameWidth: Int, frameHeight: Int
    private var minX = Double.infinity, maxX = -Double.infinity
    private var minY = Double.infinity, maxY = -Double.infinity
    private var contourCount: Int32 = 0
    private var side: Int32 = 0

    init(frameWidth: Int, frameHeight: Int) {
        self.frameWidth = max(frameWidth, 0)
        self.frameHeight = max(frameHeight, 0)
    }

    /// A closed polygon (the last point joins the first).
    mutating func addPolygon(_ points: [SIMD2<Double>]) {
        guard points.count > 1 else { return }
        var previous = points[points.count - 1]
        // Wraps for hostile counts: a false match only costs the exact pass, never a wrong sum.
        contourCount &+= 1
        side = 0
        for p in points {
            addLine(previous, p)
            side &+= 1
            previous = p
        }
    }

    /// Adds the part of p0→p1 inside the frame's rows; parts left or right of the frame are
    /// pressed onto its sides, which leaves every pixel's coverage inside as it was.
    mutating func addLine(_ p0: SIMD2<Double>, _ p1: SIMD2<Double>) {
        guard p0.x.isFinite, p0.y.isFinite, p1.x.isFinite, p1.y.isFinite else { return }
        let h = Double(frameHeight), w = Double(frameWidth)
        guard p0.y != p1.y else {
            if p0.y > 0, p0.y < h, p0.y != p0.y.rounded(.down) {
                let x0 = Float(min(max(min(p0.x, p1.x), 0), w)), x1 = Float(min(max(max(p0.x, p1.x), 0), w))
                horizontals.append(
                    Horizontal(y: Float(p0.y), x0: x0, x1: x1, contour: contourCount, side: side))
            }
            return
        }
        let (top, bottom, direction): (SIMD2<Double>, SIMD2<Double>, Float) =
            p0.y < p1.y ? (p0, p1, 1) : (p1, p0, -1)
        guard bottom.y > 0, top.y < h else { return }
        let dxdy = (bottom.x - top.x) / (bottom.y - top.y)
        // Clip to the rows.
        let ya = max(top.y, 0), yb = min(bottom.y, h)
        guard ya < yb else { return }
        let xa = top.x + (ya - top.y) * dxdy, xb = top.x + (yb - top.y) * dxdy
        // Split where the line crosses the frame's sides.
        var cuts: [Double] = [ya]
        for side in [0, w] where (xa - side) * (xb - side) < 0 {
            cuts.append(ya + (side - xa) / (xb - xa) * (yb - ya))
        }
        cuts.append(yb)
        if cuts.count == 4 && cuts[1] > cuts[2] { cuts.swapAt(1, 2) }
        for i in 0..<(cuts.count - 1) {
            let y0 = cuts[i], y1 = cuts[i + 1]
            guard y0 < y1 else { continue }
            let mid = xa + ((y0 + y1) / 2 - ya) * dxdy
            var x0 = xa + (y0 - ya) * dxdy
            var slope = dxdy
            if mid < 0 || mid > w {
                // Wholly beside the frame: a vertical edge on its side.
                x0 = mid < 0 ? 0 : w
                slope = 0
            }
            let x1 = x0 + (y1 - y0) * slope
            x0 = min(max(x0, 0), w)
            let edge = Edge(
                y0: Float(y0), y1: Float(y1), x0: Float(x0), slope: Float(slope), direction: direction,
                contour: contourCount, side: side)
            guard edge.y0 < edge.y1 else { continue }
            edges.append(edge)
            minX = min(minX, x0, min(max(x1, 0), w))
            maxX = max(maxX, x0, min(max(x1, 0), w))
            minY = min(minY, y0)
            maxY = max(maxY, y1)
        }
    }

    /// Sorts the edges by their top and fixes the bounds; false when nothing lands on the frame.
    mutating func finish() -> Bool {
        guard !edges.isEmpty else { return false }
        edges.sort { $0.y0 < $1.y0 }
        horizontals.sort { $0.y < $1.y }
        let x0 = max(0, Int(minX.rounded(.down))), x1 = min(frameWidth, Int(maxX.rounded(.up)))
        let y0 = max(0, Int(minY.rounded(.down))), y1 = min(frameHeight, Int(maxY.rounded(.up)))
        guard x0 < x1, y0 < y1 else { return false }
        rows = y0..<y1
        columns = x0..<x1
        return true
    }

    /// Index past the last edge whose top is above `y`.
    func endOfEdges(above y: Float) -> Int {
        var lo = 0, hi = edges.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if edges[mid].y0 < y { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// Adds the edges' area and cover to the cells of frame rows `firstRow..<firstRow+count`:
    /// row r's cells start at `cells + (r − firstRow) · stride`, cell i is column
    /// `columns.lowerBound + i`, and a row needs `columns.count + 2` cells.
    ///
    /// It also finds the pixels where summing windings may be wrong: `marks` (laid out as the
    /// cells, with no row of the call yet in them) records which chain last crossed a pixel,
    /// and `ambiguous[r]` widens to every pixel that two chains cross (see `ExactRows`).
    func accumulate(
        into cells: UnsafeMutablePointer<Float>, stride: Int, firstRow: Int, count: Int,
        marks: UnsafeMutablePointer<PixelMark>, ambiguous: UnsafeMutablePointer<SIMD2<Int32>>
    ) {
        let bandTop = Float(firstRow), bandBottom = Float(firstRow + count)
        let left = Float(columns.lowerBound)
        // Float rounding may put an end a hair outside the columns; the cells stop there.
        let right = Float(columns.count)
        let end = endOfEdges(above: bandBottom)
        let marking = findsCrossings
        if marking, !horizontals.isEmpty {
            var lo = 0, hi = horizontals.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if horizontals[mid].y < bandTop { lo = mid + 1 } else { hi = mid }
            }
            for h in horizontals[lo...] {
                guard h.y < bandBottom else { break }
                let y = Int(h.y)
                Self.mark(
                    marks + (y - firstRow) &* stride, row: Int32(truncatingIfNeeded: y),
                    from: min(max(h.x0 - left, 0), right), to: min(max(h.x1 - left, 0), right),
                    contour: h.contour, side: h.side, ambiguous: ambiguous + (y - firstRow))
            }
        }
        edges.withUnsafeBufferPointer { all in
            for index in 0..<end {
                let e = all[index]
                guard e.y1 > bandTop else { continue }
                let rowStart = max(Int(e.y0), firstRow),
                    rowEnd = min(Int(e.y1.rounded(.up)), firstRow + count)
                guard rowStart < rowEnd else { continue }
                for y in rowStart..<rowEnd {
                    let fy = Float(y)
                    let ya = max(fy, e.y0), yb = min(fy + 1, e.y1)
                    let dy = yb - ya
                    guard dy > 0 else { continue }
                    // Computed from the edge's top, not carried from the row above (see the type).
                    let xa = min(max(e.x0 + (ya - e.y0) * e.slope - left, 0), right)
                    let xb = min(max(e.x0 + (yb - e.y0) * e.slope - left, 0), right)
                    let r = (y - firstRow) &* stride
                    Self.cell(row: cells + r, from: xa, to: xb, area: dy * e.direction)
                    guard marking else { continue }
                    Self.mark(
                        marks + r, row: Int32(truncatingIfNeeded: y), from: xa, to: xb, contour: e.contour,
                        side: e.side, ambiguous: ambiguous + (y - firstRow))
                }
            }
        }
    }

    /// Which chain last crossed a pixel of a row.
    struct PixelMark: Sendable {
        var row: Int32 = -1, contour: Int32 = 0, side: Int32 = 0
    }

    /// Notes the pixels a piece crosses; a pixel another chain crossed before widens the row's
    /// ambiguous range.
    @inline(__always)
    static func mark(
        _ marks: UnsafeMutablePointer<PixelMark>, row: Int32, from xa: Float, to xb: Float, contour: Int32,
        side: Int32, ambiguous: UnsafeMutablePointer<SIMD2<Int32>>
    ) {
        let lo = Int(min(xa, xb))
        let hi = max(lo, Int(max(xa, xb).rounded(.up)) - 1)
        for p in lo...hi {
            let m = marks[p]
            if m.row != row {
                marks[p] = PixelMark(row: row, contour: contour, side: side)
            } else if m.contour == contour, case let d = m.side &- side, d >= -1, d <= 1 {
                marks[p].side = side
            } else {
                let p32 = Int32(truncatingIfNeeded: p)
                ambiguous.pointee = SIMD2(min(ambiguous.pointee.x, p32), max(ambiguous.pointee.y, p32))
            }
        }
    }

    /// One edge piece within one row, from x `xa` to `xb` (cell units), sweeping `d` (signed
    /// height): each cell gets the share of the piece's height lying right of its left side,
    /// minus what the next cells already account for.
    @inline(__always)
    static func cell(row: UnsafeMutablePointer<Float>, from xa: Float, to xb: Float, area d: Float) {
        let (x0, x1) = xa < xb ? (xa, xb) : (xb, xa)
        let x0floor = x0.rounded(.down)
        let x0i = Int(x0floor)
        let x1ceil = x1.rounded(.up)
        let x1i = Int(x1ceil)
        if x1i <= x0i + 1 {
            // Within one cell: the trapezoid's area right of the piece.
            let xmf = 0.5 * (xa + xb) - x0floor
            row[x0i] += d - d * xmf
            row[x0i + 1] += d * xmf
            return
        }
        let s = 1 / (x1 - x0)
        let x0f = x0 - x0floor
        let a0 = 0.5 * s * (1 - x0f) * (1 - x0f)
        let x1f = x1 - x1ceil + 1
        let am = 0.5 * s * x1f * x1f
        row[x0i] += d * a0
        if x1i == x0i + 2 {
            row[x0i + 1] += d * (1 - a0 - am)
        } else {
            let a1 = s * (1.5 - x0f)
            row[x0i + 1] += d * (a1 - a0)
            var xi = x0i + 2
            while xi < x1i - 1 {
                row[xi] += d * s
                xi += 1
            }
            let a2 = a1 + Float(x1i - x0i - 3) * s
            row[x1i - 1] += d * (1 - a2 - am)
        }
        row[x1i] += d * am
    }
}
