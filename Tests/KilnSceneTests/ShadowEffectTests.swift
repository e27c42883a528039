import Foundation
import KilnModel
import KilnRaster
import KilnScene
import XCTest

/// The `shadow` effect against a Double reference: the layer's alpha shifted (bilinearly) by
/// the offset, convolved with the sampled Gaussian (clamp to edge, as the blur treats the
/// frame's border), tinted, beneath the layer (inner: 1 − alpha, atop the layer: inside its
/// alpha, which stays as it was). Within 0.0125 of a unit (3.2 code values): the blur's three boxes are within 0.02
/// of the sampled Gaussian on a unit step (GaussianBlurTests), a shadow's alpha is at most 0.5
/// here, and two shadows overlap in one test. With Kiln's own `GaussianBlur` as the reference's
/// blur, what is left (shift, tint, compositing) agrees within 1e-4.
final class ShadowEffectTests: XCTestCase {
    let width = 200, height = 160
    /// The white card: columns 60..<110, rows 50..<90, whole pixels so its alpha is exact.
    let card = (x: 60, y: 50, w: 50, h: 40)
    let tolerance = 0.0125

    struct Plane {
        let width: Int, height: Int
        var values: [Double]
        init(width: Int, height: Int, _ value: (Int, Int) -> Double) {
            self.width = width
            self.height = height
            values = (0..<(width * height)).map { value($0 % width, $0 / width) }
        }
        subscript(x: Int, y: Int) -> Double { values[y * width + x] }
        /// Clamp to edge.
        func clamped(_ x: Int, _ y: Int) -> Double {
            self[min(max(x, 0), width - 1), min(max(y, 0), height - 1)]
        }
    }

    func cardAlpha(scale: Int = 1) -> Plane {
        Plane(width: width / scale, height: height / scale) { x, y in
            (card.x / scale..<(card.x + card.w) / scale).contains(x)
                && (card.y / scale..<(card.y + card.h) / scale).contains(y) ? 1 : 0
        }
    }

    /// `plane` shifted by `offset` (bilinear, clamp to edge) then blurred by the sampled Gaussian.
    func shadowed(_ plane: Plane, sigma: Double, offset: SIMD2<Double>) -> Plane {
        let fx = offset.x - offset.x.rounded(.down), fy = offset.y - offset.y.rounded(.down)
        let ix = Int(offset.x.rounded(.down)), iy = Int(offset.y.rounded(.down))
        var out = Plane(width: plane.width, height: plane.height) { x, y in
            let sx = x - ix, sy = y - iy
            return fx * fy * plane.clamped(sx - 1, sy - 1) + (1 - fx) * fy * plane.clamped(sx, sy - 1)
                + fx * (1 - fy) * plane.clamped(sx - 1, sy) + (1 - fx) * (1 - fy) * plane.clamped(sx, sy)
        }
        guard sigma >= GaussianBlur.identityThreshold else { return out }
        let radius = Int(5 * sigma) + 1
        var kernel = (-radius...radius).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let total = kernel.reduce(0, +)
        kernel = kernel.map { $0 / total }
        let rows = out
        let horizontal = Plane(width: plane.width, height: plane.height) { x, y in
            (-radius...radius).reduce(0.0) { $0 + kernel[$1 + radius] * rows.clamped(x + $1, y) }
        }
        out = Plane(width: plane.width, height: plane.height) { x, y in
            (-radius...radius).reduce(0.0) { $0 + kernel[$1 + radius] * horizontal.clamped(x, y + $1) }
        }
        return out
    }

    /// The shifted alpha blurred by `GaussianBlur` itself (full resolution: σ below 12).
    func blurredByKiln(_ plane: Plane, sigma: Double, offset: SIMD2<Double>) -> Plane {
        let shifted = shadowed(plane, sigma: 0, offset: offset)
        let band = PlanarBand(width: plane.width, rows: plane.height)
        for y in 0..<plane.height {
            for x in 0..<plane.width {
                let v = Float(shifted[x, y])
                let i = y * band.stride + x
                (band.r[i], band.g[i], band.b[i], band.a[i]) = (v, v, v, v)
            }
        }
        GaussianBlur(radius: sigma).apply(to: band, rowCount: plane.height, columns: 0..<plane.width)
        return Plane(width: plane.width, height: plane.height) { Double(band.a[$1 * band.stride + $0]) }
    }

    func testShiftAndTintAreExact() throws {
        let alpha = cardAlpha()
        for (sigma, x, y) in [(3.0, 7.5, 5.25), (7.5, -3.25, 2.75)] {
            let color = SIMD4<Double>(0.3, 0.6, 0.6, 0.6)
            let band = render(
                try job(
                    #"{"shadow": {"color": [0.5, 1, 1, 0.6], "radius": \#(sigma), "x": \#(x), "y": \#(y)}}"#))
            let shadow = blurredByKiln(alpha, sigma: sigma, offset: SIMD2(x, y))
            let error = worst(band) { px, py in
                over(SIMD4(repeating: alpha[px, py]), color * shadow[px, py])
            }
            XCTAssertLessThan(error, 1e-4, "σ \(sigma), offset (\(x), \(y))")
        }
    }

    /// The job's frame at time 0 as premultiplied floats, on `threads` workers.
    func render(_ job: Job, canvas: Canvas? = nil, threads: Int = 2) -> PlanarBand {
        let canvas = canvas ?? Canvas(output: job.output)
        let stack = LayerStack(items: job.layers.compactMap { $0.prepare(at: 0, canvas: canvas) })
        stack.renderOffscreens(canvas: canvas, threads: threads)
        let band = PlanarBand(width: canvas.width, rows: canvas.height)
        stack.paint(
            into: band, firstRow: 0, rows: canvas.height, columns: 0..<canvas.width,
            pool: BandPool(width: canvas.width, rows: canvas.height))
        return band
    }

    func job(_ shadows: String, fill: String = "#ffffff") throws -> Job {
        try Fixture.job(
            """
            {"kiln": 1, "output": {"width": \(width), "height": \(height), "fps": 30, "duration": 1},
             "layers": [{"type": "shape", "size": [\(card.w), \(card.h)], "fill": "\(fill)",
               "position": [\(card.x), \(card.y)], "anchor": [0, 0], "effects": [\(shadows)]}]}
            """)
    }

    /// Largest difference over every pixel and channel between `band` and `want` (r, g, b, a).
    func worst(_ band: PlanarBand, _ want: (Int, Int) -> SIMD4<Double>) -> Double {
        var worst = 0.0
        for y in 0..<band.capacityRows {
            for x in 0..<band.width {
                let i = y * band.stride + x
                let got = SIMD4(Double(band.r[i]), Double(band.g[i]), Double(band.b[i]), Double(band.a[i]))
                let d = got - want(x, y)
                worst = max(worst, max(d.max(), -d.min()))
            }
        }
        return worst
    }

    /// src over dst, premultiplied.
    func over(_ src: SIMD4<Double>, _ dst: SIMD4<Double>) -> SIMD4<Double> { src + dst * (1 - src.w) }

    /// src atop dst, premultiplied: inside dst's alpha, which it keeps.
    func atop(_ src: SIMD4<Double>, _ dst: SIMD4<Double>) -> SIMD4<Double> {
        var out = src * dst.w + dst * (1 - src.w)
        out.w = dst.w
        return out
    }

    func testDropShadowMatchesReference() throws {
        let alpha = cardAlpha()
        for (sigma, x, y) in [(0.0, 6.0, 4.0), (3, 7.5, 5.25), (12.5, -4, 9), (20, 10.25, -6.5)] {
            let color = SIMD4<Double>(0, 0.2, 0.5, 0.5)
            let band = render(
                try job(
                    #"{"shadow": {"color": [0, 0.4, 1, 0.5], "radius": \#(sigma), "x": \#(x), "y": \#(y)}}"#))
            let shadow = shadowed(alpha, sigma: sigma, offset: SIMD2(x, y))
            let error = worst(band) { px, py in
                over(SIMD4(repeating: alpha[px, py]), color * shadow[px, py])
            }
            XCTAssertLessThan(error, tolerance, "σ \(sigma), offset (\(x), \(y))")
        }
    }

    func testInnerShadowMatchesReference() throws {
        let alpha = cardAlpha()
        let inverse = Plane(width: width, height: height) { 1 - alpha[$0, $1] }
        for (sigma, x, y) in [(4.0, 5.0, 3.5), (16, -2.75, 8)] {
            let color = SIMD4<Double>(0.5, 0, 0, 0.5)
            let band = render(
                try job(
                    #"{"shadow": {"color": [1, 0, 0, 0.5], "radius": \#(sigma), "x": \#(x), "y": \#(y), "inner": true}}"#
                ))
            let shadow = shadowed(inverse, sigma: sigma, offset: SIMD2(x, y))
            let error = worst(band) { px, py in
                atop(color * shadow[px, py], SIMD4(repeating: alpha[px, py]))
            }
            XCTAssertLessThan(error, tolerance, "inner σ \(sigma), offset (\(x), \(y))")
        }
    }

    /// On a half-transparent layer an inner shadow darkens the colour and leaves the alpha as it
    /// was (source-atop): a source-over would make the layer more opaque where the shadow falls.
    func testInnerShadowKeepsAHalfTransparentLayersAlpha() throws {
        let alpha = Plane(width: width, height: height) { 128.0 / 255 * cardAlpha()[$0, $1] }
        let inverse = Plane(width: width, height: height) { 1 - alpha[$0, $1] }
        let band = render(
            try job(
                #"{"shadow": {"color": [0, 0, 0, 0.8], "radius": 6, "x": 4, "y": 4, "inner": true}}"#,
                fill: "#ffffff80"))
        let shadow = shadowed(inverse, sigma: 6, offset: SIMD2(4, 4))
        let error = worst(band) { px, py in
            atop(SIMD4(0, 0, 0, 0.8) * shadow[px, py], SIMD4(repeating: alpha[px, py]))
        }
        XCTAssertLessThan(error, tolerance)
        var alphaError = 0.0
        for y in 0..<height {
            for x in 0..<width {
                alphaError = max(alphaError, abs(Double(band.a[y * band.stride + x]) - alpha[x, y]))
            }
        }
        XCTAssertLessThan(alphaError, 0.002, "the layer's alpha is what it was without the shadow")
    }

    /// A stage after the shadows applies to the layer and its shadows together: an opacity of
    /// 0.5 after a drop shadow halves both, so the card fades out with its shadow.
    func testAStageAfterTheShadowsAppliesToBoth() throws {
        let shadow = #"{"shadow": {"color": [0, 0, 0, 0.6], "radius": 5, "x": 9, "y": 7}}"#
        let whole = render(try job(shadow))
        let faded = render(try job(shadow + #", {"opacity": 0.5}"#))
        var worst = 0.0, shadowSeen = false
        for y in 0..<height {
            for x in 0..<width {
                let i = y * whole.stride + x
                if whole.a[i] > 0.05, !(card.x..<(card.x + card.w)).contains(x) { shadowSeen = true }
                for (a, b) in [
                    (whole.r, faded.r), (whole.g, faded.g), (whole.b, faded.b), (whole.a, faded.a),
                ] {
                    worst = max(worst, abs(Double(a[i]) * 0.5 - Double(b[i])))
                }
            }
        }
        XCTAssertTrue(shadowSeen, "the shadow shows beside the card")
        XCTAssertLessThan(worst, 1e-4, "shadow and card fade as one")
    }

    /// Consecutive shadows are cast by the same layer, the first written on top.
    func testSeveralShadowsFirstOnTop() throws {
        let alpha = cardAlpha()
        let band = render(
            try job(
                #"{"shadow": {"color": [1, 0, 0, 0.5], "radius": 2, "x": 8, "y": 8}}, {"shadow": {"color": [0, 0, 1, 0.5], "radius": 6, "x": 12, "y": 3}}, {"shadow": {"color": [0, 1, 0, 0.4], "radius": 3, "inner": true, "y": 4}}"#
            ))
        let red = shadowed(alpha, sigma: 2, offset: SIMD2(8, 8))
        let blue = shadowed(alpha, sigma: 6, offset: SIMD2(12, 3))
        let inner = shadowed(
            Plane(width: width, height: height) { 1 - alpha[$0, $1] }, sigma: 3, offset: SIMD2(0, 4))
        let error = worst(band) { x, y in
            let below = over(SIMD4(0.5, 0, 0, 0.5) * red[x, y], SIMD4(0, 0, 0.5, 0.5) * blue[x, y])
            let layer = atop(SIMD4(0, 0.4, 0, 0.4) * inner[x, y], SIMD4(repeating: alpha[x, y]))
            return over(layer, below)
        }
        XCTAssertLessThan(error, tolerance)
    }

    /// In a half-size draft the radius and offset halve with the layout (`Canvas.lengthScale`).
    func testDraftScalesRadiusAndOffset() throws {
        let half = Canvas(
            width: width / 2, height: height / 2, layoutSize: SIMD2(Double(width), Double(height)))
        let band = render(
            try job(#"{"shadow": {"color": [0, 0, 0, 0.5], "radius": 8, "x": 10, "y": 6}}"#), canvas: half)
        let alpha = cardAlpha(scale: 2)
        let shadow = shadowed(alpha, sigma: 4, offset: SIMD2(5, 3))
        let error = worst(band) { x, y in
            over(SIMD4(repeating: alpha[x, y]), SIMD4(0, 0, 0, 0.5) * shadow[x, y])
        }
        XCTAssertLessThan(error, tolerance)
    }

    /// A shadow fully transparent, or unused, changes nothing and costs no offscreen.
    func testInvisibleShadowIsLeftOut() throws {
        let canvas = Canvas(width: width, height: height)
        let job = try job(#"{"shadow": {"color": [0, 0, 0, 0]}}"#)
        let stack = LayerStack(items: job.layers.compactMap { $0.prepare(at: 0, canvas: canvas) })
        var offscreens: [Offscreen] = []
        stack.collectOffscreens(into: &offscreens)
        XCTAssertTrue(offscreens.isEmpty)
    }

    /// Band skipping: the item's extent holds the shadow's offset and reach.
    func testExtentGrowsByOffsetAndReach() throws {
        let canvas = Canvas(width: width, height: height)
        let job = try job(#"{"shadow": {"radius": 3, "x": 20, "y": 30}}"#)
        let item = try XCTUnwrap(job.layers.first?.prepare(at: 0, canvas: canvas))
        let extent = try XCTUnwrap(item.layer.extent)
        let reach = GaussianBlur(radius: 3).reach
        XCTAssertLessThanOrEqual(extent.rows.lowerBound, card.y)
        XCTAssertGreaterThanOrEqual(extent.rows.upperBound, card.y + card.h + 30 + reach)
        XCTAssertGreaterThanOrEqual(extent.columns.upperBound, card.x + card.w + 20 + reach)
    }

    func testThreadsGiveIdenticalBytes() throws {
        let job = try job(
            #"{"shadow": {"radius": 25, "x": 7.3, "y": 11.6}}, {"shadow": {"color": [1, 0, 0, 0.5], "radius": 3, "inner": true, "x": -2.5, "y": 2}}"#
        )
        let one = Fixture.render(job, threads: 1).byteArray
        for threads in [2, 3, 8] {
            XCTAssertEqual(one, Fixture.render(job, threads: threads).byteArray, "\(threads) threads")
        }
    }
}
