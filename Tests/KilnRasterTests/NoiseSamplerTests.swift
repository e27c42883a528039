import KilnTestSupport
import XCTest

@testable import KilnRaster

/// `NoiseSampler.rowTaps`, the lookup for eight lanes in one texel row, against `taps`: the same
/// floats wherever `sharesRow` accepts the lanes, up to the texture's last column and row.
final class NoiseSamplerTests: XCTestCase {
    func testRowTapsMatchTapsBitForBit() {
        let texture = NoiseTexture.generated(seed: 3, size: 16)
        let sampler = texture.sampler
        var random = SplitMix(state: 5)
        func unit() -> Float { Float(random.next() % 100_001) / 100_000 }
        var accepted = 0, refused = 0
        for trial in 0..<4000 {
            // Eight neighbouring positions of a row, some trials at the last column or row,
            // spaced from a tenth of a texel to more than one (which `sharesRow` refuses).
            let start = trial % 10 == 0 ? Float(0.97) : unit()
            let v = trial % 7 == 0 ? Float(0.999) : unit()
            let spacing = (0.1 + 1.2 * unit()) / 16
            let u = SIMD8<Float>(0, 1, 2, 3, 4, 5, 6, 7) * spacing + start
            let (top, wx, wy) = sampler.place(u: u, v: SIMD8(repeating: v))
            guard sampler.sharesRow(top) else {
                refused += 1
                continue
            }
            accepted += 1
            let row = sampler.rowTaps(top: top, wx: wx, wy: wy)
            let each = sampler.taps(top: top, wx: wx, wy: wy)
            XCTAssertEqual(
                unsafeBitCast(row.red, to: SIMD8<UInt32>.self),
                unsafeBitCast(each.red, to: SIMD8<UInt32>.self),
                "red at u \(u), v \(v)")
            XCTAssertEqual(
                unsafeBitCast(row.green, to: SIMD8<UInt32>.self),
                unsafeBitCast(each.green, to: SIMD8<UInt32>.self),
                "green at u \(u), v \(v)")
        }
        // Both paths were exercised.
        XCTAssertGreaterThan(accepted, 200)
        XCTAssertGreaterThan(refused, 200)
    }
}
