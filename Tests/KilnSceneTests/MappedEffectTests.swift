import Foundation
import KilnModel
import KilnRaster
import KilnScene
import XCTest

/// Effect stages driven by property mappings (`effects` in a `visualEffect`, a `scrollTransition`
/// or a custom transition): any registered effect, played at the time its `at` mapping gives.
/// Each is checked against the same effect written on the layer at that time as a constant.
final class MappedEffectTests: XCTestCase {
    func job(_ layers: String) throws -> Job {
        try LayerRegistry.decode(
            bytes: Array(
                """
                {"kiln": 1, "output": {"width": 320, "height": 180, "fps": 30, "duration": 4},
                 "layers": [{"type": "solid", "color": "#102030"}, \(layers)]}
                """.utf8), file: "mapped.json", baseDirectory: URL(fileURLWithPath: "/tmp"))
    }

    static let card =
        ##""type": "shape", "shape": "roundedRect", "size": [120, 80], "cornerRadius": 10, "##
        + ##""gradient": ["#ff5a36", "#36c5ff"], "gradientStart": [0, 0], "gradientEnd": [1, 1]"##

    func pixels(_ job: Job, at time: Double = 0, threads: Int = 2) -> [UInt8] {
        Fixture.render(job, at: time, threads: threads).byteArray
    }

    /// A visual effect's hue rotation read from the card's top edge: 1° per pixel below y 0, so a
    /// card whose top is at y 30 turns 30°, exactly as a constant 30° effect on it.
    func testAVisualEffectDrivesAnEffectFromTheLayersBox() throws {
        let mapped = try job(
            "{\(Self.card), \"position\": [160, 70], "
                + #""visualEffect": {"effects": [{"at": {"of": "minY", "times": 1}, "#
                + #""effect": {"hueRotation": {"keyframes": [{"t": 0, "v": 0}, {"t": 100, "v": 100}]}}}]}}"#)
        let constant = try job(
            "{\(Self.card), \"position\": [160, 70], \"effects\": [{\"hueRotation\": 30}]}")
        let plain = try job("{\(Self.card), \"position\": [160, 70]}")
        XCTAssertEqual(pixels(mapped), pixels(constant))
        XCTAssertNotEqual(pixels(mapped), pixels(plain))
        XCTAssertEqual(pixels(mapped, threads: 1), pixels(mapped, threads: 3))
    }

    /// A custom transition's effect on the default clock, |phase|: halfway in (phase −0.5 on a
    /// linear 1 s entrance) the effect plays its time 0.5; at rest it is gone.
    func testACustomTransitionPlaysItsEffectOnTheDistanceFromRest() throws {
        let mapped = try job(
            "{\(Self.card), \"position\": [160, 90], \"appear\": 1, "
                + #""transitionAnimation": {"duration": 1, "ease": "linear"}, "#
                + #""transition": {"custom": {"effects": [{"effect": {"pixelate": {"keyframes": "#
                + #"[{"t": 0, "v": 1}, {"t": 1, "v": 21}]}}}]}}}"#)
        let constant = try job("{\(Self.card), \"position\": [160, 90], \"effects\": [{\"pixelate\": 11}]}")
        let plain = try job("{\(Self.card), \"position\": [160, 90]}")
        XCTAssertEqual(pixels(mapped, at: 1.5), pixels(constant, at: 1.5))
        XCTAssertEqual(pixels(mapped, at: 2.5), pixels(plain, at: 2.5))
    }

    /// Inside a scroll layer, each item's effect follows its own scroll phase.
    func testAScrollTransitionDrivesAnEffectPerItem() throws {
        let item = { (color: String) in
            #"{"type": "shape", "shape": "rect", "size": [150, 100], "fill": "\#(color)", "#
                + #""scrollTransition": {"effects": [{"at": [[-1, 1], [0, 0], [1, 1]], "#
                + #""effect": {"grayscale": {"keyframes": [{"t": 0, "v": 0}, {"t": 1, "v": 1}]}}}]}}"#
        }
        let scroll = try job(
            #"{"type": "scroll", "axis": "horizontal", "size": [240, 120], "position": [160, 90], "#
                + #""spacing": 10, "layers": [\#(item("#ff3030")), \#(item("#30ff30")), \#(item("#3030ff"))]}"#
        )
        let frame = Fixture.render(scroll, at: 0)
        // The first item (frame x 40…190) is inside the viewport (phase 0: in colour); the second
        // (x 200…350, cut at 280) is 70 of its 150 pixels out (phase 0.47: greyer), so its red,
        // green and blue are closer together.
        func spread(x: Int) -> Int {
            let p = frame.pixel(x: x, y: 90)
            return Int(max(p[0], p[1], p[2])) - Int(min(p[0], p[1], p[2]))
        }
        XCTAssertGreaterThan(spread(x: 100), spread(x: 240) + 60)
        XCTAssertEqual(pixels(scroll, threads: 1), pixels(scroll, threads: 4))
    }

    /// A line far out (the largest factor on a box far off the frame) moves the effect's clock at
    /// most a day either way.
    func testAMappedEffectsClockIsBounded() throws {
        let job = try job(
            "{\(Self.card), \"position\": [160, 70], "
                + #""visualEffect": {"effects": [{"at": {"of": "minY", "times": 1e6}, "effect": {"blur": 2}}]}}"#
        )
        let mappings = try XCTUnwrap(job.layers[1].visualEffect)
        let times = [-1e9, 30, 1e9].map { minY in
            (mappings.effects(for: MappingInputs(frame: SIMD4(0, minY, 10, minY + 10)))[0] as? EffectAtTime)?
                .time
        }
        XCTAssertEqual(times, [-MappedEffect.timeBound, MappedEffect.timeBound, MappedEffect.timeBound])
        XCTAssertEqual(pixels(job), pixels(job, threads: 1))
    }

    func testBadMappedEffectsAreRefusedWithTheirPaths() throws {
        let cases: [(String, String)] = [
            (
                #""visualEffect": {"effects": [{"at": 1}]}"#,
                "layers[1].visualEffect.effects[0]: missing required key 'effect'"
            ),
            (
                #""visualEffect": {"effects": [{"effect": {"hueRotaton": 3}}]}"#,
                "layers[1].visualEffect.effects[0].effect.hueRotaton: unknown effect 'hueRotaton'; did you mean 'hueRotation'?"
            ),
            (
                #""visualEffect": {"effects": [{"effect": {"blur": 2}, "when": 1}]}"#,
                "layers[1].visualEffect.effects[0].when: unknown key 'when'"
            ),
            (
                #""visualEffect": {"effects": {"blur": 2}}"#,
                "layers[1].visualEffect.effects: expected an array"
            ),
        ]
        for (keys, message) in cases {
            XCTAssertThrowsError(try job("{\(Self.card), \(keys)}"), keys) { error in
                XCTAssertTrue("\(error)".contains(message), "\(error)")
            }
        }
    }
}
