import Foundation
import KilnModel
import KilnRaster
import XCTest

@testable import KilnScene

/// A picture under a blur of σ ≥ 16 is painted straight onto the blur's 4× reduced copy
/// (`Canvas.paintsReducedUnderBlur`) rather than at full size and then reduced: within a code
/// value or two of the full-size paint, however the picture is scaled, turned, cut by the frame
/// edge or coloured before the blur.
final class PaintedReductionTests: XCTestCase {
    let photo = Fixture.repositoryRoot.appendingPathComponent("jobs/photos/dusk.png").path

    /// A 320 × 180 job: a solid, then `layer`.
    func job(_ layer: String) throws -> Job {
        try Fixture.job(
            """
            {"kiln": 1, "output": {"width": 320, "height": 180, "fps": 30, "duration": 1},
             "layers": [{"type": "solid", "color": "#203040"}, \(layer)]}
            """)
    }

    func render(_ job: Job, reduced: Bool, inBands: Bool = true, threads: Int = 2) -> [UInt8] {
        let canvas = Canvas(
            width: job.output.width, height: job.output.height, paintsReducedUnderBlur: reduced,
            enlargesBlurInBands: inBands)
        let frame = RGBA8Frame(width: canvas.width, height: canvas.height)
        SceneRenderer(job: job, canvas: canvas, threads: threads).render(
            at: 0.5, yuv: nil, rgba: frame)
        return frame.byteArray
    }

    /// Largest and mean difference of the two paths, in code values; also that they differ at
    /// all (the reduced path ran).
    func compare(_ layer: String, largest bound: Int, file: StaticString = #filePath, line: UInt = #line)
        throws
    {
        let job = try self.job(layer)
        let reduced = render(job, reduced: true), full = render(job, reduced: false)
        let differences = zip(reduced, full).map { abs(Int($0) - Int($1)) }
        let largest = differences.max() ?? 0
        let mean = Double(differences.reduce(0, +)) / Double(differences.count)
        XCTAssertLessThanOrEqual(largest, bound, "largest difference", file: file, line: line)
        XCTAssertLessThan(mean, 0.1, "mean difference", file: file, line: line)
        XCTAssertGreaterThan(largest, 0, "the reduced copy was not painted", file: file, line: line)
        // The same bytes on one thread as on three.
        XCTAssertEqual(
            render(job, reduced: true, threads: 1), render(job, reduced: true, threads: 3), file: file,
            line: line)
    }

    func testFullFramePictureMatchesTheFullSizePaint() throws {
        try compare(
            #"{"type": "image", "path": "\#(photo)", "size": [320, 180], "effects": [{"blur": 16}, {"brightness": -0.2}]}"#,
            largest: 1)
    }

    func testMagnifiedPictureMatchesTheFullSizePaint() throws {
        // Decoded at 40 × 23 for its box, then drawn 8× larger.
        try compare(
            #"{"type": "image", "path": "\#(photo)", "size": [40, 23], "scale": 8, "effects": [{"blur": 20}]}"#,
            largest: 1)
    }

    func testTurnedPictureCutByTheFrameEdgeMatchesTheFullSizePaint() throws {
        try compare(
            #"{"type": "image", "path": "\#(photo)", "size": [260, 150], "position": [40, 150], "rotation": 17, "opacity": 0.8, "effects": [{"grayscale": 0.7}, {"blur": 24}]}"#,
            largest: 1)
    }

    /// Content that cannot paint onto another grid (a shape) takes the full-size path: the
    /// same bytes either way.
    func testOtherContentIsPaintedAtFullSize() throws {
        let job = try self.job(
            ##"{"type": "shape", "shape": "circle", "size": [120, 120], "fill": "#ffcc00", "effects": [{"blur": 18}]}"##
        )
        XCTAssertEqual(render(job, reduced: true), render(job, reduced: false))
    }

    /// Colour stages after a blur of σ ≥ 16 are applied to its reduced copy before it is
    /// enlarged: within two code values of colouring the enlarged result (a group's colours,
    /// which apply to what its children painted), and almost everywhere the same.
    func testColorsAfterTheBlurMatchColoringTheEnlargedResult() throws {
        let picture = #"{"type": "image", "path": "\#(photo)", "size": [260, 150], "rotation": 9"#
        for colors in [
            #"{"brightness": -0.3}"#, #"{"brightness": -0.3}, {"saturation": 1.8}"#,
            #"{"contrast": 1.6}, {"hueRotation": 40}"#,
        ] {
            let moved = try job(picture + #", "effects": [{"blur": 20}, \#(colors)]}"#)
            let after = try job(
                #"{"type": "group", "layers": [\#(picture), "effects": [{"blur": 20}]}], "effects": [\#(colors)]}"#
            )
            let differences = zip(render(moved, reduced: true), render(after, reduced: true)).map {
                abs(Int($0) - Int($1))
            }
            // Where a stage pushes values out of range (saturation, contrast), clamping before
            // the interpolation moves a few pixels by up to 2.
            XCTAssertLessThanOrEqual(differences.max() ?? 0, 2, colors)
            XCTAssertLessThan(Double(differences.reduce(0, +)) / Double(differences.count), 0.01, colors)
            XCTAssertGreaterThan(differences.max() ?? 0, 0, "the colours were not moved: \(colors)")
        }
    }

    /// A blur of σ ≥ 16 that is only composited is kept as its reduced copy and enlarged band
    /// by band as the bands composite it: the bytes of enlarging it into a full-size image first,
    /// at the bottom of the stack, over a solid, under other layers, cut by the frame, in a
    /// group, coloured after the blur, faded, on any number of threads.
    func testEnlargingInBandsGivesTheFullSizeBytes() throws {
        let layers = [
            #"{"type": "image", "path": "\#(photo)", "size": [320, 180], "effects": [{"blur": 16}, {"brightness": -0.2}]}"#,
            #"{"type": "image", "path": "\#(photo)", "size": [200, 130], "position": [250, 40], "rotation": 12, "opacity": 0.7, "effects": [{"blur": 27}]}"#,
            ##"{"type": "group", "layers": [{"type": "shape", "shape": "circle", "size": [90, 90], "fill": "#ffcc00", "effects": [{"blur": 19}]}, {"type": "solid", "color": "#00000000"}]}"##,
        ]
        for (index, layer) in layers.enumerated() {
            for stack in [
                layer, ##"{"type": "solid", "color": "#203040"}, "## + layer,
                layer + ##", {"type": "shape", "shape": "rect", "size": [60, 40], "fill": "#ff0000"}"##,
            ] {
                let job = try Fixture.job(
                    """
                    {"kiln": 1, "output": {"width": 320, "height": 180, "fps": 30, "duration": 1},
                     "layers": [\(stack)]}
                    """)
                for threads in [1, 3] {
                    XCTAssertEqual(
                        render(job, reduced: true, inBands: true, threads: threads),
                        render(job, reduced: true, inBands: false, threads: threads),
                        "layer \(index): \(stack)")
                }
            }
        }
        // The path is taken: the full-frame picture's offscreen holds its reduced copy.
        let job = try self.job(layers[0])
        let canvas = Canvas(width: 320, height: 180)
        let item = try XCTUnwrap(job.layers[1].prepare(at: 0.5, canvas: canvas))
        XCTAssertEqual(item.offscreen?.compositesReduced, true)
    }
}
