/// Sample points every `factor` frame pixels over a region, for a picture smooth enough to be
/// computed there and enlarged bilinearly: a large blur, moved by a smooth mapping (see
/// `PixelPipeline.paint(grid:…)`). Evaluating at 1/16 of the pixels (factor 4) and enlarging
/// with fixed weights and no gathers costs far less than a warp's bilinear taps at every pixel.
///
/// Sample (column j, row i) sits at frame position (x₀ + factor·j − factor/2, y₀ + factor·i −
/// factor/2): the centre of the region's factor × factor block (j − 1, i − 1), so one sample more
/// on each side brackets every pixel. x₀ is the region's first column rounded down to a multiple
/// of 8, so every 8-pixel chunk of a band sees the same pattern of weights.
///
/// The samples are kept in an image whose row i holds sample row i, and the cells' centres in
/// another whose row i holds the centres of cell row i (cell (j, i) lies between samples
/// j…j + 1 and i…i + 1; its centre is at (x₀ + factor·j, y₀ + factor·i)). A centre that differs
/// from the mean of its cell's corners shows the picture bending more within the cell than
/// bilinear interpolation follows (`markChunks`), and those pixels are evaluated one by one
/// instead. Centres are evaluated only where the samples themselves, read as cells twice the
/// size (`coarseMisses`), do not already show the picture planar.
public struct ReducedGrid: Sendable, Equatable {
    /// Frame pixels per sample along each axis: 2 or 4.
    public let factor: Int
    /// The frame column and row the samples start from (x₀, y₀ above).
    public let originX: Int
    public let originY: Int
    /// Samples per row and per column.
    public let columns: Int
    public let rows: Int

    /// A grid covering frame `rows` × `columns`.
    public init(factor: Int, rows: Range<Int>, columns: Range<Int>) {
        precondition(factor == 2 || factor == 4, "grid factor must be 2 or 4")
        precondition(!rows.isEmpty && !columns.isEmpty && columns.lowerBound >= 0, "empty grid region")
        self.factor = factor
        originX = columns.lowerBound & ~7
        originY = rows.lowerBound
        // Whole chunks of 8 columns (a multiple of the factor) plus a sample on each side.
        self.columns = (((columns.upperBound + 7) & ~7) - originX) / factor + 2
        self.rows = (rows.count + factor - 1) / factor + 2
    }

    /// The coarsest factor for a picture blurred with σ = `blurRadius`; nil when only full
    /// resolution will do. Samples at most 0.4 σ apart miss a blurred step edge — the steepest
    /// curvature a blur leaves, 0.242 / σ² — by at most h² / 8 · 0.242 / σ² ≤ 0.0048, about 1.2 of
    /// 255. A mapping after the blur can squeeze the picture (the seed's domain warp by up to
    /// ≈ 33×) and bend between samples, which no bound here covers: the grid is then checked
    /// cell by cell (`markChunks`, `PixelPipeline.refine`).
    public static func factor(blurRadius: Double) -> Int? {
        guard blurRadius.isFinite else { return nil }
        let spacing = 0.4 * blurRadius
        return spacing >= 4 ? 4 : spacing >= 2 ? 2 : nil
    }

    /// Frame x of the samples in columns j…j + 7.
    @inline(__always)
    func x(_ j: Int) -> SIMD8<Float> {
        let half = Float(factor / 2)
        return SIMD8<Float>(0, 1, 2, 3, 4, 5, 6, 7) * Float(factor) + (Float(originX + factor * j) - half)
    }

    /// Frame y of the samples in row i.
    @inline(__always)
    func y(_ i: Int) -> Float { Float(originY + factor * i - factor / 2) }

    /// The cell row whose samples frame row `y` interpolates, and the weight of its lower row.
    @inline(__always)
    func cellRow(_ y: Int) -> (row: Int, weight: Float) {
        let t = 2 * (y - originY) + 1 + factor
        return (t / (2 * factor), Float(t % (2 * factor)) / Float(2 * factor))
    }

    /// Writes frame rows `rows` of the enlarged picture into `band` (band row 0 = `firstRow`)
    /// over `columns` (within the grid's region), from the samples image: whole chunks of 8,
    /// lanes outside `columns` transparent. `scratch` (two rows of a
    /// band at least as wide) holds two sample rows enlarged horizontally; each of those serves
    /// `factor` output rows, which interpolate them vertically.
    ///
    /// Pixel x takes t = (x − x₀ + factor/2 + ½) / factor: samples ⌊t⌋ and ⌊t⌋ + 1, weighted
    /// by t's fraction (the same for y). The weights are eighths and quarters: exact in Float.
    public func enlarge(
        _ samples: PlanarBand, into band: PlanarBand, firstRow: Int, rows: Range<Int>, columns: Range<Int>,
        scratch: PlanarBand
    ) {
        precondition(
            scratch.capacityRows >= 2 && scratch.stride >= band.stride, "enlargement scratch too small")
        let span = band.chunkSpan(columns)
        guard !span.isEmpty, !rows.isEmpty else { return }
        precondition(span.lowerBound >= originX && (span.upperBound - originX) / factor + 2 <= self.columns)
        var held = (-1, -1)  // the sample rows in scratch rows 0 and 1
        // Whether each scratch row's samples are all opaque: then its alpha is not enlarged and
        // reads as ones (between two such rows every pixel's alpha is 1, what the lerp gives).
        var opaque = (false, false)
        for y in rows {
            let (i, fraction) = cellRow(y)
            let weight = SIMD8<Float>(repeating: fraction)
            // Sample row n lives in scratch row n & 1; rows only move down, so two suffice.
            for needed in i...(i + 1) where (needed & 1 == 0 ? held.0 : held.1) != needed {
                precondition(needed < self.rows, "row outside the grid")
                let solid = enlargeRow(samples, row: needed, into: scratch, slot: needed & 1, span: span)
                if needed & 1 == 0 {
                    (held.0, opaque.0) = (needed, solid)
                } else {
                    (held.1, opaque.1) = (needed, solid)
                }
            }
            let upper = (i & 1) &* scratch.stride, lower = ((i &+ 1) & 1) &* scratch.stride
            let out = (y &- firstRow) &* band.stride
            // An opaque row's alpha is not in scratch: it reads as ones.
            let (upperOpaque, lowerOpaque) = i & 1 == 0 ? opaque : (opaque.1, opaque.0)
            let ones = SIMD8<Float>(repeating: 1)
            var x = span.lowerBound
            // Eight columns, the lanes outside `columns` transparent: the edges' step.
            @inline(__always) func enlargeChunk(at column: Int) {
                var alpha = ones
                if !(upperOpaque && lowerOpaque) {
                    let top = upperOpaque ? ones : load(scratch.a + (upper &+ column))
                    let bottom = lowerOpaque ? ones : load(scratch.a + (lower &+ column))
                    alpha = top + (bottom - top) * weight
                }
                band.storeMasked(
                    lerp(scratch.r, upper, lower, column, weight),
                    lerp(scratch.g, upper, lower, column, weight),
                    lerp(scratch.b, upper, lower, column, weight), alpha, x: column, offset: out,
                    columns: columns)
            }
            // Sixteen columns a step where all lie inside `columns` (the same lerp per lane),
            // eight at the edges.
            let wide = SIMD16<Float>(repeating: fraction)
            @inline(__always) func lerp16(_ plane: UnsafeMutablePointer<Float>) -> SIMD16<Float> {
                let top = load16(plane + (upper &+ x)), bottom = load16(plane + (lower &+ x))
                return top + (bottom - top) * wide
            }
            while x < columns.lowerBound && x < span.upperBound {
                enlargeChunk(at: x)
                x &+= 8
            }
            while x &+ 16 <= min(span.upperBound, columns.upperBound) {
                let p = out &+ x
                store16(lerp16(scratch.r), band.r + p)
                store16(lerp16(scratch.g), band.g + p)
                store16(lerp16(scratch.b), band.b + p)
                var alpha = SIMD16<Float>(repeating: 1)
                if !(upperOpaque && lowerOpaque) {
                    let top = upperOpaque ? SIMD16(repeating: 1) : load16(scratch.a + (upper &+ x))
                    let bottom = lowerOpaque ? SIMD16(repeating: 1) : load16(scratch.a + (lower &+ x))
                    alpha = top + (bottom - top) * wide
                }
                store16(alpha, band.a + p)
                x &+= 16
            }
            while x < span.upperBound {
                enlargeChunk(at: x)
                x &+= 8
            }
        }
    }

    @inline(__always)
    private func lerp(
        _ plane: UnsafeMutablePointer<Float>, _ upper: Int, _ lower: Int, _ x: Int, _ weight: SIMD8<Float>
    ) -> SIMD8<Float> {
        let top = load(plane + (upper &+ x)), bottom = load(plane + (lower &+ x))
        return top + (bottom - top) * weight
    }

    /// Sample row `row` enlarged horizontally into scratch row `slot`, at frame columns `span`;
    /// true when every sample it reads is opaque, and then its alpha is left out.
    private func enlargeRow(
        _ samples: PlanarBand, row: Int, into scratch: PlanarBand, slot: Int, span: Range<Int>
    ) -> Bool {
        let source = row &* samples.stride, target = slot &* scratch.stride
        // The samples the chunks of `span` read: from the first chunk's first to the last's last.
        let first = (span.lowerBound &- originX) / factor
        let last = (span.upperBound &- 8 &- originX) / factor &+ (factor == 4 ? 3 : 5)
        let alpha = samples.a + source
        var solid = true
        var j = first
        while solid && j &+ 8 <= last &+ 1 {
            solid = load(alpha + j) == SIMD8(repeating: 1)
            j &+= 8
        }
        while solid && j <= last {
            solid = alpha[j] == 1
            j &+= 1
        }
        for plane in 0..<(solid ? 3 : 4) {
            let s = samples.plane(plane) + source, out = scratch.plane(plane) + target
            var x = span.lowerBound
            // Lane l of the chunk at x (x − x₀ a multiple of 8) takes samples j + J(l) and
            // j + J(l) + 1, j = (x − x₀) / factor, with the weights below.
            if factor == 4 {
                let weights = SIMD8<Float>(5, 7, 1, 3, 5, 7, 1, 3) * 0.125
                while x < span.upperBound {
                    let p = s + (x &- originX) / 4
                    let (s0, s1, s2, s3) = (p[0], p[1], p[2], p[3])
                    let left = SIMD8(s0, s0, s1, s1, s1, s1, s2, s2)
                    let right = SIMD8(s1, s1, s2, s2, s2, s2, s3, s3)
                    store(left + (right - left) * weights, out + x)
                    x &+= 8
                }
            } else {
                let weights = SIMD8<Float>(3, 1, 3, 1, 3, 1, 3, 1) * 0.25
                while x < span.upperBound {
                    let p = s + (x &- originX) / 2
                    let (s0, s1, s2, s3, s4, s5) = (p[0], p[1], p[2], p[3], p[4], p[5])
                    let left = SIMD8(s0, s1, s1, s2, s2, s3, s3, s4)
                    let right = SIMD8(s1, s2, s2, s3, s3, s4, s4, s5)
                    store(left + (right - left) * weights, out + x)
                    x &+= 8
                }
            }
        }
        return solid
    }

    /// Cell rows: cell row i lies between sample rows i and i + 1.
    public var cellRows: Int { rows - 1 }
    /// Cells per cell row: cell j lies between sample columns j and j + 1.
    public var cellColumns: Int { columns - 1 }
    /// 8-pixel chunks from x₀ over the region: chunk k starts at frame column x₀ + 8k.
    public var chunks: Int { (columns - 2) * factor / 8 }

    /// How far each cell of cell row `i` has its centre (`centres` row i) from the mean of its
    /// corners, the largest over the channels: `misses[j]` for cell j < `cellColumns`, written in whole
    /// groups of 8 (up to 7 values more; a band row has room for them).
    public func misses(
        _ samples: PlanarBand, centres: PlanarBand, cellRow i: Int, into misses: UnsafeMutablePointer<Float>
    ) {
        let top = i &* samples.stride, bottom = top &+ samples.stride, centre = i &* centres.stride
        var j = 0
        while j < cellColumns {
            var miss = SIMD8<Float>()
            for plane in 0..<4 {
                let p = samples.plane(plane)
                let corners =
                    (load(p + (top &+ j)) + load(p + (top &+ j &+ 1)))
                    + (load(p + (bottom &+ j)) + load(p + (bottom &+ j &+ 1)))
                let d = load(centres.plane(plane) + (centre &+ j)) - corners * 0.25
                let size = d.replacing(with: -d, where: d .< 0)
                miss = miss.replacing(with: size, where: size .> miss)
            }
            store(miss, misses + j)
            j &+= 8
        }
    }

    /// Cells of twice the size (a 2 × 2 block of cells, "coarse cells") per row and per column:
    /// coarse cell (a, b) has samples 2a…2a + 2 and rows 2b…2b + 2.
    public var coarseColumns: Int { (columns - 1) / 2 }
    public var coarseRows: Int { (rows - 1) / 2 }

    /// How far each coarse cell of coarse row `b` is from bilinear between its four corner
    /// samples: the largest distance, over the channels, of its centre sample and its four edge
    /// midpoint samples from what the corners predict there. `misses[a]` for a < `coarseColumns`,
    /// written in whole groups of 8. The samples alone show it, with no evaluation: where a
    /// coarse cell follows a plane to within a code value at five points, its four cells (half
    /// as wide) do too, and their centres need not be evaluated (`PixelPipeline.paint(centres:…)`).
    public func coarseMisses(
        _ samples: PlanarBand, coarseRow b: Int, into misses: UnsafeMutablePointer<Float>
    ) {
        precondition(samples.stride >= 2 * ((coarseColumns + 7) & ~7) + 18, "samples image too narrow")
        let top = (2 &* b) &* samples.stride, middle = top &+ samples.stride,
            bottom = middle &+ samples.stride
        var a = 0
        while a < coarseColumns {
            var miss = SIMD8<Float>()
            for plane in 0..<4 {
                let p = samples.plane(plane) + 2 &* a
                // Samples 2a + 2l (even), 2a + 2l + 1 (odd) and 2a + 2l + 2 (next) of a row.
                @inline(__always) func row(_ offset: Int) -> (SIMD8<Float>, SIMD8<Float>, SIMD8<Float>) {
                    let here = UnsafeRawPointer(p + offset).loadUnaligned(as: SIMD16<Float>.self)
                    let next = UnsafeRawPointer(p + (offset &+ 2)).loadUnaligned(as: SIMD16<Float>.self)
                    return (here.evenHalf, here.oddHalf, next.evenHalf)
                }
                let (t0, t1, t2) = row(top), (m0, m1, m2) = row(middle), (b0, b1, b2) = row(bottom)
                @inline(__always) func widen(_ d: SIMD8<Float>) {
                    let size = d.replacing(with: -d, where: d .< 0)
                    miss = miss.replacing(with: size, where: size .> miss)
                }
                widen(m1 - ((t0 + t2) + (b0 + b2)) * 0.25)
                widen(t1 - (t0 + t2) * 0.5)
                widen(b1 - (b0 + b2) * 0.5)
                widen(m0 - (t0 + b0) * 0.5)
                widen(m2 - (t2 + b2) * 0.5)
            }
            store(miss, misses + a)
            a &+= 8
        }
    }

    /// Marks the chunks whose pixels in cell row `i` bilinear interpolation may miss:
    /// `chunks[k]` (k < `chunks`) becomes 1 when a cell they interpolate has a centre more than
    /// `tolerance` (in any channel) away from the mean of its corners, or the cell above or below
    /// one more than twice `tolerance`; else 0. `misses(row)` gives cell row `row`'s `misses`.
    /// The cells above and below count because the check sees one point per cell: bending that
    /// leaves a centre where its corners' mean is (a saddle) rarely does so in the next cell as
    /// well. Only their larger misses count: a cell that bends hard shows it in its neighbours;
    /// counting every neighbour's miss re-evaluated 28 % more chunks of the podcast's cover for
    /// the same largest difference over 23 frames of it and the seed's warp (3; within one code
    /// value 99.989 % against 99.996 %). Sideways a chunk already spans three cells (factor 4) or
    /// five (factor 2); measured on the seed's warp, also counting the cells beside them
    /// re-evaluates 13.5 % of the chunks instead of 11.5 % for the same largest difference (2).
    /// `cells` is scratch for `cellColumns` + 8 values.
    public func markChunks(
        cellRow i: Int, misses: (Int) -> UnsafeMutablePointer<Float>, tolerance: Float,
        cells: UnsafeMutablePointer<Float>, chunks marks: UnsafeMutablePointer<Float>
    ) {
        let lastCell = columns - 2
        // The largest miss per cell column over cell rows i − 1…i + 1, those above and below at half.
        cells.update(repeating: 0, count: lastCell + 8)
        for row in max(0, i - 1)...min(rows - 2, i + 1) {
            let miss = misses(row)
            let weight: Float = row == i ? 1 : 0.5
            var j = 0
            while j <= lastCell {
                let m = load(miss + j) * weight, before = load(cells + j)
                store(before.replacing(with: m, where: m .> before), cells + j)
                j &+= 8
            }
        }
        // Chunk k (at x = x₀ + 8k) interpolates cells 8k/factor + 0…2 (factor 4) or + 0…4 (factor 2).
        let reach = factor == 4 ? 2 : 4
        var first = 0
        if factor == 4 {
            // Eight chunks at a time: cells 2k, 2k + 1 and 2k + 2 as the even and odd lanes of
            // 16 cells from 2k and the even lanes of 16 from 2k + 2 (up to cell 2k + 17, within
            // the zeroed `lastCell` + 8).
            while first &+ 8 <= chunks {
                let here = UnsafeRawPointer(cells + 2 &* first).loadUnaligned(as: SIMD16<Float>.self)
                let next = UnsafeRawPointer(cells + (2 &* first &+ 2)).loadUnaligned(as: SIMD16<Float>.self)
                let (a, b, c) = (here.evenHalf, here.oddHalf, next.evenHalf)
                let ab = a.replacing(with: b, where: b .> a)
                let miss = ab.replacing(with: c, where: c .> ab)
                store(SIMD8<Float>().replacing(with: 1, where: miss .> tolerance), marks + first)
                first &+= 8
            }
        }
        for k in first..<chunks {
            let base = 8 * k / factor
            var miss: Float = 0
            for j in base...min(lastCell, base + reach) { miss = max(miss, cells[j]) }
            marks[k] = miss > tolerance ? 1 : 0
        }
    }
}
