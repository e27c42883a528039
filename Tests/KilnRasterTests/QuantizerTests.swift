import KilnRaster
import KilnTestSupport
import XCTest

final class QuantizerTests: XCTestCase {

    func fillBand(_ band: PlanarBand, rows: Int, _ value: (Int, Int) -> PremultipliedColor) {
        for row in 0..<rows {
            for x in 0..<band.width {
                let c = value(x, row)
                let i = row * band.stride + x
                band.r[i] = c.r
                band.g[i] = c.g
                band.b[i] = c.b
                band.a[i] = c.a
            }
        }
    }

    /// A band of random valid premultiplied colours, alpha anywhere in 0…1.
    func randomBand(width: Int, rows: Int, using rng: inout SplitMix) -> PlanarBand {
        let band = PlanarBand(width: width, rows: rows)
        fillBand(band, rows: rows) { _, _ in
            let a = Float.random(in: 0...1, using: &rng)
            return PremultipliedColor(
                r: Float.random(in: 0...1, using: &rng) * a, g: Float.random(in: 0...1, using: &rng) * a,
                b: Float.random(in: 0...1, using: &rng) * a, a: a)
        }
        return band
    }

    /// Straight alpha (the formats that keep transparency): colour ÷ coverage and the coverage,
    /// each the exact value plus the pixel's dither, rounded; no coverage is transparent black,
    /// and full coverage gives exactly the opaque path's bytes. The YUV is unchanged by it.
    func testStraightAlphaDividesColorByCoverage() {
        var rng = SplitMix(state: 7)
        let width = 70, height = 4
        let band = PlanarBand(width: width, rows: height)
        var straight: [SIMD4<Float>] = []
        fillBand(band, rows: height) { x, _ in
            let a: Float = x % 7 == 0 ? 0 : (x % 5 == 0 ? 1 : Float.random(in: 0.02...1, using: &rng))
            let color = SIMD3<Float>(
                Float.random(in: 0...1, using: &rng), Float.random(in: 0...1, using: &rng),
                Float.random(in: 0...1, using: &rng))
            straight.append(a == 0 ? .zero : SIMD4(color, a))
            return PremultipliedColor(r: color.x * a, g: color.y * a, b: color.z * a, a: a)
        }
        let kept = RGBA8Frame(width: width, height: height), opaque = RGBA8Frame(width: width, height: height)
        let yuvKept = YUV420Frame(width: width, height: height),
            yuvOpaque = YUV420Frame(width: width, height: height)
        let scratch = Quantizer.Scratch(width: width)
        Quantizer.write(
            band: band, firstRow: 0, rows: height, yuv: yuvKept, rgba: kept, scratch: scratch,
            straightAlpha: true)
        Quantizer.write(band: band, firstRow: 0, rows: height, yuv: yuvOpaque, rgba: opaque, scratch: scratch)
        for y in 0..<height {
            for x in 0..<width {
                // The exact value plus this pixel's dither, rounded: within half a code of it.
                let want = straight[y * width + x] * 255 + Quantizer.ditherScalar(x: x, y: y)
                let got = kept.pixel(x: x, y: y)
                for c in 0..<4 where straight[y * width + x].w > 0 {
                    XCTAssertEqual(Float(got[c]), want[c], accuracy: 0.5 + 1e-3, "(\(x), \(y)) channel \(c)")
                }
                if straight[y * width + x].w == 0 { XCTAssertEqual(got, .zero, "(\(x), \(y))") }
                if want.w == 255 { XCTAssertEqual(got, opaque.pixel(x: x, y: y), "(\(x), \(y))") }
            }
        }
        XCTAssertTrue(
            zip(
                UnsafeBufferPointer(start: yuvKept.y, count: width * height),
                UnsafeBufferPointer(start: yuvOpaque.y, count: width * height)
            ).allSatisfy { $0 == $1 })
    }

    /// The fused SIMD path must agree with the scalar definition applied to its own RGBA output.
    func testFusedYUVMatchesScalarReference() {
        var rng = SplitMix(state: 42)
        for (width, height) in [(64, 8), (70, 12), (18, 2), (1920, 8), (17, 17), (71, 13), (1, 3)] {
            let band = randomBand(width: width, rows: height, using: &rng)
            let yuv = YUV420Frame(width: width, height: height)
            let rgba = RGBA8Frame(width: width, height: height)
            Quantizer.write(
                band: band, firstRow: 0, rows: height, yuv: yuv, rgba: rgba,
                scratch: Quantizer.Scratch(width: width))
            let reference = Quantizer.referenceYUV(from: rgba)
            var exact = 0, total = 0, worst = 0
            func compare(_ ours: UnsafeMutablePointer<UInt8>, _ theirs: [UInt8]) {
                for i in theirs.indices {
                    let d = abs(Int(ours[i]) - Int(theirs[i]))
                    worst = max(worst, d)
                    exact += d == 0 ? 1 : 0
                    total += 1
                }
            }
            compare(yuv.y, reference.y)
            compare(yuv.u, reference.u)
            compare(yuv.v, reference.v)
            XCTAssertLessThanOrEqual(worst, 1, "\(width)×\(height)")
            XCTAssertGreaterThan(Double(exact) / Double(total), 0.995, "\(width)×\(height)")
        }
    }

    func testFlatColorsConvertToBT709LimitedRange() {
        let cases: [(PremultipliedColor, (Int, Int, Int))] = [
            (PremultipliedColor(r: 1, g: 1, b: 1, a: 1), (235, 128, 128)),
            (PremultipliedColor(r: 0, g: 0, b: 0, a: 1), (16, 128, 128)),
            (PremultipliedColor(r: 1, g: 0, b: 0, a: 1), (63, 102, 240)),
            (PremultipliedColor(r: 0, g: 1, b: 0, a: 1), (173, 42, 26)),
            (PremultipliedColor(r: 0, g: 0, b: 1, a: 1), (32, 240, 118)),
        ]
        for (color, expected) in cases {
            let band = PlanarBand(width: 16, rows: 2)
            band.fill(color, rows: 2)
            let yuv = YUV420Frame(width: 16, height: 2)
            Quantizer.write(band: band, firstRow: 0, rows: 2, yuv: yuv, rgba: nil, scratch: .init(width: 16))
            XCTAssertEqual(Int(yuv.y[5]), expected.0, "Y of \(color)")
            XCTAssertEqual(Int(yuv.u[3]), expected.1, "Cb of \(color)")
            XCTAssertEqual(Int(yuv.v[3]), expected.2, "Cr of \(color)")
        }
    }

    /// A value halfway between two codes must come out as a mix of both, averaging to the value:
    /// that is what keeps slow gradients from banding.
    func testDitherPreservesMeanBetweenCodes() {
        let width = 256, rows = 64
        let band = PlanarBand(width: width, rows: rows)
        let level: Float = 100.25 / 255
        band.fill(PremultipliedColor(r: level, g: level, b: level, a: 1), rows: rows)
        let rgba = RGBA8Frame(width: width, height: rows)
        Quantizer.write(
            band: band, firstRow: 0, rows: rows, yuv: nil, rgba: rgba, scratch: .init(width: width))
        var sum = 0.0
        var seen = Set<UInt8>()
        for y in 0..<rows {
            for x in 0..<width {
                let p = rgba.pixel(x: x, y: y)
                sum += Double(p[0])
                seen.insert(p[0])
                XCTAssertEqual(p[0], p[1])
                XCTAssertEqual(p[3], 255)
            }
        }
        XCTAssertEqual(sum / Double(width * rows), 100.25, accuracy: 0.05)
        XCTAssertEqual(seen, [100, 101])
    }

    func testDitherIsBoundedAndCentred() {
        var sum = 0.0
        for y in 0..<64 {
            for x in 0..<64 {
                let d = Quantizer.ditherScalar(x: x, y: y)
                XCTAssertGreaterThan(d, -0.5)
                XCTAssertLessThan(d, 0.5)
                sum += Double(d)
            }
        }
        XCTAssertEqual(sum / 4096, 0, accuracy: 0.02)
    }

    /// Video alone takes sixteen lanes a step where the row allows it and eight at the tail; at
    /// every width its bytes are the conversion's definition evaluated in Float, step by step as
    /// documented (the quantized RGB from the RGBA path, luma from them, chroma from the [1 2 1]
    /// filter of two rows' sums), bit for bit. Odd sides repeat the last column or row, as
    /// FFmpeg's yuv420p does for its rounded-up colour planes.
    func testVideoBytesAreTheFloatDefinitionAtEveryWidth() {
        var rng = SplitMix(state: 7)
        let kr: Float = 0.2126, kg: Float = 0.7152, kb: Float = 0.0722
        let yScale: Float = 219.0 / 255.0
        let cbScale: Float = (224.0 / 255.0) / (2 * (1 - 0.0722))
        let crScale: Float = (224.0 / 255.0) / (2 * (1 - 0.2126))
        func rounded(_ v: Float) -> UInt8 { UInt8(((v + 12_582_912) - 12_582_912)) }
        let sizes =
            [2, 16, 18, 34, 40, 50, 64, 70, 96, 1920].map { ($0, 4) }
            + [(1, 1), (3, 3), (17, 17), (33, 5), (35, 2), (63, 7), (1919, 3), (18, 1)]
        for (width, height) in sizes {
            let band = randomBand(width: width, rows: height, using: &rng)
            let yuv = YUV420Frame(width: width, height: height)
            let rgba = RGBA8Frame(width: width, height: height)
            Quantizer.write(
                band: band, firstRow: 0, rows: height, yuv: yuv, rgba: nil, scratch: .init(width: width))
            Quantizer.write(
                band: band, firstRow: 0, rows: height, yuv: nil, rgba: rgba, scratch: .init(width: width))
            func rgb(_ x: Int, _ y: Int) -> SIMD3<Float> {
                let p = rgba.bytes + min(y, height - 1) * rgba.stride + min(max(x, 0), width - 1) * 4
                return SIMD3(Float(p[0]), Float(p[1]), Float(p[2]))
            }
            for y in 0..<height {
                for x in 0..<width {
                    let c = rgb(x, y)
                    let luma = c.x * (kr * yScale) + c.y * (kg * yScale) + c.z * (kb * yScale)
                    XCTAssertEqual(
                        yuv.y[y * yuv.yStride + x], rounded(luma + 16), "Y (\(x), \(y)) at \(width)x\(height)"
                    )
                }
            }
            XCTAssertEqual(yuv.chromaWidth, (width + 1) / 2)
            for i in 0..<((height + 1) / 2) {
                for j in 0..<((width + 1) / 2) {
                    func sum(_ x: Int) -> SIMD3<Float> { rgb(x, 2 * i) + rgb(x, 2 * i + 1) }
                    let f = (sum(2 * j - 1) + sum(2 * j) * 2 + sum(2 * j + 1)) * 0.125
                    let luma = f.x * kr + f.y * kg + f.z * kb
                    let at = i * yuv.uvStride + j
                    XCTAssertEqual(
                        yuv.u[at], rounded((f.z - luma) * cbScale + 128),
                        "U (\(j), \(i)) at \(width)x\(height)")
                    XCTAssertEqual(
                        yuv.v[at], rounded((f.x - luma) * crScale + 128),
                        "V (\(j), \(i)) at \(width)x\(height)")
                }
            }
        }
    }

    /// Writing a frame band by band at any split gives the same bytes as one pass.
    func testBandSplitDoesNotChangeBytes() {
        let width = 40, height = 24
        let band = PlanarBand(width: width, rows: height)
        fillBand(band, rows: height) { x, y in
            PremultipliedColor(r: Float(x) / 40, g: Float(y) / 24, b: 0.3, a: 1)
        }
        let whole = YUV420Frame(width: width, height: height)
        Quantizer.write(
            band: band, firstRow: 0, rows: height, yuv: whole, rgba: nil, scratch: .init(width: width))
        let split = YUV420Frame(width: width, height: height)
        for first in stride(from: 0, to: height, by: 6) {
            let part = PlanarBand(width: width, rows: 6)
            for row in 0..<6 {
                for x in 0..<width {
                    let c = band.pixel(x: x, row: first + row)
                    let i = row * part.stride + x
                    (part.r[i], part.g[i], part.b[i], part.a[i]) = (c.r, c.g, c.b, c.a)
                }
            }
            Quantizer.write(
                band: part, firstRow: first, rows: 6, yuv: split, rgba: nil, scratch: .init(width: width))
        }
        XCTAssertEqual(
            Array(UnsafeBufferPointer(start: whole.y, count: width * height)),
            Array(UnsafeBufferPointer(start: split.y, count: width * height)))
        XCTAssertEqual(
            Array(UnsafeBufferPointer(start: whole.u, count: width * height / 4)),
            Array(UnsafeBufferPointer(start: split.u, count: width * height / 4)))
    }
}
