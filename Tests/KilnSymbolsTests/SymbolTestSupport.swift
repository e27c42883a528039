import Foundation
import KilnRaster
import KilnSymbols
import XCTest

/// Fixtures, small documents and geometry readings shared by the symbol tests.
enum SymbolTestSupport {
    static let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let packageRoot = testsDirectory.deletingLastPathComponent().deletingLastPathComponent()

    static func fixturePath(_ name: String) -> String {
        testsDirectory.appendingPathComponent("Fixtures").appendingPathComponent(name).path
    }

    /// An SVG document around `body`, with the SVG namespace and the given viewBox.
    static func document(_ body: String, viewBox: String = "0 0 100 100", rootAttributes: String = "")
        -> String
    {
        """
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="\(viewBox)"\(rootAttributes)>
        \(body)
        </svg>
        """
    }

    static func parse(_ text: String, file: String = "test.svg") throws(SymbolFileError) -> SymbolArtwork {
        try SymbolCatalog.parse(Array(text.utf8), file: file)
    }

    /// The error parsing `text` gives; fails the test when it parses.
    static func error(
        _ text: String, file: String = "test.svg", sourceFile: StaticString = #filePath,
        sourceLine: UInt = #line
    ) -> SymbolFileError? {
        do {
            _ = try parse(text, file: file)
            XCTFail("expected an error", file: sourceFile, line: sourceLine)
            return nil
        } catch {
            return error
        }
    }

    /// The end points of every segment, in order (control points left out).
    static func onCurvePoints(_ path: VectorPath) -> [SIMD2<Double>] {
        path.elements.compactMap {
            switch $0 {
            case .move(let p), .line(let p): p
            case .quad(_, let p), .cubic(_, _, let p): p
            case .close: nil
            }
        }
    }

    /// The signed area enclosed by the path, curves flattened finely (positive for clockwise
    /// on screen, y down).
    static func area(_ path: VectorPath) -> Double {
        var total = 0.0
        var polygon: [SIMD2<Double>] = []
        func closePolygon() {
            guard polygon.count > 2 else { return }
            for i in polygon.indices {
                let a = polygon[i], b = polygon[(i + 1) % polygon.count]
                total += (a.x * b.y - b.x * a.y) / 2
            }
        }
        var current = SIMD2<Double>.zero
        for element in path.elements {
            switch element {
            case .move(let p):
                closePolygon()
                polygon = [p]
                current = p
            case .line(let p):
                polygon.append(p)
                current = p
            case .quad(let c, let p):
                for step in 1...64 {
                    let t = Double(step) / 64, u = 1 - t
                    polygon.append(u * u * current + 2 * u * t * c + t * t * p)
                }
                current = p
            case .cubic(let c1, let c2, let p):
                for step in 1...64 {
                    let t = Double(step) / 64, u = 1 - t
                    polygon.append(
                        u * u * u * current + 3 * u * u * t * c1 + 3 * u * t * t * c2 + t * t * t * p)
                }
                current = p
            case .close:
                break
            }
        }
        closePolygon()
        return total
    }
}

func XCTAssertPoint(
    _ actual: SIMD2<Double>, _ expected: SIMD2<Double>, accuracy: Double = 1e-9,
    file: StaticString = #filePath,
    line: UInt = #line
) {
    XCTAssertEqual(actual.x, expected.x, accuracy: accuracy, "x of \(actual)", file: file, line: line)
    XCTAssertEqual(actual.y, expected.y, accuracy: accuracy, "y of \(actual)", file: file, line: line)
}
