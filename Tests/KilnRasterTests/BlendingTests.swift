import KilnRaster
import KilnTestSupport
import XCTest

/// The blend kernels against a plain Double transcription of the formulas of W3C Compositing
/// and Blending Level 1 (§ 10) and of the plus operators, over a grid of premultiplied colours
/// and alphas (0 and 1 included on both sides).
final class BlendingTests: XCTestCase {
    /// Premultiplied pixels: every straight colour of a 5-level grid and a few random ones, at
    /// alphas 0, 0.25, 0.6 and 1.
    static let pixels: [SIMD4<Float>] = {
        let levels: [Double] = [0, 0.2, 0.5, 0.8, 1]
        var colors: [SIMD3<Double>] = []
        for r in levels { for g in levels { for b in levels { colors.append(SIMD3(r, g, b)) } } }
        var random = SplitMix(state: 38)
        for _ in 0..<15 {
            colors.append(
                SIMD3(
                    Double.random(in: 0...1, using: &random), Double.random(in: 0...1, using: &random),
                    Double.random(in: 0...1, using: &random)))
        }
        return [0, 0.25, 0.6, 1].flatMap { alpha in
            colors.map { c in SIMD4(Float(c.x * alpha), Float(c.y * alpha), Float(c.z * alpha), Float(alpha))
            }
        }
    }()

    func testEveryModeWithinOneCodeValueOfTheReference() {
        let pixels = Self.pixels
        let count = pixels.count
        // Row j holds source pixel j in every column; every row of the backdrop holds every pixel.
        let src = PlanarBand(width: count, rows: count), dst = PlanarBand(width: count, rows: count)
        for opacity: Float in [1, 0.7] {
            for mode in [nil] + BlendFormula.allCases.map(Optional.some) {
                for row in 0..<count {
                    for x in 0..<count {
                        write(pixels[row], into: src, at: row * src.stride + x)
                        write(pixels[x], into: dst, at: row * dst.stride + x)
                    }
                }
                if let mode {
                    Compositing.blend(src, onto: dst, formula: mode, opacity: opacity, rows: count)
                } else {
                    Compositing.sourceOver(src, onto: dst, opacity: opacity, rows: count)
                }
                var worst = 0.0
                var worstCase = ""
                for row in 0..<count {
                    let s = SIMD4<Double>(pixels[row]) * Double(opacity)
                    for x in 0..<count {
                        let expected = BlendReference.composite(
                            mode, source: s, backdrop: SIMD4<Double>(pixels[x]))
                        let got = read(dst, at: row * dst.stride + x)
                        for channel in 0..<4 {
                            let error = abs(got[channel] - expected[channel])
                            if error > worst {
                                worst = error
                                worstCase = "source \(s), backdrop \(pixels[x]): \(got) for \(expected)"
                            }
                        }
                    }
                }
                let name = mode.map { "\($0)" } ?? "normal"
                XCTAssertLessThanOrEqual(worst * 255, 1, "\(name) at opacity \(opacity): \(worstCase)")
                // Measured for the record: what the kernels' Float arithmetic costs.
                print("blend \(name) opacity \(opacity): largest error \(worst * 255) code values")
            }
        }
    }

    /// Over a transparent backdrop (the bottom of a stack) every mode leaves the source as it is:
    /// the very bytes source-over writes.
    func testOverTransparencyEveryModeIsSourceOver() {
        let pixels = Self.pixels
        let width = pixels.count
        let src = PlanarBand(width: width, rows: 1)
        for (x, pixel) in pixels.enumerated() { write(pixel, into: src, at: x) }
        let expected = PlanarBand(width: width, rows: 1)
        expected.fill(.transparent, rows: 1)
        Compositing.sourceOver(src, onto: expected, opacity: 0.7, rows: 1)
        for mode in BlendFormula.allCases {
            let dst = PlanarBand(width: width, rows: 1)
            dst.fill(.transparent, rows: 1)
            Compositing.blend(src, onto: dst, formula: mode, opacity: 0.7, rows: 1)
            for x in 0..<width {
                XCTAssertEqual(read(dst, at: x), read(expected, at: x), "\(mode) at \(x)")
            }
        }
    }

    /// Within a window, the pixels of the edge chunks outside it keep what the backdrop held, and
    /// the source's leftovers there count for nothing.
    func testWindowEdgesAreLeftAlone() {
        let width = 24
        let backdrop = PremultipliedColor(r: 0.6, g: 0.3, b: 0.1, a: 0.8)
        for mode in BlendFormula.allCases {
            let src = PlanarBand(width: width, rows: 1), dst = PlanarBand(width: width, rows: 1)
            src.fill(PremultipliedColor(r: 0.9, g: 0.9, b: 0.9, a: 0.9), rows: 1)
            dst.fill(backdrop, rows: 1)
            Compositing.blend(src, onto: dst, formula: mode, opacity: 1, rows: 1, columns: 3..<13)
            let whole = PlanarBand(width: width, rows: 1)
            whole.fill(backdrop, rows: 1)
            Compositing.blend(src, onto: whole, formula: mode, opacity: 1, rows: 1)
            for x in 0..<width {
                let expected = (3..<13).contains(x) ? read(whole, at: x) : read(dst, at: 23)
                XCTAssertEqual(read(dst, at: x), expected, "\(mode) at \(x)")
            }
            XCTAssertEqual(dst.pixel(x: 23, row: 0), backdrop)
        }
    }

    private func write(_ p: SIMD4<Float>, into band: PlanarBand, at i: Int) {
        band.r[i] = p.x
        band.g[i] = p.y
        band.b[i] = p.z
        band.a[i] = p.w
    }

    private func read(_ band: PlanarBand, at i: Int) -> SIMD4<Double> {
        SIMD4(Double(band.r[i]), Double(band.g[i]), Double(band.b[i]), Double(band.a[i]))
    }
}

/// The spec's formulas, transcribed one by one in Double with none of the kernels' shortcuts.
enum BlendReference {
    /// `source` and `backdrop` premultiplied (r, g, b, a); nil is normal (source-over).
    static func composite(_ mode: BlendFormula?, source s: SIMD4<Double>, backdrop b: SIMD4<Double>)
        -> SIMD4<Double>
    {
        let αs = s.w, αb = b.w
        switch mode {
        case .plusLighter:
            // co = min(1, cs + cb), αo = min(1, αs + αb).
            return SIMD4(min(1, s.x + b.x), min(1, s.y + b.y), min(1, s.z + b.z), min(1, αs + αb))
        case .plusDarker:
            // αo = min(1, αs + αb); co = max(0, αo − (αb − cb) − (αs − cs)).
            let αo = min(1, αs + αb)
            func channel(_ cs: Double, _ cb: Double) -> Double { max(0, αo - (αb - cb) - (αs - cs)) }
            return SIMD4(channel(s.x, b.x), channel(s.y, b.y), channel(s.z, b.z), αo)
        default:
            break
        }
        let Cs = unpremultiplied(s), Cb = unpremultiplied(b)
        var mixed: [Double]
        switch mode {
        case nil: mixed = Cs
        case .hue: mixed = setLum(setSat(Cs, sat(Cb)), lum(Cb))
        case .saturation: mixed = setLum(setSat(Cb, sat(Cs)), lum(Cb))
        case .color: mixed = setLum(Cs, lum(Cb))
        case .luminosity: mixed = setLum(Cb, lum(Cs))
        case let mode?: mixed = (0..<3).map { separable(mode, Cb[$0], Cs[$0]) }
        }
        mixed = mixed.map { min(max($0, 0), 1) }
        let premultiplied = [s.x, s.y, s.z], backdrop = [b.x, b.y, b.z]
        let co = (0..<3).map { i in
            premultiplied[i] * (1 - αb) + backdrop[i] * (1 - αs) + αs * αb * mixed[i]
        }
        return SIMD4(co[0], co[1], co[2], αs + αb * (1 - αs))
    }

    static func unpremultiplied(_ p: SIMD4<Double>) -> [Double] {
        guard p.w > 0 else { return [0, 0, 0] }
        return [p.x / p.w, p.y / p.w, p.z / p.w].map { min(max($0, 0), 1) }
    }

    static func separable(_ mode: BlendFormula, _ Cb: Double, _ Cs: Double) -> Double {
        func multiply(_ a: Double, _ b: Double) -> Double { a * b }
        func screen(_ a: Double, _ b: Double) -> Double { a + b - a * b }
        func hardLight(_ Cb: Double, _ Cs: Double) -> Double {
            Cs <= 0.5 ? multiply(Cb, 2 * Cs) : screen(Cb, 2 * Cs - 1)
        }
        switch mode {
        case .multiply: return multiply(Cb, Cs)
        case .screen: return screen(Cb, Cs)
        case .overlay: return hardLight(Cs, Cb)
        case .darken: return min(Cb, Cs)
        case .lighten: return max(Cb, Cs)
        case .colorDodge:
            if Cb == 0 { return 0 }
            if Cs == 1 { return 1 }
            return min(1, Cb / (1 - Cs))
        case .colorBurn:
            if Cb == 1 { return 1 }
            if Cs == 0 { return 0 }
            return 1 - min(1, (1 - Cb) / Cs)
        case .hardLight: return hardLight(Cb, Cs)
        case .softLight:
            if Cs <= 0.5 { return Cb - (1 - 2 * Cs) * Cb * (1 - Cb) }
            let D = Cb <= 0.25 ? ((16 * Cb - 12) * Cb + 4) * Cb : Cb.squareRoot()
            return Cb + (2 * Cs - 1) * (D - Cb)
        case .difference: return abs(Cb - Cs)
        case .exclusion: return Cb + Cs - 2 * Cb * Cs
        case .hue, .saturation, .color, .luminosity, .plusLighter, .plusDarker:
            preconditionFailure("\(mode) is not separable")
        }
    }

    static func lum(_ C: [Double]) -> Double { 0.3 * C[0] + 0.59 * C[1] + 0.11 * C[2] }

    static func clipColor(_ C: [Double]) -> [Double] {
        let L = lum(C), n = C.min()!, x = C.max()!
        var C = C
        if n < 0 { C = C.map { L + (($0 - L) * L) / (L - n) } }
        if x > 1 { C = C.map { L + (($0 - L) * (1 - L)) / (x - L) } }
        return C
    }

    static func setLum(_ C: [Double], _ l: Double) -> [Double] {
        let d = l - lum(C)
        return clipColor(C.map { $0 + d })
    }

    static func sat(_ C: [Double]) -> Double { C.max()! - C.min()! }

    /// The spec's min/mid/max form: the channels sorted, the middle one scaled.
    static func setSat(_ C: [Double], _ s: Double) -> [Double] {
        let order = C.indices.sorted { C[$0] < C[$1] }
        let (iMin, iMid, iMax) = (order[0], order[1], order[2])
        var out = C
        if C[iMax] > C[iMin] {
            out[iMid] = ((C[iMid] - C[iMin]) * s) / (C[iMax] - C[iMin])
            out[iMax] = s
        } else {
            out[iMid] = 0
            out[iMax] = 0
        }
        out[iMin] = 0
        return out
    }
}
