import Foundation
import KilnExport
import KilnModel
import KilnRaster
import KilnScene
import XCTest

/// `mask` (alpha and luma mattes, inverted or not) and `compositingGroup`: masked frames against
/// a reference computed from the layer and the mask rendered apart.
final class MaskTests: XCTestCase {
    private func job(_ layers: String, width: Int = 96, height: Int = 64, duration: Double = 1) throws -> Job
    {
        try Fixture.job(
            """
            {"kiln": 1, "output": {"width": \(width), "height": \(height), "fps": 30, "duration": \(duration)},
             "layers": [\(layers)]}
            """)
    }

    /// A full-frame mesh of saturated colours: every channel varies across the frame.
    private let mesh = ##"""
        {"type": "meshGradient", "width": 2, "height": 2, "points": [[0, 0], [1, 0], [0, 1], [1, 1]],
         "colors": ["#ff2040", "#20e0ff", "#f0f020", "#6020c0"]}
        """##

    /// Soft, partly transparent and white: a mask whose alpha varies.
    private let whiteMask = ##"""
        {"type": "group", "layers": [
          {"type": "shape", "shape": "circle", "size": [40, 40], "position": [34, 32], "fill": "#ffffff",
           "effects": [{"blur": 4}]},
          {"type": "shape", "shape": "roundedRect", "size": [40, 30], "cornerRadius": 8, "position": [66, 36],
           "gradient": ["#ffffff40", "#ffffff", "#ffffffc0"], "gradientStart": [0, 0], "gradientEnd": [1, 1]}]}
        """##

    /// Soft, partly transparent and coloured: a mask whose alpha and luma both vary.
    private let maskLayer = ##"""
        {"type": "group", "layers": [
          {"type": "shape", "shape": "circle", "size": [40, 40], "position": [34, 32], "fill": "#ffffff",
           "effects": [{"blur": 4}]},
          {"type": "shape", "shape": "roundedRect", "size": [40, 30], "cornerRadius": 8, "position": [66, 36],
           "gradient": ["#ff000040", "#00ff00", "#0000ffc0"], "gradientStart": [0, 0], "gradientEnd": [1, 1]}]}
        """##

    private enum Matte { case alpha, luminance }

    /// Pixel by pixel, `masked` against `layer` × the coverage of `mask`, all three rendered
    /// opaque over black: within one code value, the 8-bit rounding of the layer and the mask
    /// included. Over black a pixel is its premultiplied colour, so the mask's luma there is its
    /// luma·alpha; an alpha mask must be white (its value is then its alpha).
    private func assertMatches(
        _ masked: RGBA8Frame, layer: RGBA8Frame, mask: RGBA8Frame, matte: Matte, inverted: Bool,
        _ message: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        var worst = 0
        for y in 0..<masked.height {
            for x in 0..<masked.width {
                let m = mask.pixel(x: x, y: y), l = layer.pixel(x: x, y: y), p = masked.pixel(x: x, y: y)
                // Every frame carries the same dither at a pixel (it depends on the position
                // only): values without it, masked, with it again.
                let dither = Double(Quantizer.ditherScalar(x: x, y: y))
                func value(_ code: UInt8) -> Double { (Double(code) - dither) / 255 }
                var coverage =
                    switch matte {
                    case .alpha: value(m[0])
                    case .luminance: 0.2126 * value(m[0]) + 0.7152 * value(m[1]) + 0.0722 * value(m[2])
                    }
                coverage = min(max(coverage, 0), 1)
                if inverted { coverage = 1 - coverage }
                for c in 0..<3 {
                    let expected = ((Double(l[c]) - dither) * coverage + dither).rounded()
                    worst = max(worst, abs(Int(p[c]) - Int(min(max(expected, 0), 255))))
                }
            }
        }
        XCTAssertLessThanOrEqual(worst, 1, message, file: file, line: line)
    }

    private func maxDifference(_ a: [UInt8], _ b: [UInt8]) -> Int {
        zip(a, b).map { abs(Int($0) - Int($1)) }.max() ?? 0
    }

    private func masked(_ layer: String, by mask: String, mode: String, inverted: Bool) -> String {
        let trimmed = layer.trimmingCharacters(in: .whitespacesAndNewlines).dropLast()
        return trimmed + ##", "mask": {"layer": \##(mask), "mode": "\##(mode)", "inverted": \##(inverted)}}"##
    }

    func testAlphaLuminanceAndInvertedMasksMatchTheReference() throws {
        let layer = Fixture.render(try job(mesh))
        for (mode, matte, maskLayer) in [
            ("alpha", Matte.alpha, whiteMask), ("luminance", .luminance, maskLayer),
        ] {
            let mask = Fixture.render(try job(maskLayer))
            for inverted in [false, true] {
                let frame = Fixture.render(
                    try job(masked(mesh, by: maskLayer, mode: mode, inverted: inverted)))
                assertMatches(
                    frame, layer: layer, mask: mask, matte: matte, inverted: inverted,
                    "\(mode) inverted \(inverted)")
            }
        }
    }

    /// A keyframed mask: at each time the masked frame matches the layer times the mask at that time.
    func testAnimatedMaskFollowsItsKeyframes() throws {
        let moving = ##"""
            {"type": "shape", "shape": "circle", "size": [30, 30], "fill": "#ffffff",
             "position": {"keyframes": [{"t": 0, "v": [10, 20]}, {"t": 1, "v": [80, 44], "ease": "linear"}]},
             "scale": {"keyframes": [{"t": 0, "v": 0.5}, {"t": 1, "v": 1.5}]}}
            """##
        let maskedJob = try job(masked(mesh, by: moving, mode: "alpha", inverted: false))
        let maskJob = try job(moving)
        let layer = Fixture.render(try job(mesh))
        for time in [0.0, 0.37, 0.8] {
            assertMatches(
                Fixture.render(maskedJob, at: time), layer: layer, mask: Fixture.render(maskJob, at: time),
                matte: .alpha,
                inverted: false, "t=\(time)")
        }
    }

    /// The mask is laid out in the masked layer's box and moves with it: moving the layer by
    /// whole pixels moves the masked picture by the same pixels (within the dither, which
    /// depends on the frame position).
    func testMaskMovesWithTheLayer() throws {
        func card(_ x: Int) -> String {
            ##"""
            {"type": "shape", "shape": "rect", "size": [40, 40], "anchor": [0, 0], "position": [\##(x), 10],
             "gradient": ["#ff0000", "#0000ff"], "gradientStart": [0, 0], "gradientEnd": [1, 1],
             "mask": {"layer": {"type": "shape", "shape": "circle", "size": [30, 30], "position": [20, 20],
                                "fill": "#ffffff"}}}
            """##
        }
        let left = Fixture.render(try job(card(8))), right = Fixture.render(try job(card(40)))
        for y in 0..<64 {
            for x in 0..<48 {
                let a = left.pixel(x: x, y: y), b = right.pixel(x: x + 32, y: y)
                XCTAssertTrue(
                    (0..<4).allSatisfy { abs(Int(a[$0]) - Int(b[$0])) <= 1 }, "(\(x), \(y)) \(a) \(b)")
            }
        }
        // The circle's corners are cut away: the card's corner is black, its centre is not.
        XCTAssertEqual(left.pixel(x: 10, y: 12), SIMD4(0, 0, 0, 255))
        XCTAssertNotEqual(left.pixel(x: 28, y: 30), SIMD4(0, 0, 0, 255))
    }

    /// Masks on a group, a text and an image: a mask covering the whole box changes nothing
    /// (its coverage is exactly 1; the masked path may composite in another order, so within a
    /// code value), and inverted it hides everything.
    func testMaskOnGroupTextAndImage() throws {
        let photos = Fixture.repositoryRoot.appendingPathComponent("jobs/photos/ocean.png").path
        let layers = [
            ##"{"type": "group", "layers": [\##(mesh), {"type": "shape", "shape": "circle", "size": [30, 30], "fill": "#ffffff"}]}"##,
            ##"{"type": "text", "text": "Kiln", "size": 40, "weight": "bold", "color": "#ffcc00", "position": [48, 32]}"##,
            ##"{"type": "image", "path": "\##(photos)", "size": [80, 56], "position": [48, 32]}"##,
        ]
        let whole = ##"{"type": "solid", "color": "#ffffff"}"##
        for layer in layers {
            let plain = Fixture.render(try job(layer)).byteArray
            XCTAssertGreaterThan(
                plain.enumerated().filter { $0.offset % 4 != 3 && $0.element > 0 }.count, 100)
            for mode in ["alpha", "luminance"] {
                let fullyMasked = Fixture.render(
                    try job(masked(layer, by: whole, mode: mode, inverted: false)))
                XCTAssertLessThanOrEqual(maxDifference(plain, fullyMasked.byteArray), 1, "\(mode) \(layer)")
            }
            let none = Fixture.render(try job(masked(layer, by: whole, mode: "alpha", inverted: true)))
            XCTAssertTrue(
                none.byteArray.enumerated().allSatisfy { $0.offset % 4 == 3 || $0.element == 0 }, layer)
        }
    }

    /// The mask composes with the layer's effects and transitions: a blurred, entering layer
    /// masked is its unmasked frame times the mask.
    func testMaskWithEffectsAndTransition() throws {
        let layer = ##"""
            {"type": "shape", "shape": "roundedRect", "size": [70, 46], "cornerRadius": 10, "position": [48, 32],
             "gradient": ["#ffcc00", "#ff0066"], "effects": [{"blur": 2}, {"saturation": 1.4}],
             "appear": 0, "transition": "scale", "transitionAnimation": {"duration": 1}}
            """##
        // The same box as the layer (70 × 46 centred), so the reference can place the mask alone.
        let inBox =
            ##"{"type": "shape", "shape": "circle", "size": [46, 46], "position": [35, 23], "fill": "#ffffff"}"##
        let alone =
            ##"{"type": "shape", "shape": "circle", "size": [46, 46], "position": [48, 32], "fill": "#ffffff"}"##
        let frame = Fixture.render(try job(masked(layer, by: inBox, mode: "alpha", inverted: false)), at: 1)
        assertMatches(
            frame, layer: Fixture.render(try job(layer), at: 1), mask: Fixture.render(try job(alone)),
            matte: .alpha,
            inverted: false, "settled")
    }

    /// 1 thread and several give the same bytes for every mask mode.
    func testMasksAreThreadIndependent() throws {
        for mode in ["alpha", "luminance"] {
            for inverted in [false, true] {
                let j = try job(
                    masked(mesh, by: maskLayer, mode: mode, inverted: inverted), width: 200, height: 150)
                XCTAssertEqual(
                    Fixture.renderYUV(j, threads: 1), Fixture.renderYUV(j, threads: 5), "\(mode) \(inverted)")
                XCTAssertEqual(
                    Fixture.render(j, threads: 1).byteArray, Fixture.render(j, threads: 3).byteArray,
                    "\(mode) \(inverted)")
            }
        }
    }

    /// A mask that is not there yet shows nothing through it, and an inverted one hides nothing.
    func testAbsentMaskLayer() throws {
        let later = ##"{"type": "solid", "color": "#ffffff", "appear": 0.5, "transition": "identity"}"##
        let plain = Fixture.render(try job(mesh))
        let hidden = Fixture.render(try job(masked(mesh, by: later, mode: "alpha", inverted: false)))
        XCTAssertTrue(hidden.byteArray.enumerated().allSatisfy { $0.offset % 4 == 3 || $0.element == 0 })
        let shown = Fixture.render(try job(masked(mesh, by: later, mode: "alpha", inverted: true)))
        XCTAssertEqual(plain.byteArray, shown.byteArray)
    }

    func testBadMasksAreRefusedWithTheirPaths() {
        let cases: [(String, [String])] = [
            (
                ##""mask": {"layer": {"type": "solid", "color": "#fff"}, "mode": "luma"}"##,
                ["layers[0].mask.mode", "'luma' is not one of"]
            ),
            (
                ##""mask": {"layer": {"type": "solid", "color": "#fff"}, "invert": true}"##,
                ["layers[0].mask.invert", "unknown key 'invert'", "did you mean 'inverted'"]
            ),
            (##""mask": {"mode": "alpha"}"##, ["layers[0].mask", "missing required key 'layer'"]),
            (##""mask": {"layer": {"type": "solid", "colour": "#fff"}}"##, ["layers[0].mask.layer"]),
            (##""mask": 3"##, ["layers[0].mask", "expected a mask object"]),
            (##""compositingGroup": false"##, ["layers[0].compositingGroup", "unknown key"]),
        ]
        for (key, expected) in cases {
            XCTAssertThrowsError(try job(##"{"type": "solid", "color": "#000000", \##(key)}"##)) { error in
                let text = "\(error)"
                for part in expected { XCTAssertTrue(text.contains(part), "missing '\(part)' in\n\(text)") }
            }
        }
    }

    // MARK: compositingGroup

    /// Two overlapping opaque squares in a half-faded group. A compositing group (the default,
    /// what groups always were) fades the composited picture: the overlap looks like one square.
    /// `false` fades each child: the lower one shows through the upper, exactly as the two
    /// squares placed at the top level at half opacity.
    func testCompositingGroupFadesThePictureOrEachChild() throws {
        let squares = ##"""
            {"type": "shape", "shape": "rect", "size": [40, 40], "position": [30, 32], "fill": "#ff0000"},
            {"type": "shape", "shape": "rect", "size": [40, 40], "position": [60, 32], "fill": "#0000ff"}
            """##
        let faded = ##"""
            {"type": "shape", "shape": "rect", "size": [40, 40], "position": [30, 32], "fill": "#ff0000", "opacity": 0.5},
            {"type": "shape", "shape": "rect", "size": [40, 40], "position": [60, 32], "fill": "#0000ff", "opacity": 0.5}
            """##
        let grouped = Fixture.render(
            try job(##"{"type": "group", "opacity": 0.5, "layers": [\##(squares)]}"##))
        let explicit = Fixture.render(
            try job(
                ##"{"type": "group", "opacity": 0.5, "compositingGroup": true, "layers": [\##(squares)]}"##))
        let passThrough = Fixture.render(
            try job(
                ##"{"type": "group", "opacity": 0.5, "compositingGroup": false, "layers": [\##(squares)]}"##))
        let topLevel = Fixture.render(try job(faded))
        XCTAssertEqual(grouped.byteArray, explicit.byteArray)
        XCTAssertEqual(passThrough.byteArray, topLevel.byteArray)
        // The overlap (x 40…50): the blue square alone at half, or blue over half-red at half.
        XCTAssertEqual(grouped.pixel(x: 45, y: 32), SIMD4(0, 0, 128, 255))
        let overlap = passThrough.pixel(x: 45, y: 32)
        XCTAssertTrue(abs(Int(overlap[0]) - 64) <= 1 && abs(Int(overlap[2]) - 128) <= 1, "\(overlap)")
    }

    /// Children's blend modes: within a compositing group they mix with the group's other
    /// children only; without one, with what lies below the group, as at the top level.
    func testCompositingGroupIsolatesChildrenBlendModes() throws {
        let red = ##"{"type": "solid", "color": "#ff0000"}"##
        let grey =
            ##"{"type": "shape", "shape": "rect", "size": [40, 40], "position": [48, 32], "fill": "#808080", "blendMode": "multiply"}"##
        let isolated = Fixture.render(try job(red + ##", {"type": "group", "layers": [\##(grey)]}"##))
        let passThrough = Fixture.render(
            try job(red + ##", {"type": "group", "compositingGroup": false, "layers": [\##(grey)]}"##))
        let topLevel = Fixture.render(try job(red + ", " + grey))
        XCTAssertEqual(isolated.pixel(x: 48, y: 32), SIMD4(128, 128, 128, 255))
        XCTAssertEqual(passThrough.byteArray, topLevel.byteArray)
        XCTAssertEqual(passThrough.pixel(x: 48, y: 32), SIMD4(128, 0, 0, 255))
        // Nested pass-through groups and a stack pass through too.
        let nested = Fixture.render(
            try job(
                red
                    + ##", {"type": "group", "compositingGroup": false, "layers": [{"type": "stack", "compositingGroup": false, "layers": [\##(grey)]}]}"##
            ))
        XCTAssertEqual(nested.pixel(x: 48, y: 32)[1], 0)
    }

    /// A container whose picture is needed (a mask, colours, a blur, its own blend mode) is
    /// composited first even when `compositingGroup` is false.
    func testPassThroughFallsBackWhenThePictureIsNeeded() throws {
        let red = ##"{"type": "solid", "color": "#ff0000"}"##
        let grey =
            ##"{"type": "shape", "shape": "rect", "size": [40, 40], "position": [48, 32], "fill": "#808080", "blendMode": "multiply"}"##
        for extra in [
            ##""effects": [{"brightness": 0.1}]"##, ##""blendMode": "screen""##, ##""clip": "rect""##,
            ##""effects": [{"blur": 2}]"##, ##""effects": [{"shadow": {"radius": 3, "y": 2}}]"##,
            ##""mask": {"layer": {"type": "shape", "shape": "circle", "size": [30, 30], "fill": "#ffffff"}}"##,
        ] {
            let withKey = Fixture.render(
                try job(
                    red
                        + ##", {"type": "group", "compositingGroup": false, \##(extra), "layers": [\##(grey)]}"##
                ))
            let without = Fixture.render(
                try job(red + ##", {"type": "group", \##(extra), "layers": [\##(grey)]}"##))
            XCTAssertEqual(withKey.byteArray, without.byteArray, extra)
        }
    }
}
