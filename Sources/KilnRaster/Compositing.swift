/// Source-over compositing of premultiplied bands.
public enum Compositing {
    /// dst = src·opacity + dst·(1 − src.a·opacity), over `rows` rows.
    public static func sourceOver(
        _ src: PlanarBand, onto dst: PlanarBand, opacity: Float, rows: Int, columns: Range<Int>? = nil
    ) {
        precondition(src.stride == dst.stride, "bands differ in width")
        let o = SIMD8<Float>(repeating: opacity)
        let one = SIMD8<Float>(repeating: 1)
        src.forEachRun(rows: rows, columns: columns) { offset, count in
            var i = offset
            while i < offset + count {
                let sa = load(src.a + i) * o
                let keep = one - sa
                store(load(src.r + i) * o + load(dst.r + i) * keep, dst.r + i)
                store(load(src.g + i) * o + load(dst.g + i) * keep, dst.g + i)
                store(load(src.b + i) * o + load(dst.b + i) * keep, dst.b + i)
                store(sa + load(dst.a + i) * keep, dst.a + i)
                i &+= 8
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
                let m = load(mask.a + i)
                store(load(band.r + i) * m, band.r + i)
                store(load(band.g + i) * m, band.g + i)
                store(load(band.b + i) * m, band.b + i)
                store(load(band.a + i) * m, band.a + i)
                i &+= 8
            }
        }
    }
}
