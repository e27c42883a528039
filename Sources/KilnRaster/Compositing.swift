/// Source-over compositing of premultiplied bands.
public enum Compositing {
    /// dst = src·opacity + dst·(1 − src.a·opacity), over `rows` rows, within exactly `columns`
    /// (all of them when nil).
    ///
    /// A painter leaves the pixels of a window's edge chunks outside the window as they were
    /// (`PlanarBand.chunkSpan`), so a scratch band holds leftovers there from whatever it held
    /// before — another layer, another frame, on whichever worker took the band. Those lanes count
    /// as transparent here: compositing them would put leftovers into the picture, and different
    /// ones for a different thread count.
    public static func sourceOver(
        _ src: PlanarBand, onto dst: PlanarBand, opacity: Float, rows: Int, columns: Range<Int>? = nil
    ) {
        precondition(src.stride == dst.stride, "bands differ in width")
        let o = SIMD8<Float>(repeating: opacity)
        let one = SIMD8<Float>(repeating: 1)
        let window = columns ?? 0..<src.stride
        let span = src.chunkSpan(columns)
        for row in 0..<rows {
            let rowStart = row &* src.stride
            var x = span.lowerBound
            while x < span.upperBound {
                let i = rowStart &+ x
                let (r, g, b, a) = src.chunk(at: i, column: x, within: window)
                let sa = a * o
                let keep = one - sa
                store(r * o + load(dst.r + i) * keep, dst.r + i)
                store(g * o + load(dst.g + i) * keep, dst.g + i)
                store(b * o + load(dst.b + i) * keep, dst.b + i)
                store(sa + load(dst.a + i) * keep, dst.a + i)
                x &+= 8
            }
        }
    }

    /// `dst` filled with the opaque-or-not `color` within `columns`, then `src` composited over it
    /// within `window` (part of `columns`) as `sourceOver` does: the same bytes in one pass,
    /// without reading `dst`. A solid under a full-frame picture (the showcase's cover) costs no
    /// pass of its own. (Its row and chunk loops are written out as `sourceOver`'s are: a shared
    /// helper taking the chunk as a closure measured a third slower in that function.)
    public static func sourceOver(
        _ src: PlanarBand, overColor color: PremultipliedColor, into dst: PlanarBand, opacity: Float,
        rows: Int,
        columns: Range<Int>, window: Range<Int>
    ) {
        precondition(src.stride == dst.stride, "bands differ in width")
        let o = SIMD8<Float>(repeating: opacity)
        let one = SIMD8<Float>(repeating: 1)
        let (cr, cg, cb, ca) = (
            SIMD8<Float>(repeating: color.r), SIMD8<Float>(repeating: color.g),
            SIMD8<Float>(repeating: color.b), SIMD8<Float>(repeating: color.a)
        )
        let span = dst.chunkSpan(columns)
        for row in 0..<rows {
            let rowStart = row &* src.stride
            var x = span.lowerBound
            while x < span.upperBound {
                let i = rowStart &+ x
                if x &+ 8 <= window.lowerBound || x >= window.upperBound {
                    store(cr, dst.r + i)
                    store(cg, dst.g + i)
                    store(cb, dst.b + i)
                    store(ca, dst.a + i)
                    x &+= 8
                    continue
                }
                let (r, g, b, a) = src.chunk(at: i, column: x, within: window)
                let sa = a * o
                let keep = one - sa
                store(r * o + cr * keep, dst.r + i)
                store(g * o + cg * keep, dst.g + i)
                store(b * o + cb * keep, dst.b + i)
                store(sa + ca * keep, dst.a + i)
                x &+= 8
            }
        }
    }

    /// `src` atop `dst` (Porter–Duff), premultiplied: `src · dst.a + dst · (1 − src.a)`. The
    /// source shows only where the destination is and the destination keeps its alpha, so an
    /// inner shadow darkens a half-transparent or antialiased layer without making it more
    /// opaque. Within `columns`; the source's lanes outside them count as transparent.
    public static func sourceAtop(
        _ src: PlanarBand, onto dst: PlanarBand, rows: Int, columns: Range<Int>
    ) {
        precondition(src.stride == dst.stride, "bands differ in width")
        let one = SIMD8<Float>(repeating: 1)
        let span = dst.chunkSpan(columns)
        for row in 0..<rows {
            let rowStart = row &* src.stride
            var x = span.lowerBound
            while x < span.upperBound {
                let i = rowStart &+ x
                let (r, g, b, a) = src.chunk(at: i, column: x, within: columns)
                let da = load(dst.a + i)
                let keep = one - a
                store(r * da + load(dst.r + i) * keep, dst.r + i)
                store(g * da + load(dst.g + i) * keep, dst.g + i)
                store(b * da + load(dst.b + i) * keep, dst.b + i)
                x &+= 8
            }
        }
    }

    /// Scales every channel of `band` by the alpha of `mask`: clipping by a coverage mask.
    public static func multiply(
        _ band: PlanarBand, byAlphaOf mask: PlanarBand, rows: Int, columns: Range<Int>? = nil
    ) {
        precondition(band.stride == mask.stride, "bands differ in width")
        band.forEachRun(rows: rows, columns: columns) { offset, count in
            var i = offset
            while i < offset + count {
                scale(band, at: i, by: load(mask.a + i))
                i &+= 8
            }
        }
    }

    /// What of a mask band is its coverage.
    public enum Coverage: Sendable {
        /// Its alpha.
        case alpha
        /// The Rec. 709 luma of its straight colour times its alpha, which is the luma of its
        /// premultiplied colour (luma is linear), clamped to 0…1.
        case luminance
    }

    /// Multiplies `band` by the coverage of `mask` (1 − coverage when `inverted`) within
    /// `columns`: a mask or a track matte. The mask's lanes outside `columns` count as
    /// transparent (they hold leftovers, as `sourceOver` explains). The mode is chosen once, not
    /// per chunk.
    public static func multiply(
        _ band: PlanarBand, byCoverageOf mask: PlanarBand, as coverage: Coverage, inverted: Bool, rows: Int,
        columns: Range<Int>
    ) {
        precondition(band.stride == mask.stride, "bands differ in width")
        let zero = SIMD8<Float>(repeating: 0), one = SIMD8<Float>(repeating: 1)
        @inline(__always)
        func run(
            _ cover: (SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>) -> SIMD8<Float>
        ) {
            let span = band.chunkSpan(columns)
            for row in 0..<rows {
                let rowStart = row &* band.stride
                var x = span.lowerBound
                while x < span.upperBound {
                    let i = rowStart &+ x
                    let (r, g, b, a) = mask.chunk(at: i, column: x, within: columns)
                    scale(band, at: i, by: cover(r, g, b, a))
                    x &+= 8
                }
            }
        }
        // Unfused, so every CPU level gives the same bytes.
        @inline(__always)
        func luma(_ r: SIMD8<Float>, _ g: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> {
            ((r * 0.2126 + g * 0.7152) + b * 0.0722).clamped(lowerBound: zero, upperBound: one)
        }
        switch (coverage, inverted) {
        case (.alpha, false): run { _, _, _, a in a }
        case (.alpha, true): run { _, _, _, a in one - a }
        case (.luminance, false): run { r, g, b, _ in luma(r, g, b) }
        case (.luminance, true): run { r, g, b, _ in one - luma(r, g, b) }
        }
    }

    /// Every channel of the eight pixels at plane offset `i` times `m`.
    @inline(__always)
    static func scale(_ band: PlanarBand, at i: Int, by m: SIMD8<Float>) {
        store(load(band.r + i) * m, band.r + i)
        store(load(band.g + i) * m, band.g + i)
        store(load(band.b + i) * m, band.b + i)
        store(load(band.a + i) * m, band.a + i)
    }
}

extension PlanarBand {
    /// The eight pixels at plane offset `i` (column `x`), the lanes outside `window` transparent:
    /// what a composite may read of a band whose edge chunks hold leftovers.
    @inline(__always)
    func chunk(at i: Int, column x: Int, within window: Range<Int>) -> (
        SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>
    ) {
        let (r, g, b, a) = (load(self.r + i), load(self.g + i), load(self.b + i), load(self.a + i))
        guard x < window.lowerBound || x &+ 8 > window.upperBound else { return (r, g, b, a) }
        let inside =
            LaneMask.first(max(0, min(8, window.upperBound &- x)))
            & ~LaneMask.first(max(0, min(8, window.lowerBound &- x)))
        return (
            LaneMask.select(inside, r, SIMD8()), LaneMask.select(inside, g, SIMD8()),
            LaneMask.select(inside, b, SIMD8()), LaneMask.select(inside, a, SIMD8())
        )
    }
}
