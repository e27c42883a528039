import Foundation
import KilnExport
import KilnModel
import KilnRaster
import KilnScene
import KilnTestSupport
import XCTest

/// Ripple and background warp against scalar references written straight from the seed's
/// formulas (plain loops, Double), identities, noise properties, contracts and bad input.
final class PixelEffectTests: XCTestCase {
    func testRippleMatchesTheSeedFormula() {
        var rng = SplitMix(state: 11)
        let (width, height) = (96, 64)
        for round in 0..<12 {
            let image = StageReference.randomImage(width: width, height: height, &rng)
            let amplitude = Double.random(in: 2...30, using: &rng) * (round % 2 == 0 ? 1 : -1)
            let frequency = Double.random(in: 0...40, using: &rng)
            let decay = Double.random(in: 0...10, using: &rng)
            let speed = Double.random(in: 100...3000, using: &rng)
            let waves = (0..<(1 + round % 3)).map { _ in
                (
                    origin: SIMD2(
                        Double.random(in: -20...116, using: &rng), Double.random(in: -20...84, using: &rng)),
                    elapsed: Double.random(in: 0.01...2, using: &rng)
                )
            }
            let ripple = Ripple(
                amplitude: Float(amplitude), frequency: Float(frequency), decay: Float(decay),
                speed: Float(speed),
                waves: waves.map {
                    Ripple.Wave(
                        origin: SIMD2(Float($0.origin.x), Float($0.origin.y)), elapsed: Float($0.elapsed))
                })!
            let share = StageReference.agreement([ripple], image: image, width: width, height: height) {
                x, y in
                // The seed's Ripple shader, one wave after another.
                var position = SIMD2(x, y), total = 0.0
                for wave in waves {
                    let d = SIMD2(x, y) - wave.origin
                    let distance = (d.x * d.x + d.y * d.y).squareRoot()
                    let t = max(0, wave.elapsed - distance / speed)
                    let amount = amplitude * sin(frequency * t) * exp(-decay * t)
                    if distance > 0 { position += amount * d / distance }
                    total += amount
                }
                var c = StageReference.referenceSample(
                    image, width: width, height: height, x: position.x, y: position.y)
                let lift = 0.3 * (total / amplitude) * c[3]
                c[0] += lift
                c[1] += lift
                c[2] += lift
                return StageReference.valid(c)
            }
            XCTAssertGreaterThanOrEqual(share, 0.999, "round \(round)")
        }
    }

    /// The ripple maps groups of eight pixels two at a time where it can; a group alone (a batch of
    /// one, as at a layer's right edge) goes through the one-group path. Both must give the same
    /// bits, also where a wave's front or origin falls inside one of the two groups only.
    func testRippleGivesTheSameBitsForGroupsTwoAtATimeAndAlone() {
        var rng = SplitMix(state: 15)
        let (width, height) = (160, 48)
        let image = StageReference.randomImage(width: width, height: height, &rng)
        let sampler = PlanarSampler(image: image, rows: 0..<height, columns: 0..<width, edges: .transparent)
        for round in 0..<8 {
            let waves = (0..<(1 + round % 3)).map { _ in
                // Origins on pixel centres sometimes, so a lane sits exactly at one.
                Ripple.Wave(
                    origin: SIMD2(
                        Float(Int.random(in: -10...170, using: &rng)) + (round % 2 == 0 ? 0.5 : 0.25),
                        Float(Int.random(in: -10...58, using: &rng)) + 0.5),
                    elapsed: Float.random(in: 0.005...0.1, using: &rng))
            }
            let ripple = Ripple(
                amplitude: Float.random(in: 2...30, using: &rng) * (round % 2 == 0 ? 1 : -1),
                frequency: Float.random(in: 1...40, using: &rng),
                decay: Float.random(in: 0...10, using: &rng),
                speed: Float.random(in: 300...1500, using: &rng), waves: waves)!
            let pipeline = PixelPipeline(stages: [ripple], frameFromLocal: .identity)!
            let whole = PlanarBand(width: width, rows: height), alone = PlanarBand(width: width, rows: height)
            pipeline.paint(
                into: whole, firstRow: 0, rows: height, columns: 0..<width, extent: (0..<height, 0..<width),
                source: sampler)
            for x in stride(from: 0, to: width, by: 8) {
                pipeline.paint(
                    into: alone, firstRow: 0, rows: height, columns: x..<(x + 8),
                    extent: (0..<height, 0..<width), source: sampler)
            }
            var differing: [String] = [], changed = 0
            for y in 0..<height {
                for x in 0..<width {
                    let i = y * whole.stride + x
                    for (a, b) in [
                        (whole.r, alone.r), (whole.g, alone.g), (whole.b, alone.b), (whole.a, alone.a),
                    ]
                    where a[i].bitPattern != b[i].bitPattern {
                        differing.append("(\(x), \(y)): \(a[i]) against \(b[i])")
                    }
                    if whole.r[i] != image.r[i] { changed += 1 }
                }
            }
            XCTAssertEqual(differing.count, 0, "round \(round): \(differing.prefix(4))")
            XCTAssertGreaterThan(changed, 0, "round \(round): the waves changed something")
        }
    }

    /// The noise texture's bilinear repeat lookup, in Double.
    func referenceNoise(_ texture: NoiseTexture, u: Double, v: Double) -> SIMD2<Double> {
        let tx = u * Double(texture.width) - 0.5, ty = v * Double(texture.height) - 0.5
        let fx = tx.rounded(.down), fy = ty.rounded(.down)
        let wx = tx - fx, wy = ty - fy
        func texel(_ x: Double, _ y: Double) -> SIMD2<Double> {
            let t = texture.texel(x: Int(x), y: Int(y))
            return SIMD2(Double(t.red), Double(t.green))
        }
        let top = texel(fx, fy) * (1 - wx) + texel(fx + 1, fy) * wx
        let bottom = texel(fx, fy + 1) * (1 - wx) + texel(fx + 1, fy + 1) * wx
        return top * (1 - wy) + bottom * wy
    }

    func testDomainWarpMatchesTheSeedFormula() {
        var rng = SplitMix(state: 12)
        let (width, height) = (96, 64)
        for round in 0..<8 {
            let image = StageReference.randomImage(width: width, height: height, &rng)
            let size = [16, 32, 64][round % 3]
            // Random smooth noise (a random seed), as the effect is used: with texel-to-texel white
            // noise at strength 200 a pixel's source moves ~100 px per pixel, and Float rounding
            // of the position alone decides which source pixel is read.
            let texture = NoiseTexture.generated(seed: rng.next() & 0xFFFF, size: size, cells: 2, octaves: 3)
            let strength = Double.random(in: 1...200, using: &rng)
            let flow = Double(Float.random(in: 0..<1, using: &rng))
            let domain = round % 2 == 0
            let warp = NoiseWarp(
                mode: domain ? .domainWarp(texture) : .noise(texture),
                size: SIMD2(Float(width), Float(height)),
                strength: Float(strength), flow: Float(flow))
            let share = StageReference.agreement([warp], image: image, width: width, height: height) { x, y in
                // The seed's backgroundWarp with domain warping.
                let uv = SIMD2(x / Double(width), y / Double(height)) + flow
                var n = self.referenceNoise(texture, u: uv.x, v: uv.y)
                if domain { n = self.referenceNoise(texture, u: uv.x + n.x, v: uv.y + n.y) }
                let offset = (n - 0.5) * strength
                return StageReference.referenceSample(
                    image, width: width, height: height, x: x + offset.x, y: y + offset.y)
            }
            XCTAssertGreaterThanOrEqual(share, 0.999, "round \(round)")
        }
    }

    // MARK: Identities

    /// A constant noise of exactly 0.5 offsets nothing: the single-lookup warp returns the input
    /// (as the packed half-float copy it samples holds it).
    func testConstantHalfNoiseIsTheIdentity() {
        var rng = SplitMix(state: 13)
        let image = StageReference.randomImage(width: 40, height: 24, &rng)
        let half = [Float](repeating: 0.5, count: 64)
        let texture = NoiseTexture(width: 8, height: 8, red: half, green: half)
        let warp = NoiseWarp(mode: .noise(texture), size: SIMD2(40, 24), strength: 200, flow: 0.3)
        let out = PlanarBand(width: 40, rows: 24)
        PixelPipeline(stages: [warp], frameFromLocal: .identity)!.paint(
            into: out, firstRow: 0, rows: 24, columns: 0..<40, extent: (0..<24, 0..<40),
            source: PlanarSampler(image: image, rows: 0..<24, columns: 0..<40, edges: .transparent))
        // A distortion reads its layer from the packed half-float copy, moved pixels and unmoved
        // alike: the input exactly as that copy holds it.
        func asHalf(_ v: Float) -> Float { Float(Float16(v)) }
        var differing = 0
        for y in 0..<24 {
            for x in 0..<40 {
                let (o, i) = (out.pixel(x: x, row: y), image.pixel(x: x, row: y))
                if o != PremultipliedColor(r: asHalf(i.r), g: asHalf(i.g), b: asHalf(i.b), a: asHalf(i.a)) {
                    differing += 1
                }
            }
        }
        XCTAssertEqual(differing, 0)
    }

    func testIdentityParametersReturnTheInput() throws {
        let plain = Fixture.render(try StageReference.cardJob("[]"), at: 1).byteArray
        let identities = [
            #"[{"ripple": {"amplitude": 0, "triggers": [{"at": 0.5, "origin": [60, 40]}]}}]"#,
            #"[{"ripple": {"triggers": [{"at": 1.5, "origin": [60, 40]}]}}]"#,
            #"[{"ripple": {"duration": 0.2, "triggers": [{"at": 0.5, "origin": [60, 40]}]}}]"#,
            #"[{"backgroundWarp": {"strength": 0}}]"#,
            #"[{"backgroundWarp": {"mode": "offset"}}]"#,
            #"[{"shear": {"x": 0, "y": 0}}]"#,
            #"[{"wave": {"amplitude": 0}}]"#,
            ##"[{"gradientMap": {"colors": ["#000000", "#ffffff"], "amount": 0}}]"##,
            #"[{"tint": {"amount": 0}}]"#,
        ]
        for effects in identities {
            XCTAssertEqual(
                Fixture.render(try StageReference.cardJob(effects), at: 1).byteArray, plain, effects)
        }
    }

    /// The gradient map against its definition, written with scalars: luma of the straight
    /// colour, clamped to 0…1, × 256 picks table entry ⌊·⌋ (at most 255) and the next, linearly;
    /// the result is premultiplied by the entry's alpha and the pixel's, blended by `amount`.
    func testGradientMapMatchesItsScalarDefinition() {
        let stops: [SIMD4<Float>] = [
            SIMD4(0.05, 0.1, 0.3, 1), SIMD4(0.9, 0.4, 0.15, 0.8), SIMD4(1, 0.95, 0.85, 1),
        ]
        let color = { (position: Double) -> SIMD4<Float> in
            let scaled = position * 2
            let i = min(Int(scaled), 1)
            let f = Float(scaled - Double(i))
            return stops[i] + (stops[i + 1] - stops[i]) * f
        }
        let map = GradientMap(amount: 0.75, color: color)
        let table = (0...256).map { color(Double($0) / 256) }
        var rng = SplitMix(state: 11)
        for _ in 0..<200 {
            var r = SIMD8<Float>(), g = SIMD8<Float>(), b = SIMD8<Float>(), a = SIMD8<Float>()
            for lane in 0..<8 {
                // Alpha 0, 1 and between; colours at the ends (luma exactly 0 or 1) and inside.
                let alpha: Float = [0, 1, 0.5, Float(rng.next() % 1000) / 999][lane % 4]
                let pick = { (k: UInt64) -> Float in [0, 1, Float(k % 1001) / 1000][Int(k % 3)] }
                (r[lane], g[lane], b[lane], a[lane]) = (
                    pick(rng.next()) * alpha, pick(rng.next()) * alpha, pick(rng.next()) * alpha, alpha
                )
            }
            var (mr, mg, mb, ma) = (r, g, b, a)
            map.apply(&mr, &mg, &mb, &ma, at: PixelPosition(x: .zero, y: .zero, pixelLength: 1))
            for lane in 0..<8 {
                let alpha = a[lane]
                let inverse: Float = alpha > 0 ? 1 / alpha : 0
                let luma = (0.2126 * r[lane] + 0.7152 * g[lane] + 0.0722 * b[lane]) * inverse
                let position = min(max(luma, 0), 1) * 256
                let i = min(Int(position), 255)
                let entry = table[i] + (table[i + 1] - table[i]) * (position - Float(i))
                let mapped = entry.w * alpha
                let expected = SIMD4(
                    r[lane] + (entry.x * mapped - r[lane]) * 0.75,
                    g[lane] + (entry.y * mapped - g[lane]) * 0.75,
                    b[lane] + (entry.z * mapped - b[lane]) * 0.75, alpha + (mapped - alpha) * 0.75)
                XCTAssertEqual(SIMD4(mr[lane], mg[lane], mb[lane], ma[lane]), expected, "lane \(lane)")
            }
        }
    }

    func testStagesChangePixelsWhenActive() throws {
        let plain = Fixture.render(try StageReference.cardJob("[]"), at: 1).byteArray
        for effects in [
            #"[{"ripple": {"triggers": [{"at": 0.8, "origin": [60, 40]}]}}]"#,
            #"[{"backgroundWarp": {"strength": 40}}]"#,
            #"[{"backgroundWarp": {"mode": "offset", "offset": [7, 3]}}]"#,
            #"[{"shear": {"x": 0.3}}]"#, #"[{"wave": {"amplitude": 6, "wavelength": 30}}]"#,
            ##"[{"gradientMap": {"colors": ["#000000", "#ff0000"]}}]"##,
            ##"[{"tint": {"color": "#00ff00"}}]"##,
        ] {
            XCTAssertNotEqual(
                Fixture.render(try StageReference.cardJob(effects), at: 1).byteArray, plain, effects)
        }
    }

    /// Every effect at the ends of its numeric ranges and at its default, after a blur and
    /// before a colour stage:
    /// opaque output over the solid (no NaN, valid premultiplied values) and 1 == 3 threads.
    func testExtremesStayValidAndDeterministic() throws {
        let forms: [(String, [String])] = [
            ("ripple", ["amplitude", "frequency", "decay", "speed"]),
            ("backgroundWarp", ["strength", "speed"]), ("shear", ["x", "y"]),
            ("wave", ["amplitude", "wavelength", "speed"]), ("gradientMap", ["amount"]), ("tint", ["amount"]),
        ]
        for (name, keys) in forms {
            let kind = LayerRegistry.effects.first { $0.name == name }!
            for key in keys {
                guard case .number(let range)? = kind.parameters[key]?.kind,
                    case .number(let standard)? = kind.parameters[key]?.defaultValue
                else { return XCTFail("\(name).\(key)") }
                for value in [range.lowerBound, standard, range.upperBound] {
                    var parameters = [#""\#(key)": \#(value)"#]
                    if name == "ripple" {
                        parameters.append(#""triggers": [{"at": 0.5, "origin": [60, 40]}]"#)
                    }
                    if name == "gradientMap" { parameters.append(##""colors": ["#102030", "#f0e0d0"]"##) }
                    let effects =
                        #"[{"blur": 2}, {"\#(name)": {\#(parameters.joined(separator: ", "))}}, {"brightness": 0.1}]"#
                    let job = try StageReference.cardJob(effects)
                    XCTAssertEqual(
                        Fixture.renderYUV(job, at: 0.9, threads: 1),
                        Fixture.renderYUV(job, at: 0.9, threads: 3),
                        "\(name).\(key) = \(value)")
                    let frame = Fixture.render(job, at: 0.9).byteArray
                    for i in stride(from: 3, to: frame.count, by: 4) where frame[i] != 255 {
                        XCTFail("\(name).\(key) = \(value): alpha \(frame[i]) at byte \(i)")
                        break
                    }
                }
            }
        }
    }

    /// The shipped examples render the same bytes on one thread and on three.
    func testExamplesAreThreadIndependent() throws {
        for name in ["ripple", "warp", "shear", "grayscale"] {
            let job = try JobFiles.load(
                file: Fixture.repositoryRoot.appendingPathComponent("jobs/\(name).json").path)
            XCTAssertEqual(
                Fixture.renderYUV(job, at: 1.9, threads: 1), Fixture.renderYUV(job, at: 1.9, threads: 3), name
            )
        }
    }

    // MARK: Noise

    func testGeneratedNoiseIsSeededTileableSmoothAndTwoChannel() {
        let a = NoiseTexture.generated(seed: 7, size: 64), b = NoiseTexture.generated(seed: 7, size: 64)
        let c = NoiseTexture.generated(seed: 8, size: 64)
        var same = true, differs = false, steepest: Float = 0
        var sumR = 0.0, sumG = 0.0, sumRG = 0.0, sumRR = 0.0, sumGG = 0.0
        for y in 0..<64 {
            for x in 0..<64 {
                let t = a.texel(x: x, y: y)
                if t != b.texel(x: x, y: y) { same = false }
                if t != c.texel(x: x, y: y) { differs = true }
                XCTAssert((0...1).contains(t.red) && (0...1).contains(t.green))
                // Across the wrap as well: the right neighbour of the last column is the first.
                let right = a.texel(x: x + 1, y: y), below = a.texel(x: x, y: y + 1)
                steepest = max(steepest, abs(right.red - t.red), abs(below.green - t.green))
                let (r, g) = (Double(t.red) - 0.5, Double(t.green) - 0.5)
                (sumR, sumG, sumRG, sumRR, sumGG) = (
                    sumR + r, sumG + g, sumRG + r * g, sumRR + r * r, sumGG + g * g
                )
            }
        }
        XCTAssertTrue(same, "same seed, same noise")
        XCTAssertTrue(differs, "another seed, another noise")
        XCTAssertLessThan(steepest, 0.2, "smooth: neighbouring texels differ little, also across the wrap")
        let n = 64.0 * 64
        let correlation =
            (sumRG / n - sumR / n * sumG / n)
            / ((sumRR / n - sumR / n * sumR / n).squareRoot() * (sumGG / n - sumG / n * sumG / n).squareRoot())
        XCTAssertLessThan(abs(correlation), 0.5, "red and green are independent patterns")
        XCTAssertEqual(a.texel(x: 64, y: 3).red, a.texel(x: 0, y: 3).red)
    }

    func testVectorSinAndExpMatchFoundation() {
        var rng = SplitMix(state: 14)
        for _ in 0..<2000 {
            let x = SIMD8<Float>((0..<8).map { _ in Float.random(in: -200...200, using: &rng) })
            let e = SIMD8<Float>((0..<8).map { _ in Float.random(in: -90...10, using: &rng) })
            let s = vectorSin(x), ex = vectorExp(e)
            for lane in 0..<8 {
                XCTAssertEqual(Double(s[lane]), sin(Double(x[lane])), accuracy: 2e-6)
                let expected = exp(Double(e[lane]))
                XCTAssertEqual(Double(ex[lane]), expected, accuracy: max(expected * 2e-6, 1e-37))
            }
        }
    }

    /// The sixteen-lane sine, exponential, reciprocal square root and clamp give each lane the
    /// bits the eight-lane ones give (the ripple relies on it: frames must not depend on how
    /// groups were paired).
    func testSixteenLaneMathGivesTheEightLaneBits() {
        var rng = SplitMix(state: 16)
        func same(_ a: SIMD16<Float>, _ low: SIMD8<Float>, _ high: SIMD8<Float>) -> Bool {
            (0..<8).allSatisfy {
                a[$0].bitPattern == low[$0].bitPattern && a[$0 + 8].bitPattern == high[$0].bitPattern
            }
        }
        for round in 0..<2000 {
            var x = SIMD16<Float>((0..<16).map { _ in Float.random(in: -200...200, using: &rng) })
            var e = SIMD16<Float>((0..<16).map { _ in Float.random(in: -100...100, using: &rng) })
            var q = SIMD16<Float>((0..<16).map { _ in Float.random(in: 0...1e7, using: &rng) })
            if round == 0 {
                (x[3], e[3], q[3]) = (0, 0, 0)
                (x[12], e[12], q[12]) = (-0.0, -0.0, .infinity)
            }
            XCTAssertTrue(same(sine(x), sine(x.lowHalf), sine(x.highHalf)), "sine, round \(round)")
            XCTAssertTrue(
                same(exponential(e), exponential(e.lowHalf), exponential(e.highHalf)),
                "exponential, round \(round)")
            XCTAssertTrue(
                same(
                    reciprocalSquareRoot(q), reciprocalSquareRoot(q.lowHalf), reciprocalSquareRoot(q.highHalf)
                ),
                "reciprocal square root, round \(round)")
            XCTAssertTrue(
                same(positive(x), positive(x.lowHalf), positive(x.highHalf)), "positive, round \(round)")
        }
    }

    // MARK: Bad input

    func diagnostics(_ error: any Error) -> [Diagnostic] {
        guard case .invalid(let diagnostics)? = error as? JobLoadError else { return [] }
        return diagnostics
    }

    func testBadInputIsReportedWithPaths() {
        func messages(_ effects: String, duration: Double = 2) -> [String] {
            do {
                _ = try StageReference.cardJob(effects, duration: duration)
                return []
            } catch {
                return diagnostics(error).map { "\($0.path): \($0.message)" }
            }
        }
        let cases: [(String, String)] = [
            (
                #"[{"ripple": {"amplitude": 5000, "triggers": [{"at": 1, "origin": [0, 0]}]}}]"#,
                "effects[0].ripple.amplitude"
            ),
            (#"[{"ripple": {}}]"#, "missing required key 'triggers'"),
            (#"[{"ripple": {"triggers": []}}]"#, "effects[0].ripple.triggers"),
            (
                #"[{"ripple": {"triggers": [{"at": 5, "origin": [0, 0]}]}}]"#,
                "effects[0].ripple.triggers[0].at"
            ),
            (
                #"[{"ripple": {"triggers": [{"at": -1, "origin": [0, 0]}]}}]"#,
                "effects[0].ripple.triggers[0].at"
            ),
            (#"[{"ripple": {"triggers": [{"at": 1}]}}]"#, "missing required key 'origin'"),
            (#"[{"backgroundWarp": {"strength": -1}}]"#, "effects[0].backgroundWarp.strength"),
            (
                #"[{"backgroundWarp": {"noise": {"generate": {"size": 4}}}}]"#,
                "effects[0].backgroundWarp.noise.generate.size"
            ),
            (#"[{"backgroundWarp": {"noise": {}}}]"#, "exactly one of the two"),
            (#"[{"backgroundWarp": {"noise": {"generate": {"size": 16, "cells": 8}}}}]"#, "at most size / 2"),
            (##"[{"gradientMap": {"colors": ["#000000"]}}]"##, "at least two colours"),
            (#"[{"shear": {"x": 11}}]"#, "effects[0].shear.x"),
            (#"[{"wave": {"axis": "diagonal"}}]"#, "effects[0].wave.axis"),
        ]
        for (effects, expected) in cases {
            let found = messages(effects)
            XCTAssertTrue(found.contains { $0.contains(expected) }, "\(effects): \(found)")
        }
    }

    func testMissingNoiseImageIsAMissingInput() {
        do {
            _ = try StageReference.cardJob(#"[{"backgroundWarp": {"noise": {"path": "no-such-noise.png"}}}]"#)
            XCTFail("a missing noise image must not load")
        } catch {
            XCTAssertTrue(
                diagnostics(error).contains { $0.isMissingInput && "\($0.path)".contains("noise.path") })
        }
    }
}
