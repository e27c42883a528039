/// A horizontal band of premultiplied Float32 RGBA pixels, stored planar (one plane per channel) so
/// kernels work on eight pixels of one channel per SIMD register.
///
/// Bands are reused from frame to frame; only the rows a kernel is told about are valid.
public final class PlanarBand: @unchecked Sendable {
    public let width: Int
    public let capacityRows: Int
    /// Padded row length: a multiple of 8 so SIMD loops never need a scalar tail.
    public let stride: Int
    public let r: UnsafeMutablePointer<Float>
    public let g: UnsafeMutablePointer<Float>
    public let b: UnsafeMutablePointer<Float>
    public let a: UnsafeMutablePointer<Float>
    /// A view into another band's memory (see `rows(from:count:)`) does not free it.
    private let owner: PlanarBand?

    /// Every row has at least 8 spare columns after `width`. Kernels that start their 8-pixel
    /// chunks at an unaligned column may load and store back up to 7 pixels past the row's end;
    /// the spare columns keep those pixels in the same row, so views of neighbouring rows
    /// (`rows(from:count:)`) can be painted by different threads. All bands of one width share
    /// one stride, which compositing relies on.
    public init(width: Int, rows: Int) {
        owner = nil
        precondition(width > 0 && rows > 0, "band must not be empty")
        self.width = width
        self.capacityRows = rows
        self.stride = (width + 8 + 7) & ~7
        // Eight floats of tail padding let a SIMD chunk that starts near the end of the last row
        // load and store without a scalar tail.
        let count = stride * rows + 8
        r = .allocate(capacity: count)
        g = .allocate(capacity: count)
        b = .allocate(capacity: count)
        a = .allocate(capacity: count)
        for plane in [r, g, b, a] { plane.initialize(repeating: 0, count: count) }
    }

    private init(viewing band: PlanarBand, fromRow row: Int, rows: Int) {
        owner = band
        width = band.width
        capacityRows = rows
        stride = band.stride
        let offset = row * band.stride
        (r, g, b, a) = (band.r + offset, band.g + offset, band.b + offset, band.a + offset)
    }

    /// Rows `row..<row+count` of this band as a band of their own, sharing the memory: painters
    /// write straight into a tall offscreen image band by band.
    public func rows(from row: Int, count: Int) -> PlanarBand {
        precondition(row >= 0 && count > 0 && row + count <= capacityRows, "rows outside the band")
        return PlanarBand(viewing: self, fromRow: row, rows: count)
    }

    deinit {
        guard owner == nil else { return }
        r.deallocate()
        g.deallocate()
        b.deallocate()
        a.deallocate()
    }

    /// Fills `rows` rows with one premultiplied colour.
    public func fill(_ color: PremultipliedColor, rows: Int, columns: Range<Int>? = nil) {
        let span = chunkSpan(columns)
        if span == 0..<stride {
            let count = stride * rows
            r.update(repeating: color.r, count: count)
            g.update(repeating: color.g, count: count)
            b.update(repeating: color.b, count: count)
            a.update(repeating: color.a, count: count)
            return
        }
        for row in 0..<rows {
            let base = row * stride + span.lowerBound
            (r + base).update(repeating: color.r, count: span.count)
            (g + base).update(repeating: color.g, count: span.count)
            (b + base).update(repeating: color.b, count: span.count)
            (a + base).update(repeating: color.a, count: span.count)
        }
    }

    /// Makes columns `columns` of row `row` transparent, exactly those (not widened to chunks).
    public func clear(row: Int, columns: Range<Int>) {
        guard !columns.isEmpty else { return }
        let base = row * stride + columns.lowerBound
        (r + base).update(repeating: 0, count: columns.count)
        (g + base).update(repeating: 0, count: columns.count)
        (b + base).update(repeating: 0, count: columns.count)
        (a + base).update(repeating: 0, count: columns.count)
    }

    /// `columns` widened to whole 8-pixel chunks (the whole row when nil), so windowed kernels
    /// keep full SIMD chunks; the few extra pixels lie outside the window, where contents are
    /// unspecified anyway.
    public func chunkSpan(_ columns: Range<Int>?) -> Range<Int> {
        guard let columns, !columns.isEmpty else { return columns == nil ? 0..<stride : 0..<0 }
        let lo = max(0, columns.lowerBound) & ~7
        let hi = min(stride, (columns.upperBound + 7) & ~7)
        return lo..<max(lo, hi)
    }

    /// Calls `body(offset, count)` for the chunk-aligned `columns` of each of `rows` rows, or once
    /// for the whole block when the window is the full width.
    @inline(__always)
    func forEachRun(rows: Int, columns: Range<Int>?, _ body: (_ offset: Int, _ count: Int) -> Void) {
        let span = chunkSpan(columns)
        if span == 0..<stride { return body(0, stride * rows) }
        for row in 0..<rows { body(row * stride + span.lowerBound, span.count) }
    }

    /// Reads one pixel (tests and previews only; kernels use the planes directly).
    public func pixel(x: Int, row: Int) -> PremultipliedColor {
        let i = row * stride + x
        return PremultipliedColor(r: r[i], g: g[i], b: b[i], a: a[i])
    }
}

extension PlanarBand {
    /// Stores eight pixels (r, g, b, a) from column `x` of the row at `offset`, the lanes outside
    /// `columns` transparent: what every pixel kernel writes at the edges of a layer's extent.
    @inline(__always)
    func storeMasked(
        _ r: SIMD8<Float>, _ g: SIMD8<Float>, _ b: SIMD8<Float>, _ a: SIMD8<Float>, x: Int, offset: Int,
        columns: Range<Int>
    ) {
        var (r, g, b, a) = (r, g, b, a)
        if x < columns.lowerBound || x &+ 8 > columns.upperBound {
            let inside =
                LaneMask.first(min(8, max(0, columns.upperBound &- x)))
                & ~LaneMask.first(min(8, max(0, columns.lowerBound &- x)))
            (r, g, b, a) = (
                LaneMask.select(inside, r, SIMD8()), LaneMask.select(inside, g, SIMD8()),
                LaneMask.select(inside, b, SIMD8()), LaneMask.select(inside, a, SIMD8())
            )
        }
        let p = offset &+ x
        store(r, self.r + p)
        store(g, self.g + p)
        store(b, self.b + p)
        store(a, self.a + p)
    }
}
