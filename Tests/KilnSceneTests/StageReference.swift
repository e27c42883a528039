import KilnModel
import KilnRaster
import KilnTestSupport

/// Scalar references for pixel stages (random images, bilinear sampling in Double, agreement with
/// the SIMD pipeline), shared by the tests of every stage.
enum StageReference {
    /// A band of random, valid premultiplied pixels.
    static func randomImage(width: Int, height: Int, _ rng: inout SplitMix) -> PlanarBand {
        let band = PlanarBand(width: width, rows: height)
        for y in 0..<height {
            for x in 0..<width {
                let a = Float.random(in: 0...1, using: &rng)
                let i = y * band.stride + x
                band.a[i] = a
                band.r[i] = Float.random(in: 0...1, using: &rng) * a
                band.g[i] = Float.random(in: 0...1, using: &rng) * a
                band.b[i] = Float.random(in: 0...1, using: &rng) * a
            }
        }
        return band
    }

    /// Bilinear sample in Double; taps outside the image are transparent.
    static func referenceSample(_ image: PlanarBand, width: Int, height: Int, x: Double, y: Double)
        -> [Double]
    {
        let sx = x - 0.5, sy = y - 0.5
        let fx = sx.rounded(.down), fy = sy.rounded(.down)
        let wx = sx - fx, wy = sy - fy
        var result = [0.0, 0, 0, 0]
        for (dx, dy, w) in [
            (0, 0, (1 - wx) * (1 - wy)), (1, 0, wx * (1 - wy)), (0, 1, (1 - wx) * wy), (1, 1, wx * wy),
        ] {
            let tx = Int(fx) + dx, ty = Int(fy) + dy
            guard tx >= 0, tx < width, ty >= 0, ty < height else { continue }
            let i = ty * image.stride + tx
            result[0] += w * Double(image.r[i])
            result[1] += w * Double(image.g[i])
            result[2] += w * Double(image.b[i])
            result[3] += w * Double(image.a[i])
        }
        return result
    }

    /// Runs `stages` over `image` with the SIMD pipeline and returns the share of channel values
    /// within one 8-bit code value of `reference(x, y)` (pixel centres).
    static func agreement(
        _ stages: [any PixelStage], image: PlanarBand, width: Int, height: Int,
        reference: (Double, Double) -> [Double]
    ) -> Double {
        let out = PlanarBand(width: width, rows: height)
        let pipeline = PixelPipeline(stages: stages, frameFromLocal: .identity)!
        let sampler = PlanarSampler(image: image, rows: 0..<height, columns: 0..<width, edges: .transparent)
        pipeline.paint(
            into: out, firstRow: 0, rows: height, columns: 0..<width, extent: (0..<height, 0..<width),
            source: sampler)
        var within = 0, total = 0
        for y in 0..<height {
            for x in 0..<width {
                let expected = reference(Double(x) + 0.5, Double(y) + 0.5)
                let i = y * out.stride + x
                let ours = [out.r[i], out.g[i], out.b[i], out.a[i]]
                for c in 0..<4 {
                    total += 1
                    if abs((Double(ours[c]) * 255).rounded() - (expected[c] * 255).rounded()) <= 1 {
                        within += 1
                    }
                }
            }
        }
        return Double(within) / Double(total)
    }

    /// Clamps to valid premultiplied colour, as the pipeline does after each stage.
    static func valid(_ c: [Double]) -> [Double] {
        let a = min(max(c[3], 0), 1)
        return [min(max(c[0], 0), a), min(max(c[1], 0), a), min(max(c[2], 0), a), a]
    }

    static let card = """
        {"type": "shape", "size": [120, 80], "cornerRadius": 14, "fill": "#3a7bd5", "rotation": 11,
         "stroke": "#ffffff", "strokeWidth": 2
        """

    /// A card over an opaque solid with `effects` (a JSON array).
    static func cardJob(_ effects: String, duration: Double = 2) throws -> Job {
        try Fixture.job(
            """
            {"kiln": 1, "output": {"width": 200, "height": 160, "fps": 30, "duration": \(duration)},
             "layers": [{"type": "solid", "color": "#101018"}, \(card), "effects": \(effects)}]}
            """)
    }
}
