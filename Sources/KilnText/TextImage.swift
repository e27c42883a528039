import KilnRaster

/// A laid-out text drawn once into two premultiplied pictures: the outline glyphs as white
/// coverage (tinted when painted, so an animated colour costs nothing) and the colour glyphs
/// (emoji) as they are. Both cover the layout box grown by `margin` on every side, which holds
/// glyph overhangs (descenders of the last line, italic tails).
public struct TextImage: Sendable {
    public let coverage: RasterImage?
    public let color: RasterImage?
    public let margin: Int
    /// Where the pictures' top-left pixel lies in the layout box grown by `margin` (they are cut
    /// to what is drawn).
    public let offset: SIMD2<Int>
    /// The layout box in pixels.
    public let box: SIMD2<Double>

    /// Draws `glyphs` (all of the layout's when nil) of `layout`; with `strokeRadius`, each
    /// outline glyph grown by that many pixels outwards (`FontFace.strokedBitmap`: a stroke to
    /// draw beneath the text), colour glyphs left out.
    ///
    /// Only the rectangle the glyphs' bitmaps cover is allocated, never the whole box: a text of
    /// many empty lines, or one glyph of a reveal, costs its ink, not its layout's area.
    public init(
        _ layout: TextLayout, margin: Int, glyphs subset: [TextLayout.Glyph]? = nil,
        strokeRadius: Double? = nil
    ) {
        self.margin = margin
        box = layout.size
        let width = max(1, SaturatingConversion.int(layout.size.x, .up) + 2 * margin)
        let height = max(1, SaturatingConversion.int(layout.size.y, .up) + 2 * margin)
        let frame = Region(lo: .zero, hi: SIMD2(width, height))
        var placed: [(bitmap: GlyphBitmap, pen: SIMD2<Double>, rect: Region)] = []
        var ink = Region(lo: SIMD2(width, height), hi: .zero)
        // A text repeats its glyphs: each stroke is made once per glyph and phase here.
        var strokes: [StrokedGlyph: GlyphBitmap] = [:]
        func stroked(_ glyph: TextLayout.Glyph, phase: Int, radius: Double) -> GlyphBitmap {
            let key = StrokedGlyph(face: ObjectIdentifier(glyph.face), glyph: glyph.glyph, phase: phase)
            if let made = strokes[key] { return made }
            let made = glyph.face.strokedBitmap(glyph: glyph.glyph, phase: phase, radius: radius)
            strokes[key] = made
            return made
        }
        for glyph in subset ?? layout.glyphs {
            let x = glyph.position.x + Double(margin), y = glyph.position.y + Double(margin)
            // Quarter-pixel phase of the pen: the bitmap is rasterized at that phase and placed
            // on whole pixels.
            let whole = x.rounded(.down)
            let phase = SaturatingConversion.int((x - whole) * 4, .down, in: 0...3)
            let bitmap =
                strokeRadius.map { stroked(glyph, phase: phase, radius: $0) }
                ?? glyph.face.bitmap(glyph: glyph.glyph, phase: phase)
            guard bitmap.width > 0 else { continue }
            let rect = Self.rect(of: bitmap, pen: SIMD2(x, y)).clipped(to: frame)
            guard !rect.isEmpty else { continue }
            placed.append((bitmap, SIMD2(x, y), rect))
            ink = ink.union(rect)
        }
        guard !ink.isEmpty else {
            (coverage, color, offset) = (nil, nil, .zero)
            return
        }
        let size = ink.hi &- ink.lo
        var mono = [Float](repeating: 0, count: size.x * size.y)
        var rgba =
            placed.contains { $0.bitmap.isColor } ? [Float](repeating: 0, count: size.x * size.y * 4) : []
        var hasMono = false, hasColor = false
        for (bitmap, pen, rect) in placed {
            if bitmap.isColor {
                hasColor = true
                Self.drawScaled(bitmap, at: pen, into: &rgba, region: ink)
            } else {
                hasMono = true
                let left = SaturatingConversion.int(pen.x, .down) + bitmap.left,
                    top = SaturatingConversion.int(pen.y, .toNearestOrAwayFromZero) - bitmap.top
                for ty in rect.lo.y..<rect.hi.y {
                    let row = ty - top
                    for tx in rect.lo.x..<rect.hi.x {
                        let c =
                            Float(bitmap.premultipliedRGBA[(row * bitmap.width + tx - left) * 4 + 3]) / 255
                        let i = (ty - ink.lo.y) * size.x + tx - ink.lo.x
                        // Overlapping glyphs combine as coverage does: source-over.
                        mono[i] = c + mono[i] * (1 - c)
                    }
                }
            }
        }
        // Cut to the drawn pixels: an element of a reveal (one glyph) is a small picture.
        var lo = size, hi = SIMD2(-1, -1)
        for y in 0..<size.y {
            for x in 0..<size.x
            where mono[y * size.x + x] > 0 || (hasColor && rgba[(y * size.x + x) * 4 + 3] > 0) {
                lo = SIMD2(min(lo.x, x), min(lo.y, y))
                hi = SIMD2(max(hi.x, x), max(hi.y, y))
            }
        }
        guard hi.x >= lo.x else {
            (coverage, color, offset) = (nil, nil, .zero)
            return
        }
        offset = ink.lo &+ lo
        let cut = hi &- lo &+ 1
        let corner = lo, stride = size.x
        func source(_ i: Int) -> Int { (corner.y + i / cut.x) * stride + corner.x + i % cut.x }
        coverage =
            hasMono
            ? Self.image(width: cut.x, height: cut.y) { i in
                let c = mono[source(i)]
                return (c, c, c, c)
            } : nil
        color =
            hasColor
            ? Self.image(width: cut.x, height: cut.y) { i in
                let j = source(i)
                return (rgba[4 * j], rgba[4 * j + 1], rgba[4 * j + 2], rgba[4 * j + 3])
            } : nil
    }

    /// A rectangle of pixels, `hi` exclusive.
    struct Region {
        var lo: SIMD2<Int>
        var hi: SIMD2<Int>

        var isEmpty: Bool { hi.x <= lo.x || hi.y <= lo.y }

        func clipped(to other: Region) -> Region {
            Region(
                lo: SIMD2(max(lo.x, other.lo.x), max(lo.y, other.lo.y)),
                hi: SIMD2(min(hi.x, other.hi.x), min(hi.y, other.hi.y)))
        }

        func union(_ other: Region) -> Region {
            if isEmpty { return other }
            return Region(
                lo: SIMD2(min(lo.x, other.lo.x), min(lo.y, other.lo.y)),
                hi: SIMD2(max(hi.x, other.hi.x), max(hi.y, other.hi.y)))
        }
    }

    /// The pixels a glyph's bitmap touches with its pen at `pen`.
    private static func rect(of bitmap: GlyphBitmap, pen: SIMD2<Double>) -> Region {
        if bitmap.isColor {
            let s = bitmap.scale
            let left = pen.x + Double(bitmap.left) * s, top = pen.y - Double(bitmap.top) * s
            return Region(
                lo: SIMD2(SaturatingConversion.int(left, .down), SaturatingConversion.int(top, .down)),
                hi: SIMD2(
                    SaturatingConversion.int(left + Double(bitmap.width) * s, .up),
                    SaturatingConversion.int(top + Double(bitmap.height) * s, .up)))
        }
        let left = SaturatingConversion.int(pen.x, .down) + bitmap.left,
            top = SaturatingConversion.int(pen.y, .toNearestOrAwayFromZero) - bitmap.top
        return Region(lo: SIMD2(left, top), hi: SIMD2(left + bitmap.width, top + bitmap.height))
    }

    private init(
        coverage: RasterImage?, color: RasterImage?, margin: Int, offset: SIMD2<Int>, box: SIMD2<Double>
    ) {
        (self.coverage, self.color, self.margin, self.offset, self.box) = (
            coverage, color, margin, offset, box
        )
    }

    /// The pictures blurred by a Gaussian of standard deviation `radius` (as `GaussianBlur`),
    /// grown by the blur's reach and cut again to what is not transparent. Drawing a picture
    /// blurred once and compositing it is what blurring it each time it is composited gives,
    /// to the 8-bit rounding of the stored texels: the blur is linear and moves with the
    /// picture, and a tint (a diagonal colour matrix) commutes with it.
    public func blurred(radius: Double) -> TextImage {
        let blur = GaussianBlur(radius: radius)
        guard !blur.isIdentity, let size = (coverage ?? color).map({ SIMD2($0.width, $0.height) }) else {
            return self
        }
        let reach = blur.reach
        let grown = size &+ 2 &* reach
        // Transparent all round, by at least the reach: the blur's clamp to edge repeats nothing.
        func blurredBand(_ image: RasterImage?) -> PlanarBand? {
            guard let image else { return nil }
            let band = PlanarBand(width: grown.x, rows: grown.y)
            let level = image.levels[0]
            for y in 0..<size.y {
                for x in 0..<size.x {
                    let t = level.texels[y * level.stride + x]
                    let i = (y + reach) * band.stride + x + reach
                    band.r[i] = Float(t & 0xFF) / 255
                    band.g[i] = Float(t >> 8 & 0xFF) / 255
                    band.b[i] = Float(t >> 16 & 0xFF) / 255
                    band.a[i] = Float(t >> 24) / 255
                }
            }
            blur.apply(to: band, rowCount: grown.y, columns: 0..<grown.x)
            return band
        }
        let bands = [blurredBand(coverage), blurredBand(color)]
        // What rounds to a visible texel.
        var lo = grown, hi = SIMD2(-1, -1)
        for band in bands.compactMap({ $0 }) {
            for y in 0..<grown.y {
                for x in 0..<grown.x where band.a[y * band.stride + x] >= 0.5 / 255 {
                    lo = SIMD2(min(lo.x, x), min(lo.y, y))
                    hi = SIMD2(max(hi.x, x), max(hi.y, y))
                }
            }
        }
        guard hi.x >= lo.x else {
            return TextImage(coverage: nil, color: nil, margin: margin, offset: .zero, box: box)
        }
        let cut = hi &- lo &+ 1
        func image(_ band: PlanarBand?) -> RasterImage? {
            guard let band else { return nil }
            return Self.image(width: cut.x, height: cut.y) { i in
                let j = (lo.y + i / cut.x) * band.stride + lo.x + i % cut.x
                return (band.r[j], band.g[j], band.b[j], band.a[j])
            }
        }
        return TextImage(
            coverage: image(bands[0]), color: image(bands[1]), margin: margin,
            offset: offset &- reach &+ lo, box: box)
    }

    /// A colour bitmap (a strike scaled to the size) drawn box-filtered (each pixel the average of
    /// the texels under it), source-over.
    private static func drawScaled(
        _ bitmap: GlyphBitmap, at pen: SIMD2<Double>, into rgba: inout [Float], region: Region
    ) {
        let s = bitmap.scale
        let left = pen.x + Double(bitmap.left) * s, top = pen.y - Double(bitmap.top) * s
        let right = left + Double(bitmap.width) * s, bottom = top + Double(bitmap.height) * s
        let x0 = max(region.lo.x, SaturatingConversion.int(left, .down)),
            x1 = min(region.hi.x, SaturatingConversion.int(right, .up))
        let y0 = max(region.lo.y, SaturatingConversion.int(top, .down)),
            y1 = min(region.hi.y, SaturatingConversion.int(bottom, .up))
        let width = region.hi.x - region.lo.x
        guard x0 < x1, y0 < y1 else { return }
        // Averaging rather than sampling keeps a 109-pixel strike from aliasing at text sizes.
        for ty in y0..<y1 {
            for tx in x0..<x1 {
                let u0 = (Double(tx) - left) / s, u1 = (Double(tx + 1) - left) / s
                let v0 = (Double(ty) - top) / s, v1 = (Double(ty + 1) - top) / s
                var sum = SIMD4<Double>.zero
                for v in max(
                    0, SaturatingConversion.int(v0, .down))..<min(
                        bitmap.height, SaturatingConversion.int(v1, .up))
                {
                    let hv = min(v1, Double(v + 1)) - max(v0, Double(v))
                    guard hv > 0 else { continue }
                    for u in max(
                        0, SaturatingConversion.int(u0, .down))..<min(
                            bitmap.width, SaturatingConversion.int(u1, .up))
                    {
                        let hu = min(u1, Double(u + 1)) - max(u0, Double(u))
                        guard hu > 0 else { continue }
                        let i = (v * bitmap.width + u) * 4
                        let texel = SIMD4(
                            Double(bitmap.premultipliedRGBA[i]), Double(bitmap.premultipliedRGBA[i + 1]),
                            Double(bitmap.premultipliedRGBA[i + 2]), Double(bitmap.premultipliedRGBA[i + 3]))
                        sum += texel * (hu * hv)
                    }
                }
                // Pixels the strike only partly covers get that share of its colour.
                let area = (u1 - u0) * (v1 - v0)
                guard area > 0 else { continue }
                let c = SIMD4<Float>(sum / area / 255)
                let o = ((ty - region.lo.y) * width + tx - region.lo.x) * 4
                let remain = 1 - c.w
                for k in 0..<4 { rgba[o + k] = c[k] + rgba[o + k] * remain }
            }
        }
    }

    private static func image(width: Int, height: Int, _ pixel: (Int) -> (Float, Float, Float, Float))
        -> RasterImage
    {
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        for i in 0..<(width * height) {
            let (r, g, b, a) = pixel(i)
            let alpha = min(max(a, 0), 1)
            bytes[4 * i] = UInt8((min(max(r, 0), alpha) * 255).rounded())
            bytes[4 * i + 1] = UInt8((min(max(g, 0), alpha) * 255).rounded())
            bytes[4 * i + 2] = UInt8((min(max(b, 0), alpha) * 255).rounded())
            bytes[4 * i + 3] = UInt8((alpha * 255).rounded())
        }
        return RasterImage(width: width, height: height, premultipliedRGBA: bytes)
    }
}

/// One glyph of one face at one phase: what a text's strokes are kept by while it is drawn.
private struct StrokedGlyph: Hashable {
    let face: ObjectIdentifier
    let glyph: UInt32
    let phase: Int
}
