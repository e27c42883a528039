/// A 4×4 matrix on premultiplied (r, g, b, a): the form every colour modifier takes, so a run of
/// them composes into one matrix and costs one pass. Offsets that in straight colour would be
/// constants (brightness, contrast) scale with alpha here, so transparent pixels stay transparent.
public struct ColorMatrix: Sendable, Hashable {
    /// Row-major: output channel i = Σ_j m[4i + j] · input channel j. A SIMD value, not an array,
    /// so matrices live on the stack.
    public let m: SIMD16<Double>
    /// `m` in single precision, as the kernels use it: made once here, since converting per
    /// batch of pixels cost 16 conversions each time (the standard library's conversion of a
    /// whole vector is a generic call, so it goes lane by lane).
    let floats: SIMD16<Float>
    /// Whether the matrix only scales each channel and adds a multiple of alpha to each colour
    /// (brightness, contrast, opacity, and runs of them; not saturation, grayscale, hue rotation
    /// or tint, which mix channels): `colour(_:count:)` then leaves out the zero terms.
    let scalesChannels: Bool

    public init(rows: [[Double]]) {
        precondition(rows.count == 4 && rows.allSatisfy { $0.count == 4 }, "a colour matrix is 4×4")
        m = SIMD16(rows.flatMap { $0 })
        var f = SIMD16<Float>()
        for i in 0..<16 { f[i] = Float(m[i]) }
        floats = f
        let crossTerms = SIMD16<Float>(0, 1, 1, 0, 1, 0, 1, 0, 1, 1, 0, 0, 1, 1, 1, 0)
        scalesChannels = all(f.replacing(with: 0, where: crossTerms .== 0) .== SIMD16())
    }

    public static let identity = ColorMatrix(rows: [
        [1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1],
    ])

    /// k when the matrix is k times the identity (every channel scaled alike, as an opacity
    /// does to premultiplied colours); nil otherwise.
    public var uniformScale: Double? {
        let k = m[0]
        return m == ColorMatrix.identity.m * k ? k : nil
    }

    /// `self` after `first`.
    public func concatenating(_ first: ColorMatrix) -> ColorMatrix {
        var rows: [[Double]] = []
        for i in 0..<4 {
            rows.append((0..<4).map { j in (0..<4).reduce(0) { $0 + m[4 * i + $1] * first.m[4 * $1 + j] } })
        }
        return ColorMatrix(rows: rows)
    }

    public func apply(_ c: SIMD4<Double>) -> SIMD4<Double> {
        SIMD4(
            (0..<4).map { i in m[4 * i] * c.x + m[4 * i + 1] * c.y + m[4 * i + 2] * c.z + m[4 * i + 3] * c.w }
        )
    }

    /// Applies the matrix to `rows` rows of a band, then clamps to valid premultiplied values
    /// (0 ≤ alpha ≤ 1, 0 ≤ colour ≤ alpha).
    public func apply(to band: PlanarBand, rows: Int, columns: Range<Int>? = nil) {
        let f = floats
        @inline(__always) func k(_ i: Int) -> SIMD8<Float> { SIMD8(repeating: f[i]) }
        band.forEachRun(rows: rows, columns: columns) { offset, count in
            var i = offset
            while i < offset + count {
                let r = load(band.r + i), g = load(band.g + i), b = load(band.b + i), a = load(band.a + i)
                let na = unit(k(12) * r + k(13) * g + k(14) * b + k(15) * a)
                @inline(__always) func channel(_ row: Int) -> SIMD8<Float> {
                    let v = positive(k(row) * r + k(row + 1) * g + k(row + 2) * b + k(row + 3) * a)
                    return v.replacing(with: na, where: v .> na)
                }
                store(channel(0), band.r + i)
                store(channel(4), band.g + i)
                store(channel(8), band.b + i)
                store(na, band.a + i)
                i &+= 8
            }
        }
    }
}

/// A colour matrix after a pixel stage: the one colour stage the raster core has, since every
/// colour modifier takes this form.
extension ColorMatrix: ColorStage {
    public var featureSize: Double? { .infinity }
    public var readsPosition: Bool { false }

    /// The matrix on eight premultiplied pixels (no clamping; the caller clamps).
    @inline(__always)
    public func apply(
        _ r: inout SIMD8<Float>, _ g: inout SIMD8<Float>, _ b: inout SIMD8<Float>, _ a: inout SIMD8<Float>
    ) {
        let f = floats
        @inline(__always) func row(_ i: Int) -> SIMD8<Float> {
            f[i] * r + f[i + 1] * g + f[i + 2] * b + f[i + 3] * a
        }
        (r, g, b, a) = (row(0), row(4), row(8), row(12))
    }

    @inline(__always)
    public func apply(
        _ r: inout SIMD8<Float>, _ g: inout SIMD8<Float>, _ b: inout SIMD8<Float>, _ a: inout SIMD8<Float>,
        at _: PixelPosition
    ) {
        apply(&r, &g, &b, &a)
    }

    /// `apply` on each group. A matrix that `scalesChannels` takes 6 products instead of 16,
    /// with the same values: the terms left out are exact zeros.
    public func color(_ batch: StageBatch, count: Int) {
        let f = floats
        guard scalesChannels else {
            for k in 0..<count {
                let c = batch.color + 4 &* k
                apply(&c[0], &c[1], &c[2], &c[3])
            }
            return
        }
        for k in 0..<count {
            let c = batch.color + 4 &* k
            let a = c[3]
            c[0] = f[0] * c[0] + f[3] * a
            c[1] = f[5] * c[1] + f[7] * a
            c[2] = f[10] * c[2] + f[11] * a
            c[3] = f[15] * a
        }
    }

}
