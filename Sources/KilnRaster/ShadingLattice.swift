/// A mesh that tiles its frame opaquely (`GouraudMesh.tilesOpaquely`), shaded once at every
/// eighth pixel and interpolated bilinearly in between, in the 8 × 8 cells where that stays
/// within half a code value of the triangles; the triangles paint the other cells.
///
/// Painting the triangles themselves costs a span per triangle per row: with a mesh gradient's
/// 24-pixel triangles that is a span of about 12 pixels, and the span's set-up and its two
/// partial chunks cost more than its pixels. The lattice's cells are the painter's 8-pixel
/// chunks, so every row is whole chunks, one multiply-add per channel each.
///
/// The lattice points are pixels the triangles paint (every eighth pixel of every eighth row,
/// and the frame's last column and row), taken from the triangles' spans without painting them
/// (`GouraudMesh.sample`), so each holds exactly the triangles' colour there.
/// Bilinear interpolation reproduces a plane exactly, so a pixel departs from the triangles'
/// colour only where an edge between two triangles (a kink) crosses its cell, by about the
/// change of slope across the kink times a quarter of the cell (as a straight line across a bend
/// at its middle misses by that; the error is linear in the colour, so the kinks' shares add). A
/// cell whose kinks could add up to more than half a code value is left to the triangles.
/// Measured on the shipped jobs: 1 code value at most in the 8-bit frames, mean 0.005
/// (`ShadingLatticeTests`, `MeshGradientTests`, docs/performance.md).
public struct ShadingLattice: @unchecked Sendable {
    /// Pixels between lattice points, on both axes: one painter chunk.
    public static let spacing = 8
    /// How far a shaded cell may stray from the triangles: half a code value.
    public static let tolerance: Float = 0.5 / 255

    /// An edge between two of the mesh's triangles, from `a` to `b` in frame pixels, and how much
    /// the colour's slope changes across it (`GouraudMesh.slopeJump`).
    public struct Kink: Sendable {
        public var a: SIMD2<Float>
        public var b: SIMD2<Float>
        public var slopeJump: Float
        public init(from a: SIMD2<Float>, to b: SIMD2<Float>, slopeJump: Float) {
            (self.a, self.b, self.slopeJump) = (a, b, slopeJump)
        }
    }

    /// Lattice point (i, j) is the triangles' colour at pixel (8i, 8j); the last column is the
    /// frame's last pixel column and the last row its last row, wherever they fall.
    let colors: PlanarBand
    let width: Int
    let height: Int
    /// The triangles, for the cells the lattice leaves to them.
    let mesh: GouraudMesh
    /// Cells per row (frame columns 8i...8i + 8, the last one narrower).
    let cellColumns: Int
    /// Per cell, row by row: whether the lattice shades it.
    let smooth: [Bool]
    /// Per row of cells, the runs of cells left to the triangles, as frame column ranges: row
    /// j's are `roughRuns[roughRunStarts[j]..<roughRunStarts[j + 1]]`.
    let roughRunStarts: [Int]
    let roughRuns: [Range<Int>]

    /// Shades the lattice from `mesh`, which must be binned for painting (`GouraudMesh.bin`).
    /// nil when the mesh does not tile the frame opaquely or no cell is smooth enough.
    public init?(mesh: GouraudMesh, width: Int, height: Int, kinks: [Kink]) {
        let spacing = Self.spacing
        guard mesh.tilesOpaquely, width > 0, height > 0 else { return nil }
        let cellColumns = (width - 1) / spacing + 1, cellRows = (height - 1) / spacing + 1
        // Each kink's share of the error, summed over the cells it crosses.
        var error = [Float](repeating: 0, count: cellColumns * cellRows)
        // The shares of kinks that could be anywhere, which every cell bears: kept once rather
        // than added to every cell per kink (a hostile mesh may have thousands).
        var everywhere: Float = 0
        // Cell i spans the pixel centres 8i + 0.5 ... 8i + 8.5 on its axis: the cells an extent
        // reaches on one.
        func cells(_ low: Float, _ high: Float, count: Int) -> ClosedRange<Int>? {
            let first = SaturatingConversion.int((low - 8.5) / Float(spacing), .up, in: 0...(count - 1))
            let last = SaturatingConversion.int((high - 0.5) / Float(spacing), .down, in: 0...(count - 1))
            return first <= last ? first...last : nil
        }
        for kink in kinks where kink.slopeJump != 0 {
            // A jump that is not a number counts as too large; a kink whose ends are not finite
            // could be anywhere.
            let share = kink.slopeJump.isNaN ? .infinity : kink.slopeJump * Float(spacing) / 4
            let (top, bottom) = kink.a.y <= kink.b.y ? (kink.a, kink.b) : (kink.b, kink.a)
            guard top.x.isFinite, top.y.isFinite, bottom.x.isFinite, bottom.y.isFinite else {
                everywhere += share
                continue
            }
            guard let down = cells(top.y, bottom.y, count: cellRows) else { continue }
            for j in down {
                // The part of the kink within cell row j's band of rows, and the cells it crosses.
                let y0 = max(top.y, Float(j * spacing) + 0.5), y1 = min(bottom.y, Float(j * spacing) + 8.5)
                func x(_ y: Float) -> Float {
                    bottom.y > top.y ? top.x + (y - top.y) / (bottom.y - top.y) * (bottom.x - top.x) : top.x
                }
                let (x0, x1) = bottom.y > top.y ? (x(y0), x(y1)) : (top.x, bottom.x)
                guard let across = cells(min(x0, x1), max(x0, x1), count: cellColumns) else { continue }
                for i in across { error[j * cellColumns + i] += share }
            }
        }
        let smooth = error.map { $0 + everywhere <= Self.tolerance }
        guard smooth.contains(true) else { return nil }
        var starts = [0], runs: [Range<Int>] = []
        for j in 0..<cellRows {
            var i = 0
            while i < cellColumns {
                if smooth[j * cellColumns + i] {
                    i += 1
                    continue
                }
                let first = i
                while i < cellColumns && !smooth[j * cellColumns + i] { i += 1 }
                runs.append((first * spacing)..<min(i * spacing, width))
            }
            starts.append(runs.count)
        }
        (self.smooth, roughRunStarts, roughRuns) = (smooth, starts, runs)
        (self.width, self.height, self.cellColumns, self.mesh) = (width, height, cellColumns, mesh)
        colors = PlanarBand(width: cellColumns + 1, rows: cellRows + 1)
        // A degenerate mesh that does not reach every point leaves its background there.
        colors.fill(PremultipliedColor(mesh.underlay), rows: cellRows + 1)
        for j in 0...cellRows {
            let at = j * colors.stride
            mesh.sample(
                row: min(j * spacing, height - 1), width: width, step: spacing,
                into: (colors.r + at, colors.g + at, colors.b + at, colors.a + at))
        }
    }

    /// The share of the cells the lattice shades (the rest are the triangles').
    public var shadedShare: Double { Double(smooth.filter { $0 }.count) / Double(smooth.count) }

    /// Paints frame rows `firstRow..<firstRow+rows` of the mesh within `columns` into `band` (row
    /// 0 of the band is frame row `firstRow`; the rows lie in one of the bins the mesh was
    /// binned into): replacing what it holds, or, with `opacity`, composited over it with
    /// `Compositing.sourceOver`'s arithmetic. The smooth cells come from the lattice, the
    /// others from the triangles; pixels beyond the frame are left alone.
    public func paint(
        into band: PlanarBand, firstRow: Int, rows count: Int, columns: Range<Int>, over opacity: Float? = nil
    ) {
        let spacing = Self.spacing
        let frameColumns = columns.clamped(to: 0..<width)
        guard !frameColumns.isEmpty, count > 0 else { return }
        let firstChunk = frameColumns.lowerBound / spacing,
            lastChunk = (frameColumns.upperBound - 1) / spacing
        let stride = colors.stride
        // The last cell on each axis ends at the frame's last pixel: its width is that pixel's
        // distance from the cell's first (0 when they are the same pixel).
        func steps(_ last: Int) -> SIMD8<Float> {
            let lanes = SIMD8<Float>(0, 1, 2, 3, 4, 5, 6, 7)
            return last == 0 ? SIMD8() : lanes / Float(last)
        }
        let eighths = steps(spacing), lastSteps = steps((width - 1) % spacing)
        let lastColumnChunk = (width - 1) / spacing
        // One row's colours at the lattice columns it needs, interpolated between two lattice
        // rows: chunk k reads entries k and k + 1.
        let needed = lastChunk - firstChunk + 2
        withUnsafeTemporaryAllocation(of: Float.self, capacity: 4 * (needed + 8)) { buffer in
            let row = buffer.baseAddress!
            let across = (row, row + (needed + 8), row + 2 * (needed + 8), row + 3 * (needed + 8))
            for y in firstRow..<min(firstRow + count, height) {
                let j = y / spacing, cells = j * cellColumns
                let cellHeight = j == (height - 1) / spacing ? (height - 1) % spacing : spacing
                let t = SIMD8<Float>(
                    repeating: cellHeight == 0 ? 0 : Float(y - j * spacing) / Float(cellHeight))
                let upper = j * stride + firstChunk, lower = upper + stride
                func interpolate(_ plane: UnsafeMutablePointer<Float>, into out: UnsafeMutablePointer<Float>)
                {
                    var i = 0
                    while i < needed {
                        let a = load(plane + upper + i), b = load(plane + lower + i)
                        store(a + (b - a) * t, out + i)
                        i += 8
                    }
                }
                interpolate(colors.r, into: across.0)
                interpolate(colors.g, into: across.1)
                interpolate(colors.b, into: across.2)
                interpolate(colors.a, into: across.3)
                let base = (y - firstRow) * band.stride
                let out = (band.r + base, band.g + base, band.b + base, band.a + base)
                for k in firstChunk...lastChunk where smooth[cells + k] {
                    let x = k * spacing, i = k - firstChunk
                    let weights = k == lastColumnChunk ? lastSteps : eighths
                    @inline(__always) func chunk(_ p: UnsafeMutablePointer<Float>) -> SIMD8<Float> {
                        let left = p[i], right = p[i + 1]
                        return SIMD8(repeating: left) + SIMD8(repeating: right - left) * weights
                    }
                    let r = chunk(across.0), g = chunk(across.1), b = chunk(across.2), a = chunk(across.3)
                    let from = max(frameColumns.lowerBound - x, 0), to = min(frameColumns.upperBound - x, 8)
                    if from == 0 && to == 8 {
                        if let opacity {
                            let o = SIMD8<Float>(repeating: opacity), keep = 1 - a * o
                            store(r * o + load(out.0 + x) * keep, out.0 + x)
                            store(g * o + load(out.1 + x) * keep, out.1 + x)
                            store(b * o + load(out.2 + x) * keep, out.2 + x)
                            store(a * o + load(out.3 + x) * keep, out.3 + x)
                        } else {
                            store(r, out.0 + x)
                            store(g, out.1 + x)
                            store(b, out.2 + x)
                            store(a, out.3 + x)
                        }
                        continue
                    }
                    // Lanes outside `columns` keep what the band holds.
                    let inside = LaneMask.first(to) & ~LaneMask.first(from)
                    let o = SIMD8<Float>(repeating: opacity ?? 1), keep = 1 - a * o
                    @inline(__always) func put(_ value: SIMD8<Float>, _ p: UnsafeMutablePointer<Float>) {
                        let old = load(p)
                        store(
                            LaneMask.select(inside, opacity == nil ? value : value * o + old * keep, old), p)
                    }
                    put(r, out.0 + x)
                    put(g, out.1 + x)
                    put(b, out.2 + x)
                    put(a, out.3 + x)
                }
            }
        }
        paintRoughCells(into: band, firstRow: firstRow, rows: count, columns: frameColumns, over: opacity)
    }

    /// The triangles' share of `paint`: the runs of cells the lattice leaves to them.
    private func paintRoughCells(
        into band: PlanarBand, firstRow: Int, rows count: Int, columns: Range<Int>, over opacity: Float?
    ) {
        let spacing = Self.spacing
        var top = firstRow
        while top < min(firstRow + count, height) {
            let j = top / spacing
            let bottom = min((j + 1) * spacing, firstRow + count, height)
            let part = band.rows(from: top - firstRow, count: bottom - top)
            for run in roughRuns[roughRunStarts[j]..<roughRunStarts[j + 1]] {
                let within = run.clamped(to: columns)
                guard !within.isEmpty else { continue }
                if let opacity {
                    mesh.paintOver(
                        into: part, firstRow: top, rows: bottom - top, columns: within, opacity: opacity)
                } else {
                    mesh.paint(into: part, firstRow: top, rows: bottom - top, columns: within)
                }
            }
            top = bottom
        }
    }
}
