/// A mesh that tiles its frame opaquely (`GouraudMesh.tilesOpaquely`), shaded once at every
/// eighth pixel and interpolated bilinearly in between, in the rows of lattice cells where that
/// stays within half a code value of the triangles.
///
/// Painting the triangles themselves costs a span per triangle per row: with a mesh gradient's
/// 24-pixel triangles that is a span of about 12 pixels, and the span's set-up and its two
/// partial chunks cost more than its pixels. The lattice's cells are the painter's 8-pixel
/// chunks, so every row is whole chunks, one multiply-add per channel each.
///
/// The lattice points are pixels the triangles paint (every eighth pixel of every eighth row,
/// and the frame's last column and row), so each holds exactly the triangles' colour there.
/// Bilinear interpolation reproduces a plane exactly, so a pixel departs from the triangles'
/// colour only where an edge between two triangles (a kink) crosses its cell: by about the
/// change of slope across the kink times a quarter of the cell, the error of a straight line
/// across a bend at its middle. A row of cells that some kink would push past half a code value
/// is left to the triangles (`shades(row:)`). Measured on the shipped jobs: at most 1 code value
/// in the 8-bit frames, mean 0.005 (`ShadingLatticeTests`, docs/performance.md).
public struct ShadingLattice: @unchecked Sendable {
    /// Pixels between lattice points, on both axes: one painter chunk.
    public static let spacing = 8
    /// The largest change of slope (colour per pixel) a kink may have in a row of cells the
    /// lattice shades: a quarter of a cell times it is half a code value.
    public static let largestSlopeJump: Float = 0.5 / 255 / (Float(spacing) / 4)

    /// An edge between two of the mesh's triangles: its vertical extent in frame pixels and how
    /// much the colour's slope changes across it (`GouraudMesh.slopeJump`).
    public struct Kink: Sendable {
        public var top: Float
        public var bottom: Float
        public var slopeJump: Float
        public init(top: Float, bottom: Float, slopeJump: Float) {
            (self.top, self.bottom, self.slopeJump) = (top, bottom, slopeJump)
        }
    }

    /// Lattice point (i, j) is the triangles' colour at pixel (8i, 8j); the last column is the
    /// frame's last pixel column and the last row its last row, wherever they fall.
    let colors: PlanarBand
    let width: Int
    let height: Int
    /// Per row of cells (frame rows 8j...8j + 8, the last one shorter): whether the lattice
    /// shades it.
    let smoothRows: [Bool]

    /// Shades the lattice from `mesh`, which must be binned for painting (`GouraudMesh.bin`).
    /// nil when the mesh does not tile the frame opaquely or no row of cells is smooth enough.
    public init?(mesh: GouraudMesh, width: Int, height: Int, kinks: [Kink]) {
        let spacing = Self.spacing
        guard mesh.tilesOpaquely, width > 0, height > 0 else { return nil }
        let cellRows = (height - 1) / spacing + 1
        var smooth = [Bool](repeating: true, count: cellRows)
        for kink in kinks where !(kink.slopeJump <= Self.largestSlopeJump) {
            // Cell row j interpolates between the pixel centres 8j + 0.5 and 8j + 8.5. A kink
            // whose extent is not a number could be anywhere.
            let rows = 0...(cellRows - 1)
            let unknown = kink.top.isNaN || kink.bottom.isNaN
            let first =
                unknown ? 0 : SaturatingConversion.int((kink.top - 8.5) / Float(spacing), .up, in: rows)
            let last =
                unknown
                ? cellRows - 1
                : SaturatingConversion.int((kink.bottom - 0.5) / Float(spacing), .down, in: rows)
            guard first <= last else { continue }
            for j in first...last { smooth[j] = false }
        }
        guard smooth.contains(true) else { return nil }
        smoothRows = smooth
        self.width = width
        self.height = height
        let columns = (width - 1) / spacing + 2
        colors = PlanarBand(width: columns, rows: cellRows + 1)
        let row = PlanarBand(width: width, rows: 1)
        let underlay = PremultipliedColor(mesh.underlay)
        for j in 0...cellRows {
            // Only the rows a shaded cell reads.
            guard (j < cellRows && smooth[j]) || (j > 0 && smooth[j - 1]) else { continue }
            let y = min(j * spacing, height - 1)
            row.fill(underlay, rows: 1)
            mesh.paint(into: row, firstRow: y, rows: 1)
            let at = j * colors.stride
            for i in 0..<columns {
                let x = min(i * spacing, width - 1)
                (colors.r[at + i], colors.g[at + i], colors.b[at + i], colors.a[at + i]) =
                    (row.r[x], row.g[x], row.b[x], row.a[x])
            }
        }
    }

    /// Whether the lattice shades frame row `y` (else the triangles must).
    public func shades(row y: Int) -> Bool {
        let j = y / Self.spacing
        return y >= 0 && j < smoothRows.count && smoothRows[j]
    }

    /// Writes frame rows `firstRow..<firstRow+rows` within `columns` into `band` (row 0 of the
    /// band is frame row `firstRow`): replacing what it holds, or, with `opacity`, composited
    /// over it with `Compositing.sourceOver`'s arithmetic. Rows the lattice does not shade
    /// (`shades(row:)`) and pixels beyond the frame are left alone.
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
            for y in firstRow..<(firstRow + count) where shades(row: y) && y < height {
                let j = y / spacing
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
                for k in firstChunk...lastChunk {
                    let x = k * spacing, i = k - firstChunk
                    let weights = k == lastColumnChunk ? lastSteps : eighths
                    @inline(__always) func chunk(_ p: UnsafeMutablePointer<Float>) -> SIMD8<Float> {
                        let left = p[i], right = p[i + 1]
                        return SIMD8(repeating: left) + SIMD8(repeating: right - left) * weights
                    }
                    let r = chunk(across.0), g = chunk(across.1), b = chunk(across.2), a = chunk(across.3)
                    // Lanes outside `columns` keep what the band holds.
                    let from = max(frameColumns.lowerBound - x, 0), to = min(frameColumns.upperBound - x, 8)
                    let inside = LaneMask.first(to) & ~LaneMask.first(from)
                    if let opacity {
                        let o = SIMD8<Float>(repeating: opacity)
                        let keep = 1 - a * o
                        @inline(__always) func over(_ value: SIMD8<Float>, _ p: UnsafeMutablePointer<Float>) {
                            let old = load(p)
                            store(LaneMask.select(inside, value + old * keep, old), p)
                        }
                        over(r * o, out.0 + x)
                        over(g * o, out.1 + x)
                        over(b * o, out.2 + x)
                        over(a * o, out.3 + x)
                    } else if from == 0 && to == 8 {
                        store(r, out.0 + x)
                        store(g, out.1 + x)
                        store(b, out.2 + x)
                        store(a, out.3 + x)
                    } else {
                        @inline(__always) func put(_ value: SIMD8<Float>, _ p: UnsafeMutablePointer<Float>) {
                            store(LaneMask.select(inside, value, load(p)), p)
                        }
                        put(r, out.0 + x)
                        put(g, out.1 + x)
                        put(b, out.2 + x)
                        put(a, out.3 + x)
                    }
                }
            }
        }
    }
}
