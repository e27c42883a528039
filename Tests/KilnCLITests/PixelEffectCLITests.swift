import Foundation
import KilnMedia
import KilnTestSupport
import XCTest

/// Pixel effects from the command line: a rippling card rendered and decoded back, and bad
/// effect input with its exit code, the file, the JSON path and no output left behind.
final class PixelEffectCLITests: TemporaryDirectoryTestCase {
    var photos: String { KilnProcess.repositoryRoot.appendingPathComponent("jobs/photos").path }

    func job(effects: String, frames: Int = 1) throws -> String {
        try write(
            "fx.json",
            """
            {"kiln": 1, "output": {"width": 320, "height": 180, "fps": 30, "duration": {"frames": \(frames)}},
             "layers": [{"type": "solid", "color": "#202020"},
                        {"type": "image", "path": "\(photos)/forest.png", "size": [200, 140], "fit": "fill",
                         "effects": \(effects)}]}
            """)
    }

    /// Twelve frames of a ripple that starts at frame 3: decoded back with the file's tags, the
    /// frames before the trigger identical to the plain card, the rippling ones not.
    func testRippleRendersAndDecodesBack() throws {
        let ripple = #"[{"ripple": {"amplitude": 10, "triggers": [{"at": 0.1, "origin": [100, 70]}]}}]"#
        let file = try job(effects: ripple, frames: 12)
        let out = directory.appendingPathComponent("fx.mp4").path
        let result = try KilnProcess.run(["render", file, "-o", out])
        XCTAssertEqual(result.status, 0, result.stderr)
        var frames: [Int: [UInt8]] = [:]
        let info = try VideoDecodeBack.decode(path: out) { frame in frames[frame.index] = Self.luma(frame) }
        assertKilnVideo(info, width: 320, height: 180, frames: 12)

        let plainFile = try job(effects: "[]", frames: 12)
        let plainOut = directory.appendingPathComponent("plain.mp4").path
        XCTAssertEqual(try KilnProcess.run(["render", plainFile, "-o", plainOut]).status, 0)
        var plain: [Int: [UInt8]] = [:]
        _ = try VideoDecodeBack.decode(path: plainOut) { frame in plain[frame.index] = Self.luma(frame) }
        // Before the trigger (frames 0–2) the card is untouched: the two videos differ only by
        // the encoder's rounding; once the ripple runs, its crests brighten the card.
        func difference(_ index: Int) throws -> Double {
            let a = try XCTUnwrap(frames[index]), b = try XCTUnwrap(plain[index])
            return Double(zip(a, b).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(a.count)
        }
        for index in 0..<3 {
            XCTAssertLessThan(try difference(index), 0.5, "frame \(index) before the trigger")
        }
        for index in 5..<12 { XCTAssertGreaterThan(try difference(index), 1, "frame \(index) ripples") }
    }

    /// The luma plane of the card's area.
    static func luma(_ frame: DecodedFrame) -> [UInt8] {
        var values: [UInt8] = []
        for row in 20..<160 {
            for x in 60..<260 { values.append(frame.y[row * frame.yStride + x]) }
        }
        return values
    }

    func testMissingNoiseImageIs66() throws {
        let file = try job(effects: #"[{"backgroundWarp": {"noise": {"path": "nowhere-noise.png"}}}]"#)
        let result = try KilnProcess.run([
            "render", file, "-o", directory.appendingPathComponent("o.mp4").path,
        ])
        XCTAssertEqual(result.status, 66, result.stderr)
        XCTAssertTrue(result.stderr.contains("fx.json:"), result.stderr)
        XCTAssertTrue(result.stderr.contains("layers[1].effects[0].backgroundWarp.noise.path"), result.stderr)
        XCTAssertTrue(result.stderr.contains("nowhere-noise.png"), result.stderr)
        XCTAssertEqual(try contents(), ["fx.json"])
    }

    func testOutOfRangeParametersAndLateTriggersAre65() throws {
        let file = try job(
            effects:
                #"[{"ripple": {"speed": 0, "triggers": [{"at": 9, "origin": [0, 0]}]}}, {"shear": {"x": 40}}]"#
        )
        let result = try KilnProcess.run(["validate", file])
        XCTAssertEqual(result.status, 65, result.stderr)
        for path in [
            "layers[1].effects[0].ripple.speed", "layers[1].effects[0].ripple.triggers[0].at",
            "layers[1].effects[1].shear.x",
        ] {
            XCTAssertTrue(result.stderr.contains(path), "\(path): \(result.stderr)")
        }
    }
}
