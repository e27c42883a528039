import KilnSymbols
import KilnText
import XCTest

@testable import KilnRaster

/// Kiln's path rasterizer against FreeType's on the same flattened polygons. FreeType applies
/// the fill rule to the winding summed over a pixel, as Kiln does where one chain of edges
/// crosses it; so this holds Kiln's summed coverage to FreeType's, and PathCoverageReferenceTests
/// holds what Kiln paints (pixels where contours cross computed again) to the exact area.
final class PathRasterizerOracleTests: XCTestCase {
    struct Case {
        let name: String
        let path: VectorPath
        let rule: FillRule
    }

    /// Test paths in a 100 × 100 design box.
    static func cases() throws -> [Case] {
        let star = try SVGPathData.parse("M50 4L77 93L3 37H97L23 93Z")
        return [
            Case(name: "circle", path: .ellipse(center: SIMD2(50, 50), radii: SIMD2(44, 44)), rule: .nonZero),
            Case(
                name: "ellipse", path: .ellipse(center: SIMD2(50, 50), radii: SIMD2(46, 17)), rule: .nonZero),
            Case(name: "star nonZero", path: star, rule: .nonZero),
            Case(name: "star evenOdd", path: star, rule: .evenOdd),
            Case(
                name: "slivers",
                path: try SVGPathData.parse(
                    "M5 10L95 11L95 11.3Z M10 30L10.2 90L10.5 30Z M20 60L90 61.5L20 60.4Z"),
                rule: .nonZero),
            Case(
                name: "curves",
                path: try SVGPathData.parse(
                    "M10 80C10 10 90 10 90 80S50 40 30 90Q60 60 80 95T20 50A30 20 30 1 1 60 70Z"),
                rule: .evenOdd),
            Case(
                name: "ring",
                path: try SVGPathData.parse("M50 5A45 45 0 1 1 49.9 5Z M50 25A25 25 0 1 0 50.1 25Z"),
                rule: .nonZero),
            Case(
                name: "rounded rect",
                path: .rect(origin: SIMD2(8, 20), size: SIMD2(84, 60), cornerRadii: SIMD2(18, 12)),
                rule: .nonZero),
        ]
    }

    /// The polygon with every point on the 1/64-pixel grid.
    static func snapped(_ path: VectorPath) -> VectorPath {
        func snap(_ p: SIMD2<Double>) -> SIMD2<Double> { (p * 64).rounded(.toNearestOrEven) / 64 }
        var result = VectorPath()
        for element in path.elements {
            switch element {
            case .move(let p): result.move(to: snap(p))
            case .line(let p): result.line(to: snap(p))
            case .close: result.close()
            case .quad, .cubic: XCTFail("not flattened")
            }
        }
        return result
    }

    /// Kiln's summed coverage as 8-bit values, rounded.
    static func kilnCoverage(_ path: VectorPath, rule: FillRule, width: Int, height: Int) -> [UInt8] {
        var grid = [UInt8](repeating: 0, count: width * height)
        guard
            let painter = PathPainter(
                path: path, fillRule: rule, stroke: nil, frameFromLocal: .identity,
                paint: .solid(SIMD4(1, 1, 1, 1)), frameWidth: width, frameHeight: height)
        else { return grid }
        let values = painter.scalarCoverage(
            firstRow: painter.rows.lowerBound, count: painter.rows.count, exact: false)
        var i = 0
        for y in painter.rows {
            for x in painter.columns {
                grid[y * width + x] = UInt8((values[i] * 255).rounded())
                i += 1
            }
        }
        return grid
    }

    func testKilnMatchesFreeTypeWithinOneCodeValue() throws {
        let freetype = try XCTUnwrap(FreeTypeOutlineRasterizer())
        var total = 0, within = 0, exact = 0, worst = 0
        var histogram = [Int](repeating: 0, count: 10)
        for size in [24.0, 96.0, 400.0] {
            for (sin, cos) in [(0.0, 1.0), (0.5, 0.866_025_403_784_438_6)] {
                let side = Int(size * 1.5)
                let place = Affine2D.translation(Double(side) / 2, Double(side) / 2)
                    .concatenating(.rotation(sin: sin, cos: cos))
                    .concatenating(.scale(size / 100, size / 100))
                    .concatenating(.translation(-50, -50))
                for c in try Self.cases() {
                    // Both rasterize the same polygon: flattened once, in pixels, and on FreeType's
                    // 26.6 grid, so its coordinate rounding is no difference.
                    let polygon = Self.snapped(c.path.transformed(by: place).flattened(tolerance: 0.1))
                    let kiln = Self.kilnCoverage(polygon, rule: c.rule, width: side, height: side)
                    let reference = try XCTUnwrap(
                        freetype.coverage(of: polygon, fillRule: c.rule, width: side, height: side))
                    var caseWithin = 0
                    for (k, f) in zip(kiln, reference) {
                        let d = abs(Int(k) - Int(f))
                        histogram[min(d, 9)] += 1
                        if d <= 1 { caseWithin += 1 }
                        if d == 0 { exact += 1 }
                        worst = max(worst, d)
                    }
                    total += kiln.count
                    within += caseWithin
                    // Per case a looser bound: at 24 px a star has only ~1300 pixels, and a pixel
                    // where five edges meet may differ by two.
                    XCTAssertGreaterThanOrEqual(
                        Double(caseWithin) / Double(kiln.count), 0.995, "\(c.name) at \(size), sin \(sin)")
                    // Not trivially empty: both cover the path's area.
                    XCTAssertGreaterThan(reference.reduce(0) { $0 + Int($1) }, 0)
                }
            }
        }
        XCTAssertGreaterThanOrEqual(Double(within) / Double(total), 0.999)
        XCTAssertLessThanOrEqual(worst, 2)
        print(
            "path oracle: \(total) pixels, \(Double(within) / Double(total) * 100)% within one code value, "
                + "\(Double(exact) / Double(total) * 100)% identical, worst difference \(worst), histogram \(histogram)"
        )
    }
}

/// The bar on the symbols Kiln ships: every fill and every stroke outline of every layer,
/// at three sizes and two rotations, Kiln's coverage against FreeType's.
final class ShippedSymbolOracleTests: XCTestCase {
    func testShippedSymbolsMatchFreeTypeWithinOneCodeValue() throws {
        let freetype = try XCTUnwrap(FreeTypeOutlineRasterizer())
        var total = 0, within = 0, worst = 0, shapes = 0
        for name in SymbolCatalog.shippedNames {
            let artwork = try XCTUnwrap(SymbolCatalog.shipped(name))
            for size in [24.0, 64.0, 200.0] {
                for (sin, cos) in [(0.0, 1.0), (0.5, 0.866_025_403_784_438_6)] {
                    let scale = size / 100
                    let side = Int(size * 2)
                    let centre = artwork.size / 2
                    let place = Affine2D.translation(Double(side) / 2, Double(side) / 2)
                        .concatenating(.rotation(sin: sin, cos: cos))
                        .concatenating(.scale(scale, scale))
                        .concatenating(.translation(-centre.x, -centre.y))
                    for layer in artwork.layers {
                        for shape in layer.shapes {
                            let inFrame = shape.path.transformed(by: place)
                            var parts: [(VectorPath, FillRule)] = []
                            if let rule = shape.fill {
                                parts.append((inFrame.flattened(tolerance: 0.1), rule))
                            }
                            if var stroke = shape.stroke {
                                stroke.width *= scale
                                parts.append((inFrame.strokeOutline(stroke, tolerance: 0.1), .nonZero))
                            }
                            for (outline, rule) in parts {
                                let polygon = PathRasterizerOracleTests.snapped(outline)
                                let kiln = PathRasterizerOracleTests.kilnCoverage(
                                    polygon, rule: rule, width: side, height: side)
                                let reference = try XCTUnwrap(
                                    freetype.coverage(of: polygon, fillRule: rule, width: side, height: side))
                                XCTAssertGreaterThan(reference.reduce(0) { $0 + Int($1) }, 0, name)
                                for (k, f) in zip(kiln, reference) {
                                    let d = abs(Int(k) - Int(f))
                                    if d <= 1 { within += 1 }
                                    worst = max(worst, d)
                                }
                                total += kiln.count
                                shapes += 1
                            }
                        }
                    }
                }
            }
        }
        XCTAssertGreaterThan(shapes, 100)
        XCTAssertGreaterThanOrEqual(Double(within) / Double(total), 0.999)
        print(
            "shipped symbols oracle: \(shapes) outlines, \(total) pixels, "
                + "\(Double(within) / Double(total) * 100)% within one code value, worst \(worst)")
    }
}
