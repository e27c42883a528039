// The reduced blur: the region shrunk 4× per axis by 4×4 box averages (phase 1, with the reduced
// rows' horizontal blur), blurred vertically and enlarged back bilinearly (phase 2).
//
// The reduced copy has a one-sample border on every side holding the region's edge pixels,
// reduced along the edge only (corners: the corner pixel). Clamping the reduced copy then repeats
// exactly what clamping the full image would: a 4×4 block beyond the edge is the edge pixel
// repeated. Reduced sample j (border = 0) covers full-resolution offsets 4(j − 1) …< 4j, centre
// 4(j − 1) + 1.5.

/// The reduced copy's dimensions for a region.
struct ReducedSize {
    let rowCount: Int
    let columnCount: Int

    var blockRows: Int { (rowCount + 3) / 4 }
    var blockColumns: Int { (columnCount + 3) / 4 }
    /// Blocks plus the border; the band is four columns wider so whole SIMD4 stores of the last
    /// blocks stay inside their row.
    var rows: Int { blockRows + 2 }
    var columns: Int { blockColumns + 2 }
    var bandRows: Int { rows }
    var bandWidth: Int { columns + 4 }
}

extension GaussianBlur {
    /// Phase 1 of the reduced blur for full-resolution `rows` (starting on a multiple of 4): the
    /// reduced rows they cover — with the border rows at the region's top and bottom — averaged
    /// and then blurred horizontally.
    func reduceRows(
        _ image: PlanarBand, rowCount n: Int, columns: Range<Int>, rows: Range<Int>, kernel: BoxKernel,
        workspace: BlurWorkspace, scratch: BlurScratch
    ) {
        let size = ReducedSize(rowCount: n, columnCount: columns.count)
        guard let band = workspace.reducedBand else { preconditionFailure("prepare the workspace first") }
        precondition(
            band.width >= size.bandWidth && band.capacityRows >= size.bandRows, "workspace too small")
        let width = columns.count
        let blocks = size.blockColumns
        let first = rows.lowerBound == 0 ? 0 : rows.lowerBound / 4 + 1
        let end = rows.upperBound == n ? size.rows : rows.upperBound / 4 + 1
        // Sum of four rows, padded with its last value to whole groups of four blocks.
        let padded = (4 * blocks + 15) & ~15
        let sum = scratch.enlargement(floats: padded)
        let quarter = SIMD4<Float>(repeating: 1.0 / 16)
        for j in first..<end {
            // Block row j covers rows 4(j − 1) …< 4j; the border rows and a partial last block
            // repeat the edge row.
            let y = 4 * (j - 1)
            for plane in 0..<4 {
                let source = image.plane(plane) + columns.lowerBound
                @inline(__always) func row(_ k: Int) -> UnsafeMutablePointer<Float> {
                    source + min(max(y + k, 0), n - 1) * image.stride
                }
                let (r0, r1, r2, r3) = (row(0), row(1), row(2), row(3))
                var x = 0
                while x + 8 <= width {
                    (sum + x).set((load(r0 + x) + load(r1 + x)) + (load(r2 + x) + load(r3 + x)))
                    x += 8
                }
                while x < width {
                    sum[x] = (r0[x] + r1[x]) + (r2[x] + r3[x])
                    x += 1
                }
                for k in width..<padded { sum[k] = sum[width - 1] }
                let out = band.plane(plane) + j * band.stride
                var g = 0
                while g < blocks {
                    let t = transpose4(
                        load4(sum + 4 * g), load4(sum + 4 * g + 4), load4(sum + 4 * g + 8),
                        load4(sum + 4 * g + 12))
                    store4(((t.0 + t.1) + (t.2 + t.3)) * quarter, out + 1 + g)
                    g += 4
                }
                out[0] = sum[0] * 0.25
                out[blocks + 1] = sum[width - 1] * 0.25
            }
        }
        kernel.blurRows(band, rows: first..<end, columns: 0..<size.columns, scratch: scratch)
    }

    /// Phase 2 of the reduced blur for the full-resolution `strip`: the vertical blur of the
    /// reduced columns the strip needs (into the worker's own band, since neighbouring strips
    /// share a reduced column), then bilinear enlargement into the image — cross-faded with the
    /// full-resolution result already there when both contribute.
    func enlargeColumns(
        _ image: PlanarBand, rowCount n: Int, columns: Range<Int>, strip: Range<Int>, kernel: BoxKernel,
        colors: ColorMatrix?, workspace: BlurWorkspace, scratch: BlurScratch
    ) {
        let size = ReducedSize(rowCount: n, columnCount: columns.count)
        guard let band = workspace.reducedBand else { preconditionFailure("prepare the workspace first") }
        // Offsets d from the region's left edge; enlarged index e = d + 2 puts the samples
        // between reduced j and j + 1 at e = 4j …< 4j + 4, weights (1, 3, 5, 7)/8 of j + 1.
        let d0 = strip.lowerBound - columns.lowerBound, d1 = strip.upperBound - columns.lowerBound
        let e0 = (d0 + 2) & ~7, e1 = (d1 + 2 + 7) & ~7
        let jFirst = e0 / 4
        let jLast = min(size.columns - 1, (d1 + 1) / 4 + 1)
        let count = jLast - jFirst + 1
        let reducedRows = size.rows
        let blurred = scratch.reducedStrip(width: count, rows: reducedRows)
        kernel.blurColumns(
            band, rowCount: reducedRows, columns: jFirst..<(jLast + 1), into: blurred, at: 0, scratch: scratch
        )
        colors?.apply(to: blurred, rows: reducedRows, columns: 0..<count)

        // Two enlarged rows (reduced rows i and i + 1) per plane, each e1 − e0 floats.
        let length = e1 - e0 + 8
        let rows = scratch.enlargement(floats: 8 * length)
        @inline(__always) func enlarged(_ i: Int, _ plane: Int) -> UnsafeMutablePointer<Float> {
            rows + ((i & 1) * 4 + plane) * length
        }
        func enlarge(_ i: Int) {
            for plane in 0..<4 {
                Self.enlargeRow(
                    blurred.plane(plane) + i * blurred.stride, count: count, jFirst: jFirst, e0: e0, e1: e1,
                    into: enlarged(i, plane))
            }
        }

        if reducedWeight < 1 {
            enlargeRows(
                Blended.self, image, rows: 0..<n, strip: strip, offset: d0 + 2 - e0, enlarged: enlarged
            ) {
                ready in enlarge(ready)
            }
        } else {
            enlargeRows(
                Replaced.self, image, rows: 0..<n, strip: strip, offset: d0 + 2 - e0, enlarged: enlarged
            ) {
                ready in enlarge(ready)
            }
        }
    }

    /// The horizontal half of the enlargement: reduced row `source` (its samples from `jFirst`
    /// on, `count` of them, the last repeated past them) at enlarged indices e0 …< e1 (multiples
    /// of 8) into `target`.
    @inline(__always)
    static func enlargeRow(
        _ source: UnsafeMutablePointer<Float>, count: Int, jFirst: Int, e0: Int, e1: Int,
        into target: UnsafeMutablePointer<Float>
    ) {
        let weights = SIMD8<Float>(1, 3, 5, 7, 1, 3, 5, 7) * 0.125
        @inline(__always) func chunk(_ e: Int, _ a: Float, _ b: Float, _ c: Float) {
            let left = SIMD8(lowHalf: SIMD4(repeating: a), highHalf: SIMD4(repeating: b))
            let right = SIMD8(lowHalf: SIMD4(repeating: b), highHalf: SIMD4(repeating: c))
            (target + (e &- e0)).set(left + (right - left) * weights)
        }
        var e = e0
        // While all three samples exist no index needs clamping: most of the row.
        while e < e1 && e / 4 &- jFirst &+ 2 < count {
            let p = source + (e / 4 &- jFirst)
            chunk(e, p[0], p[1], p[2])
            e &+= 8
        }
        while e < e1 {
            let j = e / 4 &- jFirst
            chunk(
                e, source[min(j, count &- 1)], source[min(j &+ 1, count &- 1)],
                source[min(j &+ 2, count &- 1)])
            e &+= 8
        }
    }

    /// Floats of scratch `enlarge(copy:…)` needs per plane for `columns`.
    public static func enlargementScratch(columns: Int) -> Int { 2 * (columns + 24) }

    /// Rows `rows` (counted from the region's top) and frame `columns` of a reduced-only blur's
    /// result, enlarged from its blurred reduced copy (`copy`, as `blurReducedColumns` leaves it
    /// in `reducedCopy`'s band, here held anywhere) into `target`, whose row 0 is
    /// `rows.lowerBound`: the floats `blurColumns` writes there. The region is `regionRowCount`
    /// rows × `regionColumns`. `scratch` holds two enlarged reduced rows: each of its planes
    /// at least `enlargementScratch(columns:)` floats.
    public func enlarge(
        copy: PlanarBand, regionRowCount n: Int, regionColumns: Range<Int>, rows: Range<Int>,
        columns: Range<Int>, into target: PlanarBand, scratch: PlanarBand
    ) {
        precondition(isReducedOnly, "the blur has a full-resolution part")
        guard !rows.isEmpty, !columns.isEmpty else { return }
        precondition(rows.lowerBound >= 0 && rows.upperBound <= n, "rows outside the region")
        precondition(
            columns.lowerBound >= regionColumns.lowerBound && columns.upperBound <= regionColumns.upperBound,
            "columns outside the region")
        let size = ReducedSize(rowCount: n, columnCount: regionColumns.count)
        let d0 = columns.lowerBound - regionColumns.lowerBound,
            d1 = columns.upperBound - regionColumns.lowerBound
        let e0 = (d0 + 2) & ~7, e1 = (d1 + 2 + 7) & ~7
        let length = e1 - e0 + 8
        precondition(
            scratch.capacityRows * scratch.stride >= Self.enlargementScratch(columns: columns.count),
            "scratch too small")
        let jFirst = e0 / 4
        @inline(__always) func enlarged(_ i: Int, _ plane: Int) -> UnsafeMutablePointer<Float> {
            scratch.plane(plane) + (i & 1) * length
        }
        enlargeRows(
            Replaced.self, target, rows: rows, strip: columns, offset: d0 + 2 - e0, enlarged: enlarged
        ) { i in
            for plane in 0..<4 {
                Self.enlargeRow(
                    copy.plane(plane) + i * copy.stride + jFirst, count: size.columns - jFirst,
                    jFirst: jFirst,
                    e0: e0, e1: e1, into: enlarged(i, plane))
            }
        }
    }

    /// The vertical half of the enlargement, row by row: each output row of `rows` (region rows;
    /// image row 0 is `rows.lowerBound`) interpolates two enlarged reduced rows
    /// (`enlarged(i, plane)`, produced on demand by `enlarge(i)`).
    @inline(__always)
    private func enlargeRows<Mode: EnlargeMode>(
        _: Mode.Type, _ image: PlanarBand, rows: Range<Int>, strip: Range<Int>, offset: Int,
        enlarged: (Int, Int) -> UnsafeMutablePointer<Float>, enlarge: (Int) -> Void
    ) {
        let t = SIMD8<Float>(repeating: reducedWeight)
        let stride = image.stride
        let width = strip.count
        var ready = ((rows.lowerBound &+ 2) >> 2) &- 1
        for y in rows {
            // Reduced row i's centre is at full-resolution row 4(i − 1) + 1.5.
            let i = (y &+ 2) >> 2
            let w = SIMD8<Float>(repeating: Float(((y &+ 2) & 3) &* 2 &+ 1) * 0.125)
            while ready < i &+ 1 {
                ready &+= 1
                enlarge(ready)
            }
            let top = (
                enlarged(i, 0) + offset, enlarged(i, 1) + offset, enlarged(i, 2) + offset,
                enlarged(i, 3) + offset
            )
            let bottom = (
                enlarged(i &+ 1, 0) + offset, enlarged(i &+ 1, 1) + offset, enlarged(i &+ 1, 2) + offset,
                enlarged(i &+ 1, 3) + offset
            )
            let base = (y &- rows.lowerBound) &* stride &+ strip.lowerBound
            let out = (image.r + base, image.g + base, image.b + base, image.a + base)
            @inline(__always) func pixels(_ x: Int, _ lanes: Int) {
                @inline(__always) func value(
                    _ top: UnsafeMutablePointer<Float>, _ bottom: UnsafeMutablePointer<Float>,
                    _ out: UnsafeMutablePointer<Float>
                ) -> SIMD8<Float> {
                    let a = load(top + x), b = load(bottom + x)
                    let v = a + (b - a) * w
                    guard Mode.blends else { return v }
                    let fine = SIMD8<Float>.read(out + x, lanes)
                    return fine + (v - fine) * t
                }
                let alpha = value(top.3, bottom.3, out.3).clampedToUnit
                alpha.write(out.3 + x, lanes)
                value(top.0, bottom.0, out.0).clamped(toAlpha: alpha).write(out.0 + x, lanes)
                value(top.1, bottom.1, out.1).clamped(toAlpha: alpha).write(out.1 + x, lanes)
                value(top.2, bottom.2, out.2).clamped(toAlpha: alpha).write(out.2 + x, lanes)
            }
            var x = 0
            while x &+ 8 <= width {
                pixels(x, 8)
                x &+= 8
            }
            if x < width { pixels(x, width &- x) }
        }
    }
}

/// Whether the enlargement replaces the full-resolution result or cross-fades with it.
protocol EnlargeMode { static var blends: Bool { get } }
enum Replaced: EnlargeMode { static var blends: Bool { false } }
enum Blended: EnlargeMode { static var blends: Bool { true } }
