import Foundation
import KilnModel
import KilnRaster
import KilnScene
import XCTest

final class ColorMatrixTests: XCTestCase {
    func matrix(_ effect: any ColorEffect) -> ColorMatrix { effect.matrix(at: 0) }

    func apply(_ m: ColorMatrix, _ c: PremultipliedColor) -> PremultipliedColor {
        let band = PlanarBand(width: 8, rows: 1)
        band.fill(c, rows: 1)
        m.apply(to: band, rows: 1)
        return band.pixel(x: 3, row: 0)
    }

    func testIdentityParametersReturnTheInput() {
        let c = PremultipliedColor(r: 0.12, g: 0.34, b: 0.05, a: 0.6)
        for effect: any ColorEffect in [
            BrightnessEffect(amount: .constant(0)), ContrastEffect(amount: .constant(1)),
            SaturationEffect(amount: .constant(1)), GrayscaleEffect(amount: .constant(0)),
            HueRotationEffect(degrees: .constant(0)), OpacityEffect(amount: .constant(1)),
        ] {
            let out = apply(matrix(effect), c)
            XCTAssertEqual(out.r, c.r, accuracy: 1e-6, "\(effect)")
            XCTAssertEqual(out.g, c.g, accuracy: 1e-6, "\(effect)")
            XCTAssertEqual(out.b, c.b, accuracy: 1e-6, "\(effect)")
            XCTAssertEqual(out.a, c.a, accuracy: 1e-6, "\(effect)")
        }
        let turn = apply(matrix(HueRotationEffect(degrees: .constant(360))), c)
        XCTAssertEqual(turn.g, c.g, accuracy: 1e-5)
    }

    func testTransparentPixelsStayTransparent() {
        let m = matrix(BrightnessEffect(amount: .constant(0.8))).concatenating(
            matrix(ContrastEffect(amount: .constant(3))))
        XCTAssertEqual(apply(m, .transparent), .transparent)
    }

    /// Straight-colour definitions, checked on premultiplied pixels.
    func testEffectsMatchTheirDefinitions() {
        let c = PremultipliedColor(straightR: 0.8, g: 0.3, b: 0.1, a: 0.5)
        let bright = apply(matrix(BrightnessEffect(amount: .constant(0.1))), c)
        XCTAssertEqual(bright.r / bright.a, 0.9, accuracy: 1e-5)
        let contrast = apply(matrix(ContrastEffect(amount: .constant(2))), c)
        XCTAssertEqual(contrast.g / contrast.a, 0.1, accuracy: 1e-5)  // (0.3 − 0.5)·2 + 0.5
        let grey = apply(matrix(GrayscaleEffect(amount: .constant(1))), c)
        XCTAssertEqual(grey.r, grey.g, accuracy: 1e-6)
        XCTAssertEqual(grey.g, grey.b, accuracy: 1e-6)
        XCTAssertEqual(grey.r / grey.a, 0.2126 * 0.8 + 0.7152 * 0.3 + 0.0722 * 0.1, accuracy: 1e-5)
        // Hue rotation keeps luma (for a colour that stays in gamut, so no channel is clipped).
        let muted = PremultipliedColor(straightR: 0.5, g: 0.4, b: 0.35, a: 0.5)
        let turned = apply(matrix(HueRotationEffect(degrees: .constant(137))), muted)
        let luma = { (p: PremultipliedColor) in 0.213 * p.r + 0.715 * p.g + 0.072 * p.b }
        XCTAssertEqual(luma(turned), luma(muted), accuracy: 1e-3)
        XCTAssertNotEqual(turned.r, muted.r, accuracy: 0.01)
        XCTAssertEqual(apply(matrix(OpacityEffect(amount: .constant(0.5))), c).a, 0.25, accuracy: 1e-6)
    }

    /// Composition applies stages in the order written.
    func testCompositionOrder() {
        let c = PremultipliedColor(straightR: 0.7, g: 0.2, b: 0.4, a: 1)
        let brightness = matrix(BrightnessEffect(amount: .constant(0.2)))
        let contrast = matrix(ContrastEffect(amount: .constant(2)))
        let sequential = apply(contrast, apply(brightness, c))
        let composed = apply(contrast.concatenating(brightness), c)
        XCTAssertEqual(sequential.g, composed.g, accuracy: 1e-5)
        XCTAssertNotEqual(apply(brightness.concatenating(contrast), c).g, composed.g, accuracy: 1e-3)
    }

    /// End to end: a grey layer with hue rotation stays grey; a red solid turned 180° goes cyan-ish.
    func testEffectsApplyInTheRenderer() throws {
        let job = try Fixture.job(
            """
            {"kiln": 1, "output": {"width": 32, "height": 16, "fps": 30, "duration": 1},
             "layers": [{"type": "solid", "color": "#ff0000", "effects": [{"hueRotation": 180}]}]}
            """)
        let p = Fixture.render(job).pixel(x: 5, y: 5)
        XCTAssertLessThan(p[0], 60)
        XCTAssertGreaterThan(p[1], 60)
        XCTAssertGreaterThan(p[2], 60)
    }

    /// Colours that scale every channel alike are an opacity: the item is faded instead of
    /// getting a colour pass, and renders as the same layer with that opacity.
    func testUniformScaleIsFoldedIntoOpacity() throws {
        XCTAssertEqual(matrix(OpacityEffect(amount: .constant(0.55))).uniformScale, 0.55)
        XCTAssertEqual(ColorMatrix.identity.uniformScale, 1)
        XCTAssertNil(matrix(BrightnessEffect(amount: .constant(0.2))).uniformScale)
        XCTAssertNil(
            ColorMatrix(rows: [[0.5, 0, 0, 0], [0, 0.5, 0, 0], [0, 0, 0.5, 0], [0, 0, 0, 1]]).uniformScale)
        func job(_ layer: String) throws -> Job {
            try Fixture.job(
                """
                {"kiln": 1, "output": {"width": 64, "height": 48, "fps": 30, "duration": 1},
                 "layers": [{"type": "solid", "color": "#204080"},
                            {"type": "shape", "shape": "circle", "size": [40, 40], "position": [32, 24],
                             "fill": "#ffd27a", \(layer)}]}
                """)
        }
        let effect = try job(#""effects": [{"opacity": 0.55}]"#)
        let property = try job(#""opacity": 0.55"#)
        let canvas = Canvas(width: 64, height: 48)
        let item = try XCTUnwrap(effect.layers[1].prepare(at: 0, canvas: canvas))
        XCTAssertNil(item.colors)
        XCTAssertEqual(item.opacity, 0.55, accuracy: 1e-6)
        XCTAssertEqual(
            Fixture.renderYUV(effect, at: 0, threads: 1), Fixture.renderYUV(property, at: 0, threads: 1))
        // Other colours keep their pass.
        let brightened = try job(#""effects": [{"opacity": 0.55}, {"brightness": 0.1}]"#)
        XCTAssertNotNil(try XCTUnwrap(brightened.layers[1].prepare(at: 0, canvas: canvas)).colors)
    }
}
