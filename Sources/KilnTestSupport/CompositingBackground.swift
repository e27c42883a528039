import KilnRaster

extension PlanarBand {
    /// A band to composite onto in tests: every value, padding included, is one of 101 levels of
    /// a premultiplied blue-green that changes from pixel to pixel, so a painter that writes a
    /// pixel it should have left, or blends it wrongly, shows.
    public static func compositingBackground(width: Int, rows: Int) -> PlanarBand {
        let band = PlanarBand(width: width, rows: rows)
        for i in 0..<(band.stride * rows) {
            let a = Float((i * 37) % 101) / 100
            (band.r[i], band.g[i], band.b[i], band.a[i]) = (a * 0.3, a * 0.6, a * 0.9, a)
        }
        return band
    }
}
