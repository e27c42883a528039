import KilnRaster
import KilnTestSupport
import XCTest

final class GaussianBlurTests: XCTestCase {
    /// Four planes (r, g, b, a) of `rows` × `width` values, row-major, in Double.
    struct Image: Equatable {
        var width: Int
        var rows: Int
        var planes: [[Double]]

        init(width: Int, rows: Int, _ value: (_ plane: Int, _ x: Int, _ y: Int) -> Double) {
            self.width = width
            self.rows = rows
            planes = (0..<4).map { p in (0..<(width * rows)).map { value(p, $0 % width, $0 / width) } }
        }

        subscript(plane: Int, x: Int, y: Int) -> Double {
            get { planes[plane][y * width + x] }
            set { planes[plane][y * width + x] = newValue }
        }
    }

    /// Random premultiplied pixels: alpha uniform, colours uniform in 0…alpha.
    func randomImage(width: Int, rows: Int, seed: UInt64) -> Image {
        var rng = SplitMix(state: seed)
        var image = Image(width: width, rows: rows) { _, _, _ in 0 }
        for i in 0..<(width * rows) {
            let a = Double.random(in: 0...1, using: &rng)
            image.planes[3][i] = a
            for p in 0..<3 { image.planes[p][i] = Double(Float(Double.random(in: 0...1, using: &rng) * a)) }
            image.planes[3][i] = Double(Float(a))
        }
        return image
    }

    /// A band holding `image` at rows 0..<rows, columns x0..<x0 + width, `sentinel` elsewhere.
    func band(_ image: Image, x0: Int, bandWidth: Int, bandRows: Int, sentinel: Float = 7) -> PlanarBand {
        let band = PlanarBand(width: bandWidth, rows: bandRows)
        let planes = [band.r, band.g, band.b, band.a]
        for p in 0..<4 {
            planes[p].update(repeating: sentinel, count: band.stride * bandRows)
            for y in 0..<image.rows {
                for x in 0..<image.width { planes[p][y * band.stride + x0 + x] = Float(image[p, x, y]) }
            }
        }
        return band
    }

    func read(_ band: PlanarBand, x0: Int, width: Int, rows: Int) -> Image {
        let planes = [band.r, band.g, band.b, band.a]
        return Image(width: width, rows: rows) { p, x, y in Double(planes[p][y * band.stride + x0 + x]) }
    }

    func bytes(_ band: PlanarBand) -> [Float] {
        [band.r, band.g, band.b, band.a].flatMap { plane in
            (0..<(band.stride * band.capacityRows)).map { plane[$0] }
        }
    }

    func blurred(_ image: Image, _ sigma: Double, x0: Int = 0) -> Image {
        let b = band(image, x0: x0, bandWidth: x0 + image.width + 5, bandRows: image.rows + 2)
        GaussianBlur(radius: sigma).apply(to: b, rowCount: image.rows, columns: x0..<(x0 + image.width))
        return read(b, x0: x0, width: image.width, rows: image.rows)
    }

    func maxDifference(_ a: Image, _ b: Image, planes: Range<Int> = 0..<4) -> Double {
        var worst = 0.0
        for p in planes {
            for i in a.planes[p].indices { worst = max(worst, abs(a.planes[p][i] - b.planes[p][i])) }
        }
        return worst
    }

    // MARK: - References

    /// The boxes GaussianBlur derives from σ, recomputed here: (radius, tail) of each pass. An
    /// extended box of radius r and tail α has variance (r(r+1)(2r+1)/3 + 2α(r+1)²) / (2r+1+2α).
    func boxes(_ sigma: Double) -> [(radius: Int, tail: Double)] {
        func tail(_ r: Int, _ v: Double) -> Double {
            let rr = Double(r)
            return Double(Float((2 * rr + 1) * (v - rr * (rr + 1) / 3) / (2 * ((rr + 1) * (rr + 1) - v))))
        }
        let v = sigma * sigma
        // Below √2: three equal three-tap boxes.
        if v < 2 { return Array(repeating: (0, tail(0, v / 3)), count: 3) }
        // Above: plain boxes (r, r, r) widened one at a time, the last one fractional.
        var r = 0
        while Double((r + 1) * (r + 2)) <= v { r += 1 }
        let step = Double(2 * (r + 1)) / 3
        let excess = v - Double(r * (r + 1))
        let widened = min(2, Int(excess / step))
        let f = excess - Double(widened) * step
        return [
            (widened >= 2 ? r + 1 : r, 0), (widened >= 1 ? r + 1 : r, 0),
            (r, tail(r, Double(r * (r + 1)) / 3 + f)),
        ]
    }

    /// Three boxes along one line of the clamp-extended signal, by direct sums.
    func threeBoxes(_ line: [Double], _ sigma: Double) -> [Double] {
        let kernel = boxes(sigma)
        let pad = kernel.reduce(0) { $0 + $1.radius + 1 }
        var x =
            Array(repeating: line[0], count: pad) + line + Array(repeating: line[line.count - 1], count: pad)
        for (r, tail) in kernel {
            var y = x
            for i in (r + 1)..<(x.count - r - 1) {
                var s = 0.0
                for j in -r...r { s += x[i + j] }
                y[i] = (s + tail * (x[i - r - 1] + x[i + r + 1])) / (Double(2 * r + 1) + 2 * tail)
            }
            x = y
        }
        return Array(x[pad..<(pad + line.count)])
    }

    func separable(_ image: Image, _ line: ([Double]) -> [Double]) -> Image {
        var out = image
        for p in 0..<4 {
            for y in 0..<image.rows {
                let row = line((0..<image.width).map { out[p, $0, y] })
                for x in 0..<image.width { out[p, x, y] = row[x] }
            }
            for x in 0..<image.width {
                let column = line((0..<image.rows).map { out[p, x, $0] })
                for y in 0..<image.rows { out[p, x, y] = column[y] }
            }
        }
        return out
    }

    /// The documented algorithm in plain loops: three boxes at full resolution below σ = 16; from
    /// σ = 12 the 4× reduced copy (with its border of edge pixels), blurred and enlarged
    /// bilinearly, cross-faded in by smoothstep.
    func reference(_ image: Image, _ sigma: Double) -> Image {
        let full = sigma < 16 ? separable(image, { self.threeBoxes($0, sigma) }) : nil
        guard sigma >= 12 else { return full! }
        let (m, mc) = ((image.rows + 3) / 4, (image.width + 3) / 4)
        var reduced = Image(width: mc + 2, rows: m + 2) { p, k, j in
            var s = 0.0
            for a in 0..<4 {
                for b in 0..<4 {
                    let y = min(max(4 * (j - 1) + a, 0), image.rows - 1)
                    let x = min(max(4 * (k - 1) + b, 0), image.width - 1)
                    s += image[p, x, y]
                }
            }
            return s / 16
        }
        let reducedSigma = (sigma * sigma - 47.0 / 12).squareRoot() / 4
        reduced = separable(reduced, { self.threeBoxes($0, reducedSigma) })
        let t = min(1, (sigma - 12) / 4)
        let weight = t * t * (3 - 2 * t)
        var out = Image(width: image.width, rows: image.rows) { p, x, y in
            let u = (Double(y) + 2.5) / 4, v = (Double(x) + 2.5) / 4
            let (i, k) = (Int(u), Int(v))
            let (wy, wx) = (u - Double(i), v - Double(k))
            let top = reduced[p, k, i] * (1 - wx) + reduced[p, k + 1, i] * wx
            let bottom = reduced[p, k, i + 1] * (1 - wx) + reduced[p, k + 1, i + 1] * wx
            let value = top * (1 - wy) + bottom * wy
            guard let full else { return value }
            return full[p, x, y] + weight * (value - full[p, x, y])
        }
        for i in out.planes[3].indices {
            let a = min(max(out.planes[3][i], 0), 1)
            out.planes[3][i] = a
            for p in 0..<3 { out.planes[p][i] = min(max(out.planes[p][i], 0), a) }
        }
        return out
    }

    /// Convolution with the sampled Gaussian (normalised, radius 5σ), clamp to edge.
    func exactGaussian(_ image: Image, _ sigma: Double) -> Image {
        let radius = Int(5 * sigma) + 1
        var kernel = (-radius...radius).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let total = kernel.reduce(0, +)
        kernel = kernel.map { $0 / total }
        return separable(image) { line in
            (0..<line.count).map { i in
                var s = 0.0
                for j in -radius...radius {
                    s += kernel[j + radius] * line[min(max(i + j, 0), line.count - 1)]
                }
                return s
            }
        }
    }

    // MARK: - Tests

    func testMatchesScalarReference() {
        let image = randomImage(width: 157, rows: 93, seed: 1)
        for sigma in [0.3, 0.8, 1, 1.7, 3, 4.4, 7.25, 11.9, 13, 15.5, 16, 21] {
            let got = blurred(image, sigma, x0: 5)
            let want = reference(image, sigma)
            XCTAssertLessThan(maxDifference(got, want), 1e-5, "σ = \(sigma)")
        }
    }

    /// A step edge and a bright square against the sampled Gaussian; the three boxes stay within
    /// 0.02 of it and keep the mean.
    func testApproximatesGaussian() {
        for sigma in [1.0, 3, 10, 30] {
            let size = Int(8 * sigma) + 40
            let step = Image(width: size, rows: 24) { p, x, _ in p == 3 || x >= size / 2 ? 1 : 0 }
            let square = Image(width: size, rows: size) { p, x, y in
                let inside = abs(x - size / 2) < size / 6 && abs(y - size / 2) < size / 6
                return inside ? (p == 1 ? 0.25 : 1) : 0
            }
            for (name, image) in [("step", step), ("square", square)] {
                let got = blurred(image, sigma), want = exactGaussian(image, sigma)
                let error = maxDifference(got, want)
                XCTAssertLessThan(error, 0.02, "\(name) σ = \(sigma)")
                for p in 0..<4 {
                    let mean = got.planes[p].reduce(0, +) / Double(got.planes[p].count)
                    let exact = want.planes[p].reduce(0, +) / Double(want.planes[p].count)
                    XCTAssertEqual(mean, exact, accuracy: 1e-4, "\(name) σ = \(sigma) plane \(p)")
                }
            }
        }
    }

    func testIdentityBelowThreshold() {
        let image = randomImage(width: 40, rows: 11, seed: 2)
        for sigma in [0, 0.01, 0.039, -3] {
            XCTAssertTrue(GaussianBlur(radius: sigma).isIdentity)
            XCTAssertEqual(blurred(image, sigma), image)
        }
        XCTAssertFalse(GaussianBlur(radius: 0.04).isIdentity)
        // The step into the blur at the threshold is below one 8-bit code value.
        XCTAssertLessThan(maxDifference(blurred(image, 0.04), image), 1.0 / 255)
    }

    /// σ ± δ/2 give images at most 2.5·δ apart (plus float rounding) on random pixels — at box
    /// width steps, where the box shape changes (√2), where the cross-fade starts and ends (12,
    /// 16), and elsewhere. A jump would show at δ = 10⁻⁶.
    func testContinuousInSigma() {
        let image = randomImage(width: 120, rows: 90, seed: 3)
        let points = [0.5, 0.8165, 1, 2.0.squareRoot(), 2.5, 6.0.squareRoot(), 5.1, 12, 14, 16, 20, 30]
        for sigma in points {
            for delta in [0.01, 1e-6] {
                let a = blurred(image, sigma - delta / 2), b = blurred(image, sigma + delta / 2)
                XCTAssertLessThan(maxDifference(a, b), 2.5 * delta + 2e-5, "σ = \(sigma) ± \(delta / 2)")
            }
        }
    }

    /// Any split into parts, any worker numbering: byte-identical bands.
    func testSplitsGiveIdenticalBytes() {
        let image = randomImage(width: 203, rows: 77, seed: 4)
        for sigma in [2.3, 13.5, 24] {
            let blur = GaussianBlur(radius: sigma)
            var results: [[Float]] = []
            for (rowParts, columnParts) in [(1, 1), (3, 2), (7, 5), (2, 9)] {
                let b = band(image, x0: 3, bandWidth: 211, bandRows: 80)
                let columns = 3..<206
                let workspace = BlurWorkspace(workers: 3)
                blur.prepare(workspace, rowCount: 77, columns: columns)
                for part in (0..<rowParts).reversed() {
                    blur.blurRows(
                        b, rowCount: 77, columns: columns, part: part, of: rowParts, worker: part % 3,
                        workspace: workspace)
                }
                for part in 0..<columnParts {
                    blur.blurColumns(
                        b, rowCount: 77, columns: columns, part: part, of: columnParts,
                        worker: (part + 1) % 3,
                        workspace: workspace)
                }
                results.append(bytes(b))
            }
            for r in results.dropFirst() { XCTAssertTrue(r == results[0], "σ = \(sigma)") }
        }
    }

    /// Concurrent parts on real threads, as a renderer runs them.
    func testConcurrentPartsMatchSerial() {
        let image = randomImage(width: 300, rows: 120, seed: 5)
        for sigma in [4.0, 14] {
            let blur = GaussianBlur(radius: sigma)
            let serial = band(image, x0: 0, bandWidth: 300, bandRows: 120)
            blur.apply(to: serial, rowCount: 120, columns: 0..<300)
            let parallel = band(image, x0: 0, bandWidth: 300, bandRows: 120)
            let workspace = BlurWorkspace(workers: 4)
            blur.prepare(workspace, rowCount: 120, columns: 0..<300)
            DispatchQueue.concurrentPerform(iterations: 4) { part in
                blur.blurRows(
                    parallel, rowCount: 120, columns: 0..<300, part: part, of: 4, worker: part,
                    workspace: workspace)
            }
            DispatchQueue.concurrentPerform(iterations: 4) { part in
                blur.blurColumns(
                    parallel, rowCount: 120, columns: 0..<300, part: part, of: 4, worker: part,
                    workspace: workspace)
            }
            XCTAssertTrue(bytes(serial) == bytes(parallel), "σ = \(sigma)")
        }
    }

    func testPremultipliedInvariantAndNoNaN() {
        let image = randomImage(width: 97, rows: 61, seed: 6)
        for sigma in [0.2, 1.3, 6, 12.7, 40] {
            let out = blurred(image, sigma, x0: 1)
            for i in out.planes[3].indices {
                let a = out.planes[3][i]
                XCTAssertTrue(a >= 0 && a <= 1, "σ = \(sigma) alpha \(a)")
                for p in 0..<3 {
                    let c = out.planes[p][i]
                    XCTAssertTrue(c >= 0 && c <= a, "σ = \(sigma) colour \(c) > alpha \(a)")
                }
            }
        }
    }

    /// Pixels outside the window's columns and past `rowCount` keep their bytes, whatever the
    /// window's alignment.
    func testOutsideWindowUntouched() {
        let image = randomImage(width: 45, rows: 30, seed: 7)
        for sigma in [1.5, 9, 14, 35] {
            for x0 in [0, 3, 8, 13] {
                let b = band(image, x0: x0, bandWidth: x0 + 45 + 11, bandRows: 33, sentinel: -2)
                GaussianBlur(radius: sigma).apply(to: b, rowCount: 30, columns: x0..<(x0 + 45))
                for (p, plane) in [b.r, b.g, b.b, b.a].enumerated() {
                    for y in 0..<33 {
                        for x in 0..<b.stride where y >= 30 || x < x0 || x >= x0 + 45 {
                            XCTAssertEqual(
                                plane[y * b.stride + x], -2, "σ \(sigma) x0 \(x0) plane \(p) (\(x), \(y))")
                        }
                    }
                }
            }
        }
    }

    func testSmallRegions() {
        for (w, h) in [(1, 1), (1, 9), (9, 1), (3, 2), (17, 5)] {
            let image = randomImage(width: w, rows: h, seed: 8)
            for sigma in [0.7, 5, 13, 50] {
                XCTAssertLessThan(
                    maxDifference(blurred(image, sigma), reference(image, sigma)), 1e-5,
                    "\(w)×\(h) σ \(sigma)")
            }
        }
    }

    func testConstantImageStaysConstant() {
        let image = Image(width: 64, rows: 40) { p, _, _ in p == 3 ? 0.75 : 0.5 }
        for sigma in [2.0, 14, 30] {
            XCTAssertLessThan(maxDifference(blurred(image, sigma), image), 1e-6, "σ = \(sigma)")
        }
    }

    func testReach() {
        XCTAssertEqual(GaussianBlur(radius: 0).reach, 0)
        for sigma in [0.5, 3, 10, 14, 30] {
            let blur = GaussianBlur(radius: sigma)
            XCTAssertGreaterThanOrEqual(Double(blur.reach), 2.5 * sigma, "σ = \(sigma)")
            XCTAssertLessThanOrEqual(Double(blur.reach), 3.5 * sigma + 8, "σ = \(sigma)")
        }
    }
}
