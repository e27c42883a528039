import Foundation
import XCTest

/// Test-side BT.709 limited-range forward transform, independent of the code under test.
enum ReferenceBT709 {
    static func yuv(r: Double, g: Double, b: Double) -> (y: Double, cb: Double, cr: Double) {
        let luma = 0.2126 * r + 0.7152 * g + 0.0722 * b
        return (
            16 + 219 * luma / 255,
            128 + 224 * (b - luma) / (1.8556 * 255),
            128 + 224 * (r - luma) / (1.5748 * 255)
        )
    }

    static func yuvBytes(r: Double, g: Double, b: Double) -> (y: UInt8, cb: UInt8, cr: UInt8) {
        let value = yuv(r: r, g: g, b: b)
        func byte(_ x: Double) -> UInt8 { UInt8(min(max(x.rounded(), 0), 255)) }
        return (byte(value.y), byte(value.cb), byte(value.cr))
    }
}
