/// Paints a layer through its pixel stages from its rendered content: for each pixel, the
/// position goes back through the distortions (last first) in the layer's own space, the
/// content is sampled there once, and the colour stages run in order.
public struct PixelPipeline: Sendable {
    public let stages: [PixelStage]
    /// Frame ↔ the layer's own space (where effect positions, origins and sizes are given).
    let localFromFrame: (a: Float, b: Float, c: Float, d: Float, tx: Float, ty: Float)
    let frameFromLocal: (a: Float, b: Float, c: Float, d: Float, tx: Float, ty: Float)
    let movesPixels: Bool
    /// Whether evaluations may go in batches of groups of eight (`evaluate(_:count:…)`): no
    /// ripple, whose brightening weights are per group.
    let batches: Bool
    let hasColourStages: Bool

    /// nil when `frameFromLocal` cannot be inverted (a layer scaled to nothing).
    public init?(stages: [PixelStage], frameFromLocal: Affine2D) {
        guard let inverse = frameFromLocal.inverted else { return nil }
        self.stages = stages
        @inline(__always) func floats(_ m: Affine2D) -> (Float, Float, Float, Float, Float, Float) {
            (Float(m.a), Float(m.b), Float(m.c), Float(m.d), Float(m.tx), Float(m.ty))
        }
        self.frameFromLocal = floats(frameFromLocal)
        localFromFrame = floats(inverse)
        movesPixels = stages.contains { $0.movesPixels }
        batches = !stages.contains {
            if case .ripple = $0 { true } else { false }
        }
        hasColourStages = stages.contains {
            switch $0 {
            case .matrix, .gradientMap, .ripple: true
            case .warp, .shear, .wave: false
            }
        }
    }

    /// The farthest the stages move content, in frame pixels.
    public func reach(frameFromLocal: Affine2D) -> Int {
        let local = stages.reduce(0) { $0 + $1.reach }
        let scale = max(
            (frameFromLocal.a * frameFromLocal.a + frameFromLocal.b * frameFromLocal.b).squareRoot(),
            (frameFromLocal.c * frameFromLocal.c + frameFromLocal.d * frameFromLocal.d).squareRoot())
        let frame = local * scale
        return frame.isFinite ? Int(min(frame, 65_536).rounded(.up)) + 1 : 65_536
    }

    /// The finest detail of the stages' mappings in frame pixels (`PixelStage.featureSize`
    /// scaled by the layer's transform where it shrinks most); nil when a stage is not smooth.
    public func featureSize(frameFromLocal m: Affine2D) -> Double? {
        var finest = Double.infinity
        for stage in stages {
            guard let size = stage.featureSize else { return nil }
            finest = min(finest, size)
        }
        // The smallest singular value of [[a, c], [b, d]]: σ²max + σ²min = a² + b² + c² + d²,
        // σmax·σmin = |det|.
        let sum = m.a * m.a + m.b * m.b + m.c * m.c + m.d * m.d
        let det = abs(m.a * m.d - m.b * m.c)
        let smallest = ((sum - (max(0, sum * sum - 4 * det * det)).squareRoot()) / 2).squareRoot()
        let frame = finest * smallest
        return frame.isNaN ? nil : frame
    }

    /// Paints frame rows `firstRow..<firstRow+rows` into `band` within `columns`: pixels of
    /// `extent` from `source` through the stages, every other pixel transparent.
    public func paint(
        into band: PlanarBand, firstRow: Int, rows count: Int, columns: Range<Int>,
        extent: (rows: Range<Int>, columns: Range<Int>), source: PlanarSampler
    ) {
        band.fill(.transparent, rows: count, columns: columns)
        let span = band.chunkSpan(columns.clamped(to: extent.columns))
        guard !span.isEmpty else { return }
        let top = max(firstRow, extent.rows.lowerBound),
            bottom = min(firstRow + count, extent.rows.upperBound)
        guard top < bottom else { return }
        let lane = SIMD8<Float>(0, 1, 2, 3, 4, 5, 6, 7) + 0.5
        withUnsafeTemporaryAllocation(of: SIMD8<Float>.self, capacity: max(stages.count, 1)) { extras in
            for y in top..<bottom {
                let py = Float(y) + 0.5
                let offset = (y - firstRow) &* band.stride
                var x = span.lowerBound
                while x < span.upperBound {
                    let px = lane + Float(x)
                    var sx = px, sy = SIMD8<Float>(repeating: py)
                    if movesPixels { mapBack(&sx, &sy, extras: extras) }
                    // Where the stages moved nothing (outside a ripple's front, say) the
                    // pixels are read as they are: the same values the taps would give.
                    let unmoved = !movesPixels || (sx == px && sy == SIMD8(repeating: py))
                    var (r, g, b, a) =
                        unmoved && source.holds(x: x, y: y)
                        ? source.pixels(x: x, y: y) : source.colour(x: sx, y: sy)
                    applyColours(&r, &g, &b, &a, extras: extras)
                    // Lanes outside the layer's extent stay transparent.
                    band.storeMasked(r, g, b, a, x: x, offset: offset, columns: extent.columns)
                    x &+= 8
                }
            }
        }
    }
}

extension PixelPipeline {
    /// Frame positions back through the distortions (last first), in the layer's own space; the
    /// ripples' brightening weights go to `extras` (one per stage).
    @inline(__always)
    func mapBack(
        _ x: inout SIMD8<Float>, _ y: inout SIMD8<Float>, extras: UnsafeMutableBufferPointer<SIMD8<Float>>
    ) {
        let l = localFromFrame, f = frameFromLocal
        var lx = x * l.a + (y * l.c + l.tx)
        var ly = x * l.b + (y * l.d + l.ty)
        var index = stages.count
        while index > 0 {
            index -= 1
            switch stages[index] {
            case .ripple(let ripple): extras[index] = ripple.map(&lx, &ly)
            case .warp(let warp): warp.map(&lx, &ly)
            case .shear(let shear): shear.map(&lx, &ly)
            case .wave(let wave): wave.map(&lx, &ly)
            case .matrix, .gradientMap: break
            }
        }
        x = lx * f.a + (ly * f.c + f.tx)
        y = lx * f.b + (ly * f.d + f.ty)
    }

    /// The colour stages in order on sampled colour.
    @inline(__always)
    func applyColours(
        _ r: inout SIMD8<Float>, _ g: inout SIMD8<Float>, _ b: inout SIMD8<Float>, _ a: inout SIMD8<Float>,
        extras: UnsafeMutableBufferPointer<SIMD8<Float>>
    ) {
        for index in 0..<stages.count {
            switch stages[index] {
            case .matrix(let matrix): matrix.apply(&r, &g, &b, &a)
            case .gradientMap(let map): map.apply(&r, &g, &b, &a)
            case .ripple:
                // The seed brightens the sampled colour: rgb += 0.3 · (amount / amplitude) · alpha.
                let lift = 0.3 * extras[index] * a
                (r, g, b) = (r + lift, g + lift, b + lift)
            case .warp, .shear, .wave: continue
            }
            // Each stage sees valid premultiplied colour, as it would after a pass.
            a = unit(a)
            r = between(r, SIMD8(), a)
            g = between(g, SIMD8(), a)
            b = between(b, SIMD8(), a)
        }
    }
}

@inline(__always)
func between(_ v: SIMD8<Float>, _ lo: SIMD8<Float>, _ hi: SIMD8<Float>) -> SIMD8<Float> {
    let low = v.replacing(with: lo, where: v .< lo)
    return low.replacing(with: hi, where: low .> hi)
}

extension ColorMatrix {
    /// The matrix on eight premultiplied pixels (no clamping; the caller clamps).
    @inline(__always)
    func apply(
        _ r: inout SIMD8<Float>, _ g: inout SIMD8<Float>, _ b: inout SIMD8<Float>, _ a: inout SIMD8<Float>
    ) {
        let f = SIMD16<Float>(m)
        @inline(__always) func row(_ i: Int) -> SIMD8<Float> {
            f[i] * r + f[i + 1] * g + f[i + 2] * b + f[i + 3] * a
        }
        (r, g, b, a) = (row(0), row(4), row(8), row(12))
    }
}
