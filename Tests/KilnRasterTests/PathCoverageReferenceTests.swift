import Dispatch
import XCTest

@testable import KilnRaster

/// Path coverage against an exact-area reference (docs/job-format.md, "shape": curves within
/// 1/256 px, and the fill rule applied to the area itself, not to a sum of windings).
///
/// The reference is written from the definition, in Double and independently of the painter:
/// every curve cut into 4096 chords (far below a code value at these sizes), each pixel row cut
/// into 256 scanlines, and on each scanline the fill rule applied to the crossings sorted
/// along it, the inside spans measured exactly against each pixel. A scanline through the middle
/// of its 1/256 row is exact for straight edges, so only rows holding a vertex or a crossing
/// err, by far less than half a code value.
final class PathCoverageReferenceTests: XCTestCase {
    struct Segment {
        var a: SIMD2<Double>, b: SIMD2<Double>
    }

    /// The path's closed polygons with every curve cut into `steps` chords.
    static func segments(_ path: VectorPath, steps: Int = 4096) -> [Segment] {
        var result: [Segment] = []
        var start = SIMD2<Double>.zero, last = SIMD2<Double>.zero
        func add(_ p: SIMD2<Double>) {
            if p != last { result.append(Segment(a: last, b: p)) }
            last = p
        }
        for element in path.elements {
            switch element {
            case .move(let p):
                add(start)
                (start, last) = (p, p)
            case .line(let p): add(p)
            case .quad(let c, let p):
                let p0 = last
                for i in 1...steps {
                    let t = Double(i) / Double(steps), u = 1 - t
                    add(u * u * p0 + 2 * u * t * c + t * t * p)
                }
            case .cubic(let c1, let c2, let p):
                let p0 = last
                for i in 1...steps {
                    let t = Double(i) / Double(steps), u = 1 - t
                    add(u * u * u * p0 + 3 * u * u * t * c1 + 3 * u * t * t * c2 + t * t * t * p)
                }
            case .close: add(start)
            }
        }
        add(start)
        return result
    }

    /// Exact coverage 0…1 of each pixel of a `width` × `height` frame, row by row.
    static func reference(_ path: VectorPath, rule: FillRule, width: Int, height: Int) -> [Double] {
        let segments = segments(path)
        let lines = 256
        var coverage = [Double](repeating: 0, count: width * height)
        var rows = [[Segment]](repeating: [], count: height)
        for s in segments where s.a.y != s.b.y {
            let top = max(0, Int(min(s.a.y, s.b.y).rounded(.down)))
            let bottom = min(height - 1, Int(max(s.a.y, s.b.y).rounded(.down)))
            if top <= bottom { for y in top...bottom { rows[y].append(s) } }
        }
        var crossings: [(x: Double, winding: Int)] = []
        for y in 0..<height {
            for line in 0..<lines {
                let sy = Double(y) + (Double(line) + 0.5) / Double(lines)
                crossings.removeAll(keepingCapacity: true)
                for s in rows[y] {
                    let (lo, hi) = s.a.y < s.b.y ? (s.a, s.b) : (s.b, s.a)
                    guard sy >= lo.y, sy < hi.y else { continue }
                    let x = lo.x + (sy - lo.y) / (hi.y - lo.y) * (hi.x - lo.x)
                    crossings.append((x, s.a.y < s.b.y ? 1 : -1))
                }
                crossings.sort { $0.x < $1.x }
                var winding = 0
                for (i, c) in crossings.enumerated() {
                    winding += c.winding
                    let inside = rule == .nonZero ? winding != 0 : winding % 2 != 0
                    guard inside, i + 1 < crossings.count else { continue }
                    let x0 = max(c.x, 0), x1 = min(crossings[i + 1].x, Double(width))
                    guard x1 > x0 else { continue }
                    for px in Int(x0.rounded(.down))...min(width - 1, Int(x1.rounded(.down))) {
                        let span = min(x1, Double(px + 1)) - max(x0, Double(px))
                        if span > 0 { coverage[y * width + px] += span / Double(lines) }
                    }
                }
            }
        }
        return coverage
    }

    /// The painter's alpha (white, opaque) in `bands` rows at a time.
    static func painted(
        _ path: VectorPath, rule: FillRule, width: Int, height: Int, bandRows: Int = 1_000
    ) -> [Float] {
        var result = [Float](repeating: 0, count: width * height)
        guard
            let painter = PathPainter(
                path: path, fillRule: rule, stroke: nil, frameFromLocal: .identity,
                paint: .solid(SIMD4(1, 1, 1, 1)), frameWidth: width, frameHeight: height)
        else { return result }
        var first = 0
        while first < height {
            let count = min(bandRows, height - first)
            let band = PlanarBand(width: width, rows: count)
            painter.paint(into: band, firstRow: first, rows: count, columns: 0..<width)
            for r in 0..<count {
                for x in 0..<width { result[(first + r) * width + x] = band.pixel(x: x, row: r).a }
            }
            first += count
        }
        return result
    }

    struct Difference {
        var worst = 0, worstAt = (x: 0, y: 0)
        var areaError = 0.0, exactArea = 0.0
    }

    /// Largest difference in 8-bit code values, and the painted area's error relative to the
    /// reference's.
    static func difference(_ path: VectorPath, rule: FillRule, width: Int, height: Int) -> Difference {
        let exact = reference(path, rule: rule, width: width, height: height)
        let ours = painted(path, rule: rule, width: width, height: height)
        var d = Difference()
        var exactArea = 0.0, ourArea = 0.0
        for i in exact.indices {
            let e = Int((exact[i] * 255).rounded()), o = Int((Double(ours[i]) * 255).rounded())
            if abs(e - o) > d.worst { (d.worst, d.worstAt) = (abs(e - o), (i % width, i / width)) }
            exactArea += exact[i]
            ourArea += Double(ours[i])
        }
        d.areaError = exactArea > 0 ? (ourArea - exactArea) / exactArea : 0
        d.exactArea = exactArea
        return d
    }

    static let bound = 2

    func check(_ name: String, _ path: VectorPath, _ rule: FillRule, width: Int, height: Int) {
        let d = Self.difference(path, rule: rule, width: width, height: height)
        print(
            "coverage vs exact: \(name) \(rule): worst \(d.worst) code values at \(d.worstAt), "
                + "area \(String(format: "%+.4f", d.areaError * 100)) % of \(String(format: "%.2f", d.exactArea))"
        )
        XCTAssertLessThanOrEqual(d.worst, Self.bound, "\(name) \(rule) at \(d.worstAt)")
        // Chords inside curves lose at most 1/256 px along the outline; a circle of this area
        // has the shortest one, so this bounds every shape here.
        let perimeter = 2 * (Double.pi * d.exactArea).squareRoot()
        XCTAssertLessThan(abs(d.areaError * d.exactArea), perimeter / 256, "\(name) \(rule)")
    }

    func testCirclesAtRadiiAndOffsets() {
        for radius in [2.3, 7.5, 20.25, 61.7] {
            for offset in [SIMD2(0.0, 0.0), SIMD2(0.3, 0.7), SIMD2(0.5, 0.125)] {
                let side = Int(2 * radius) + 6
                let centre = SIMD2(Double(side) / 2, Double(side) / 2) + offset
                check(
                    "circle r \(radius) + \(offset)", .ellipse(center: centre, radii: SIMD2(radius, radius)),
                    .nonZero, width: side, height: side)
            }
        }
        check(
            "ellipse", .ellipse(center: SIMD2(40.2, 30.6), radii: SIMD2(37, 9.3)), .nonZero, width: 82,
            height: 62)
    }

    func testFivePointStarBothRules() throws {
        let star = try SVGPathData.parse("M50 4L77 93L3 37H97L23 93Z")
        for (size, offset) in [(1.0, SIMD2(0.0, 0.0)), (0.37, SIMD2(0.3, 0.6)), (0.61, SIMD2(0.45, 0.2))] {
            let place = Affine2D.translation(offset.x + 1, offset.y + 1).concatenating(.scale(size, size))
            let side = Int(100 * size) + 3
            for rule in FillRule.allCases {
                check("star × \(size)", star.transformed(by: place), rule, width: side, height: side)
            }
        }
    }

    func testOverlappingCircles() {
        for offset in [0.0, 0.35] {
            var path = VectorPath.ellipse(center: SIMD2(20 + offset, 22), radii: SIMD2(14.2, 14.2))
            path.append(.ellipse(center: SIMD2(34.6, 25.3 + offset), radii: SIMD2(12.7, 12.7)))
            for rule in FillRule.allCases {
                check("two circles + \(offset)", path, rule, width: 52, height: 44)
            }
        }
    }

    func testThinEvenOddRing() {
        for (radius, offset) in [(6.0, 0.0), (20.0, 0.25), (33.3, 0.61)] {
            let centre = SIMD2(radius + 3 + offset, radius + 3.4)
            var ring = VectorPath.ellipse(center: centre, radii: SIMD2(radius, radius))
            ring.append(.ellipse(center: centre, radii: SIMD2(radius - 0.6, radius - 0.6)))
            let side = Int(2 * radius) + 8
            check("ring 0.6 px r \(radius)", ring, .evenOdd, width: side, height: side)
        }
    }

    /// Bands painted from many threads at once equal one band, bit for bit, on the paths whose
    /// pixels take the exact pass.
    func testBandsFromManyThreadsEqualOneBand() throws {
        let star = try SVGPathData.parse("M50 4L77 93L3 37H97L23 93Z")
        var ring = VectorPath.ellipse(center: SIMD2(50, 50), radii: SIMD2(40, 40))
        ring.append(.ellipse(center: SIMD2(50, 50), radii: SIMD2(39.4, 39.4)))
        for (path, rule) in [(star, FillRule.nonZero), (star, .evenOdd), (ring, .evenOdd)] {
            let whole = Self.painted(path, rule: rule, width: 100, height: 100)
            let painter = try XCTUnwrap(
                PathPainter(
                    path: path, fillRule: rule, stroke: nil, frameFromLocal: .identity,
                    paint: .solid(SIMD4(1, 1, 1, 1)), frameWidth: 100, frameHeight: 100))
            let bands = (0..<25).map { _ in PlanarBand(width: 100, rows: 4) }
            DispatchQueue.concurrentPerform(iterations: 25) { i in
                painter.paint(into: bands[i], firstRow: i * 4, rows: 4, columns: 0..<100)
            }
            for y in 0..<100 {
                for x in 0..<100 {
                    XCTAssertEqual(bands[y / 4].pixel(x: x, row: y % 4).a, whole[y * 100 + x], "\(x), \(y)")
                }
            }
        }
    }
}
