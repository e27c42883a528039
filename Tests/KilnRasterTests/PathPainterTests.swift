import XCTest

@testable import KilnRaster

final class PathPainterTests: XCTestCase {
    static let white = SIMD4<Float>(1, 1, 1, 1)

    /// Alpha of every pixel of a `width` × `height` frame painted in bands of `bandRows`.
    func alphas(
        _ painter: PathPainter?, width: Int, height: Int, bandRows: Int = 1_000, over: Bool = false
    ) -> [Float] {
        var result: [Float] = []
        var first = 0
        while first < height {
            let count = min(bandRows, height - first)
            let band = PlanarBand(width: width, rows: count)
            band.fill(.transparent, rows: count)
            if let painter {
                if over {
                    painter.paintOver(
                        into: band, firstRow: first, rows: count, columns: 0..<width, opacity: 1)
                } else {
                    painter.paint(into: band, firstRow: first, rows: count, columns: 0..<width)
                }
            }
            for r in 0..<count { for x in 0..<width { result.append(band.pixel(x: x, row: r).a) } }
            first += count
        }
        return result
    }

    func painter(
        _ path: VectorPath, rule: FillRule = .nonZero, stroke: StrokeStyle? = nil,
        transform: Affine2D = .identity, width: Int = 64, height: Int = 64
    ) -> PathPainter? {
        PathPainter(
            path: path, fillRule: rule, stroke: stroke, frameFromLocal: transform, paint: .solid(Self.white),
            frameWidth: width, frameHeight: height)
    }

    func testAxisAlignedRectangleIsExact() {
        let rect = VectorPath.rect(origin: SIMD2(10.25, 20.5), size: SIMD2(10.5, 5))
        let a = alphas(painter(rect), width: 64, height: 64)
        XCTAssertEqual(a[22 * 64 + 10], 0.75, accuracy: 1e-6)
        XCTAssertEqual(a[22 * 64 + 15], 1, accuracy: 1e-6)
        XCTAssertEqual(a[22 * 64 + 20], 0.75, accuracy: 1e-6)
        XCTAssertEqual(a[20 * 64 + 15], 0.5, accuracy: 1e-6)
        XCTAssertEqual(a[20 * 64 + 10], 0.375, accuracy: 1e-6)
        XCTAssertEqual(a[19 * 64 + 15], 0)
        XCTAssertEqual(a.reduce(0, +), 10.5 * 5, accuracy: 1e-3)
    }

    func testCircleAreaAndRotationInvariance() {
        let circle = VectorPath.ellipse(center: SIMD2(32, 32), radii: SIMD2(20, 20))
        let total = alphas(painter(circle), width: 64, height: 64).reduce(0, +)
        // The four cubics bulge out of the circle by up to 2.7e-4 of its radius, and their chords
        // fall inside them by up to 1/256 px: the area is the circle's within a thousandth.
        XCTAssertEqual(total, Float.pi * 400, accuracy: Float.pi * 400 * 1e-3)
        let square = VectorPath.rect(origin: SIMD2(-10, -10), size: SIMD2(20, 20))
        let turned = Affine2D.translation(32, 32).concatenating(.rotation(sin: 0.6, cos: 0.8))
        XCTAssertEqual(
            alphas(painter(square, transform: turned), width: 64, height: 64).reduce(0, +), 400,
            accuracy: 0.05)
    }

    func testFillRules() throws {
        // Two squares, the inner one the same direction: non-zero fills it, even-odd punches it.
        let path = try SVGPathData.parse("M8 8H56V56H8Z M24 24H40V40H24Z")
        let nonZero = alphas(painter(path, rule: .nonZero), width: 64, height: 64)
        let evenOdd = alphas(painter(path, rule: .evenOdd), width: 64, height: 64)
        XCTAssertEqual(nonZero[32 * 64 + 32], 1)
        XCTAssertEqual(evenOdd[32 * 64 + 32], 0)
        XCTAssertEqual(evenOdd[16 * 64 + 16], 1)
        XCTAssertEqual(evenOdd.reduce(0, +), 48 * 48 - 16 * 16, accuracy: 1e-2)
    }

    func testStrokeCapsJoinsAndStretch() throws {
        let line = try SVGPathData.parse("M20 32H44")
        func area(_ style: StrokeStyle, _ path: VectorPath, transform: Affine2D = .identity) -> Float {
            alphas(painter(path, stroke: style, transform: transform), width: 64, height: 64).reduce(0, +)
        }
        XCTAssertEqual(area(StrokeStyle(width: 4), line), 96, accuracy: 0.01)
        XCTAssertEqual(area(StrokeStyle(width: 4, cap: .square), line), 112, accuracy: 0.01)
        XCTAssertEqual(area(StrokeStyle(width: 4, cap: .round), line), 96 + 4 * .pi, accuracy: 0.1)
        // A non-uniform scale stretches the stroke with the path: 2× vertically doubles its width.
        XCTAssertEqual(
            area(StrokeStyle(width: 4), line, transform: .translation(0, -32).concatenating(.scale(1, 2))),
            192,
            accuracy: 0.01)
        // A right angle: miter fills the corner square, bevel half of it, round a quarter disc.
        let corner = try SVGPathData.parse("M16 32H40V56")
        let miter = area(StrokeStyle(width: 8, join: .miter), corner)
        let bevel = area(StrokeStyle(width: 8, join: .bevel), corner)
        let round = area(StrokeStyle(width: 8, join: .round), corner)
        XCTAssertEqual(miter - bevel, 8, accuracy: 0.05)
        XCTAssertEqual(round - bevel, 16 * .pi / 4 - 8, accuracy: 0.2)
        // Below the miter limit the miter falls back to a bevel.
        XCTAssertEqual(
            area(StrokeStyle(width: 8, join: .miter, miterLimit: 1.2), corner), bevel, accuracy: 0.01)
        // A closed square stroke: outer 28² minus inner 20², all joins mitered.
        let square = try SVGPathData.parse("M18 18H42V42H18Z")
        XCTAssertEqual(area(StrokeStyle(width: 4), square), 28 * 28 - 20 * 20, accuracy: 0.05)
        // Zero-length subpaths: dots for round and square caps, nothing for butt.
        let dot = try SVGPathData.parse("M32 32L32 32")
        XCTAssertEqual(area(StrokeStyle(width: 6, cap: .square), dot), 36, accuracy: 0.01)
        XCTAssertEqual(area(StrokeStyle(width: 6, cap: .round), dot), 9 * .pi, accuracy: 0.1)
        XCTAssertNil(painter(dot, stroke: StrokeStyle(width: 6)))
    }

    func testBandSplitsAgreeBitForBit() throws {
        let star = try SVGPathData.parse("M50 5L79 95L2 40H98L21 95Z")
        for rule in FillRule.allCases {
            let p = painter(
                star, rule: rule, transform: .rotation(sin: 0.1, cos: 0.995), width: 100, height: 100)
            let whole = alphas(p, width: 100, height: 100)
            for bandRows in [1, 3, 7, 16] {
                XCTAssertEqual(alphas(p, width: 100, height: 100, bandRows: bandRows), whole)
                XCTAssertEqual(alphas(p, width: 100, height: 100, bandRows: bandRows, over: true), whole)
            }
        }
    }

    func testSIMDResolveMatchesScalar() throws {
        let p = try XCTUnwrap(painter(VectorPath.rect(origin: .zero, size: SIMD2(4, 4)), rule: .evenOdd))
        let q = try XCTUnwrap(painter(VectorPath.rect(origin: .zero, size: SIMD2(4, 4)), rule: .nonZero))
        var values: [Float] = []
        for i in -64...64 { values.append(Float(i) * 0.0625 + 0.003) }
        for start in stride(from: 0, to: values.count - 8, by: 8) {
            let v = SIMD8<Float>(values[start..<(start + 8)])
            for painter in [p, q] {
                let simd = painter.resolve(v)
                for lane in 0..<8 { XCTAssertEqual(simd[lane], painter.resolveScalar(v[lane])) }
            }
        }
    }

    /// The kernel (zero chunks skipped, strips of rows, cells cleared as read) against the plain
    /// definition: bit for bit.
    func testCoverageKernelMatchesScalarReference() throws {
        let curves = try SVGPathData.parse(
            "M10 80C10 10 90 10 90 80S50 40 30 90Q60 60 80 95T20 50A30 20 30 1 1 60 70Z M5 5H200V7H5Z")
        for rule in FillRule.allCases {
            let p = try XCTUnwrap(
                painter(
                    curves, rule: rule, transform: .translation(3.3, 1.7).concatenating(.scale(1.9, 1.3)),
                    width: 300, height: 200))
            let count = p.rows.count
            XCTAssertEqual(
                p.coverage(firstRow: p.rows.lowerBound, count: count),
                p.scalarCoverage(firstRow: p.rows.lowerBound, count: count))
        }
        // Narrow windows leave no cells behind for the next strip: each window matches the whole.
        let p = try XCTUnwrap(painter(curves, rule: .evenOdd, width: 100, height: 100))
        let whole = PlanarBand(width: 100, rows: 100)
        p.paint(into: whole, firstRow: 0, rows: 100, columns: 0..<100)
        let parts = PlanarBand(width: 100, rows: 100)
        for window in [0..<13, 13..<40, 40..<41, 41..<100] {
            p.paint(into: parts, firstRow: 0, rows: 100, columns: window)
        }
        for y in 0..<100 {
            for x in 0..<100 {
                XCTAssertEqual(whole.pixel(x: x, row: y), parts.pixel(x: x, row: y), "\(x), \(y)")
            }
        }
    }

    /// A tall band painted in one call (many strips) equals 8-row bands.
    func testTallBandEqualsSmallBands() throws {
        let circle = VectorPath.ellipse(center: SIMD2(300, 300), radii: SIMD2(200, 200))
        let p = painter(circle, transform: .rotation(sin: 0.5, cos: 0.866), width: 600, height: 600)
        XCTAssertEqual(alphas(p, width: 600, height: 600), alphas(p, width: 600, height: 600, bandRows: 8))
    }

    func testClippingAndHostileGeometry() throws {
        // Mostly off the frame: only the visible part is counted.
        let big = VectorPath.rect(origin: SIMD2(-1e6, 10), size: SIMD2(2e6, 10))
        let a = alphas(painter(big), width: 64, height: 64)
        XCTAssertEqual(a.reduce(0, +), 640, accuracy: 0.1)
        XCTAssertNil(painter(VectorPath.rect(origin: SIMD2(100, 100), size: SIMD2(5, 5))))
        var nan = VectorPath()
        nan.move(to: SIMD2(.nan, 0))
        nan.line(to: SIMD2(10, 10))
        nan.line(to: SIMD2(0, 10))
        // The edges touching NaN are dropped; what is left is a horizontal line: nothing.
        XCTAssertNil(painter(nan))
        let huge = try SVGPathData.parse("M0 0C1e300 1e300 -1e300 1e300 60 60Z")
        _ = alphas(painter(huge), width: 64, height: 64)
        // Window: painting a sub-window leaves the rest alone.
        let p = try XCTUnwrap(painter(VectorPath.rect(origin: SIMD2(0, 0), size: SIMD2(64, 64))))
        let band = PlanarBand(width: 64, rows: 4)
        band.fill(PremultipliedColor(r: 0, g: 0, b: 0, a: 0.5), rows: 4)
        p.paint(into: band, firstRow: 0, rows: 4, columns: 16..<24)
        XCTAssertEqual(band.pixel(x: 15, row: 0).a, 0.5)
        XCTAssertEqual(band.pixel(x: 16, row: 0).a, 1)
        XCTAssertEqual(band.pixel(x: 24, row: 0).a, 0.5)
    }
}
