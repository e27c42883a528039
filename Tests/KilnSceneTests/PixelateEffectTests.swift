import Foundation
import KilnModel
import KilnRaster
import KilnScene
import KilnTestSupport
import XCTest

/// The pixelate effect against a plain reference (block centres in Double, sampled bilinearly),
/// its blocks, its shorthand and its range.
final class PixelateEffectTests: XCTestCase {
    /// The centre of the part inside 0…`extent` of the block holding `v`.
    func blockCentre(_ v: Double, size: Double, extent: Double) -> Double {
        guard v < extent else { return v }
        let low = (v / size).rounded(.down) * size
        return (low + min(low + size, extent)) / 2
    }

    func testPixelateSamplesTheCentreOfEachBlock() {
        var rng = SplitMix(state: 5)
        let (width, height) = (90, 61)
        for size in [2.0, 3, 8, 7.5, 40] {
            let image = StageReference.randomImage(width: width, height: height, &rng)
            let stage = Pixelation(size: Float(size), layerSize: SIMD2(Float(width), Float(height)))
            let share = StageReference.agreement([stage], image: image, width: width, height: height) {
                x, y in
                StageReference.referenceSample(
                    image, width: width, height: height,
                    x: self.blockCentre(x, size: size, extent: Double(width)),
                    y: self.blockCentre(y, size: size, extent: Double(height)))
            }
            XCTAssertGreaterThan(share, 0.999, "size \(size)")
        }
    }

    /// Every pixel of a whole block has the block's colour, bit for bit; neighbouring blocks differ.
    func testBlocksAreUniform() {
        var rng = SplitMix(state: 9)
        let (width, height, size) = (64, 48, 8)
        let image = StageReference.randomImage(width: width, height: height, &rng)
        let out = PlanarBand(width: width, rows: height)
        let stage = Pixelation(size: Float(size), layerSize: SIMD2(Float(width), Float(height)))
        PixelPipeline(stages: [stage], frameFromLocal: .identity)!.paint(
            into: out, firstRow: 0, rows: height, columns: 0..<width, extent: (0..<height, 0..<width),
            source: PlanarSampler(image: image, rows: 0..<height, columns: 0..<width, edges: .transparent))
        var distinct = Set<[Float]>()
        for by in stride(from: 0, to: height, by: size) {
            for bx in stride(from: 0, to: width, by: size) {
                let first = out.pixel(x: bx, row: by)
                distinct.insert([first.r, first.g, first.b, first.a])
                for y in by..<(by + size) {
                    for x in bx..<(bx + size) {
                        let p = out.pixel(x: x, row: y)
                        XCTAssertEqual(
                            [p.r, p.g, p.b, p.a], [first.r, first.g, first.b, first.a], "(\(x), \(y))")
                    }
                }
            }
        }
        XCTAssertEqual(distinct.count, (width / size) * (height / size))
    }

    func testShorthandAndRange() throws {
        let plain = Fixture.render(try StageReference.cardJob("[]"), at: 1).byteArray
        let shorthand = Fixture.render(try StageReference.cardJob(#"[{"pixelate": 10}]"#), at: 1).byteArray
        XCTAssertNotEqual(shorthand, plain)
        XCTAssertEqual(
            Fixture.render(try StageReference.cardJob(#"[{"pixelate": {"size": 10}}]"#), at: 1).byteArray,
            shorthand)
        XCTAssertEqual(
            Fixture.render(try StageReference.cardJob(#"[{"pixelate": 1}]"#), at: 1).byteArray, plain)
        XCTAssertThrowsError(try StageReference.cardJob(#"[{"pixelate": {"size": 0.5}}]"#)) { error in
            XCTAssertTrue("\(error)".contains("effects[0].pixelate.size"), "\(error)")
        }
    }
}
