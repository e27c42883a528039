/// Exact coverage where summed windings are not: summing the signed area of every edge in a
/// pixel and then applying the fill rule is exact only while the pixel holds two consecutive
/// windings (one chain of edges crossing it). Where contours cross or overlap inside a pixel,
/// or a ring thinner than a pixel puts both its sides in one, three windings meet and the
/// sum is wrong: +0.3 of the pixel at a star's crossing, a 0.6 px even-odd ring drawn solid.
///
/// Those pixels (found while accumulating, see `CoverageEdges.mark`) are computed again from
/// the row's pieces: the row is cut into slabs at every end and crossing of the pieces that
/// meet them, so inside a slab no two pieces cross; there each piece, left to right, moves the
/// winding by its direction, and it sweeps, in place of that direction, the step the fill rule
/// makes (+1, 0 or −1). Summed along the row, that is the area the rule fills: exact.
extension CoverageEdges {
    /// One edge within one row, in the row's cell units.
    struct Piece {
        var ya: Float, yb: Float, xa: Float, xb: Float, direction: Float
        /// The pixels it may touch, widened by a hair so the two ends of a shared vertex,
        /// rounded apart, still fall in one cluster.
        var lo: Int, hi: Int

        @inline(__always) func x(at y: Float) -> Float {
            yb > ya ? xa + (y - ya) * ((xb - xa) / (yb - ya)) : xa
        }
    }

    /// Most pieces one cluster may have before it keeps the summed coverage: crossings are
    /// found pair by pair, and a hostile path could put thousands in one pixel.
    static let exactPieceLimit = 256

    /// Reused lists, so a row computed exactly allocates nothing after the first.
    struct ExactScratch {
        var pieces: [Piece] = []
        var breaks: [Float] = []
        var slab: [(x: Float, top: Float, bottom: Float, direction: Float)] = []
    }

    /// Exact coverage of frame row `y` over every cluster of pieces (pixels chained by pieces
    /// sharing them) that meets `flagged` (pixels, relative to `columns.lowerBound`), written to
    /// `coverage[p]`; other pixels are left as they are. `area` is zeroed cells, at least
    /// `columns.count + 2`, zeroed again on return. Returns the pixels written (and any between).
    func exactRow(
        _ y: Int, flagged: ClosedRange<Int>, fillRule: FillRule, edgeEnd: Int,
        area: UnsafeMutablePointer<Float>, coverage: UnsafeMutablePointer<Float>, scratch: inout ExactScratch
    ) -> Range<Int> {
        let fy = Float(y)
        let left = Float(columns.lowerBound), right = Float(columns.count)
        scratch.pieces.removeAll(keepingCapacity: true)
        edges.withUnsafeBufferPointer { all in
            for index in 0..<min(edgeEnd, all.count) {
                let e = all[index]
                guard e.y1 > fy, e.y0 < fy + 1 else { continue }
                // The same arithmetic as `accumulate`, so both see the same pieces.
                let ya = max(fy, e.y0), yb = min(fy + 1, e.y1)
                guard yb - ya > 0 else { continue }
                let xa = min(max(e.x0 + (ya - e.y0) * e.slope - left, 0), right)
                let xb = min(max(e.x0 + (yb - e.y0) * e.slope - left, 0), right)
                let lo = max(0, Int((min(xa, xb) - 1e-3).rounded(.down)))
                let hi = max(lo, Int((max(xa, xb) + 1e-3).rounded(.up)) - 1)
                scratch.pieces.append(
                    Piece(ya: ya, yb: yb, xa: xa, xb: xb, direction: e.direction, lo: lo, hi: hi))
            }
        }
        scratch.pieces.sort { $0.lo < $1.lo }
        var written: Range<Int>?
        var first = 0
        let count = scratch.pieces.count
        while first < count {
            var end = first
            var hi = scratch.pieces[first].hi
            while end < count && scratch.pieces[end].lo <= hi {
                hi = max(hi, scratch.pieces[end].hi)
                end += 1
            }
            let lo = scratch.pieces[first].lo
            if lo <= flagged.upperBound, hi >= flagged.lowerBound, end - first <= Self.exactPieceLimit {
                exactCluster(
                    first..<end, pixels: lo...hi, fillRule: fillRule, area: area, coverage: coverage,
                    scratch: &scratch)
                // Clusters come left to right.
                written = (written?.lowerBound ?? lo)..<(hi + 1)
            }
            first = end
        }
        return written ?? 0..<0
    }

    /// The fill rule's coverage for a whole winding.
    @inline(__always)
    static func filled(_ winding: Float, _ rule: FillRule) -> Float {
        switch rule {
        case .nonZero: return winding != 0 ? 1 : 0
        case .evenOdd: return abs(winding.truncatingRemainder(dividingBy: 2)) == 1 ? 1 : 0
        }
    }

    /// The cluster of pieces `range`; the pieces before it lie wholly left of its pixels, and
    /// give the winding it starts from, which changes down the row where one ends inside it
    /// (at a vertex joined by a horizontal side).
    private func exactCluster(
        _ range: Range<Int>, pixels: ClosedRange<Int>, fillRule: FillRule,
        area: UnsafeMutablePointer<Float>, coverage: UnsafeMutablePointer<Float>, scratch: inout ExactScratch
    ) {
        scratch.breaks.removeAll(keepingCapacity: true)
        scratch.pieces.withUnsafeBufferPointer { all in
            scratch.breaks.append(all[range.lowerBound].ya.rounded(.down))
            scratch.breaks.append(all[range.lowerBound].ya.rounded(.down) + 1)
            for i in 0..<range.upperBound {
                scratch.breaks.append(all[i].ya)
                scratch.breaks.append(all[i].yb)
            }
            // Where two pieces cross, the order along the row changes.
            for i in range {
                let a = all[i]
                for j in (i + 1)..<range.upperBound {
                    let b = all[j]
                    let top = max(a.ya, b.ya), bottom = min(a.yb, b.yb)
                    guard bottom > top else { continue }
                    let d0 = a.x(at: top) - b.x(at: top), d1 = a.x(at: bottom) - b.x(at: bottom)
                    guard (d0 < 0 && d1 > 0) || (d0 > 0 && d1 < 0) else { continue }
                    scratch.breaks.append(top + (bottom - top) * (d0 / (d0 - d1)))
                }
            }
        }
        scratch.breaks.sort()
        var base: Float = 0
        var previous = scratch.breaks[0]
        for next in scratch.breaks.dropFirst() where next > previous {
            let top = previous, bottom = next
            previous = next
            var windingLeft: Float = 0
            for i in 0..<range.lowerBound {
                let p = scratch.pieces[i]
                if p.ya <= top, p.yb >= bottom { windingLeft += p.direction }
            }
            base += (bottom - top) * Self.filled(windingLeft, fillRule)
            scratch.slab.removeAll(keepingCapacity: true)
            for i in range {
                let p = scratch.pieces[i]
                guard p.ya <= top, p.yb >= bottom else { continue }
                let xt = p.x(at: top), xb = p.x(at: bottom)
                scratch.slab.append((x: xt + xb, top: xt, bottom: xb, direction: p.direction))
            }
            scratch.slab.sort { $0.x < $1.x }
            var winding = windingLeft
            var filled = Self.filled(winding, fillRule)
            for s in scratch.slab {
                winding += s.direction
                let now = Self.filled(winding, fillRule)
                if now != filled {
                    Self.cell(row: area, from: s.top, to: s.bottom, area: (bottom - top) * (now - filled))
                    filled = now
                }
            }
        }
        var sum = base
        for p in pixels {
            sum += area[p]
            area[p] = 0
            coverage[p] = min(max(sum, 0), 1)
        }
        area[pixels.upperBound + 1] = 0
    }
}
