import KilnMedia
import XCTest

final class SwscaleConverterTests: XCTestCase {
    func testFlatColorsMatchAnalyticBT709LimitedRange() throws {
        let width = 16, height = 8
        let converter = try SwscaleConverter(width: width, height: height)
        let colors: [(UInt8, UInt8, UInt8)] = [
            (255, 255, 255), (0, 0, 0), (255, 0, 0), (0, 255, 0), (0, 0, 255), (128, 128, 128),
            (37, 150, 211),
            (250, 200, 10),
        ]
        for (r, g, b) in colors {
            let rgba = [UInt8]((0..<(width * height)).flatMap { _ in [r, g, b, 255] })
            // 64 bytes of slack after each plane, as SwscaleConverter.convert requires.
            var y = [UInt8](repeating: 0, count: width * height + 64)
            var u = [UInt8](repeating: 0, count: width * height / 4 + 64)
            var v = [UInt8](repeating: 0, count: width * height / 4 + 64)
            y.withUnsafeMutableBufferPointer { yPlane in
                u.withUnsafeMutableBufferPointer { uPlane in
                    v.withUnsafeMutableBufferPointer { vPlane in
                        converter.convert(
                            rgba: rgba, rgbaStride: width * 4, y: yPlane.baseAddress!, yStride: width,
                            u: uPlane.baseAddress!, v: vPlane.baseAddress!, uvStride: width / 2)
                    }
                }
            }
            let expected = ReferenceBT709.yuv(r: Double(r), g: Double(g), b: Double(b))
            let yPlane = y.prefix(width * height), uPlane = u.prefix(width * height / 4)
            let vPlane = v.prefix(width * height / 4)
            let label = "RGB(\(r),\(g),\(b))"
            XCTAssertLessThanOrEqual(
                yPlane.map { abs(Double($0) - expected.y) }.max()!, 1,
                "\(label) Y \(Set(yPlane)) vs \(expected.y)")
            XCTAssertLessThanOrEqual(
                uPlane.map { abs(Double($0) - expected.cb) }.max()!, 1,
                "\(label) Cb \(Set(uPlane)) vs \(expected.cb)")
            XCTAssertLessThanOrEqual(
                vPlane.map { abs(Double($0) - expected.cr) }.max()!, 1,
                "\(label) Cr \(Set(vPlane)) vs \(expected.cr)")
        }
    }

    func testReferenceFormulaAnchors() {
        // Pins the test's own formula to the well-known BT.709 limited-range values.
        XCTAssertTrue(ReferenceBT709.yuvBytes(r: 255, g: 255, b: 255) == (235, 128, 128))
        XCTAssertTrue(ReferenceBT709.yuvBytes(r: 0, g: 0, b: 0) == (16, 128, 128))
        XCTAssertTrue(ReferenceBT709.yuvBytes(r: 255, g: 0, b: 0) == (63, 102, 240))
    }

    func testOddSizeIsRejected() {
        XCTAssertThrowsError(try SwscaleConverter(width: 15, height: 8))
    }
}
