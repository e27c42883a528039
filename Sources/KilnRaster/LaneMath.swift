/// Lane-wise helpers on eight floats that compile to single instructions (no per-lane library
/// calls). Public and inlinable because the effects' kernels in KilnScene use them: a call per
/// vector would cost more than the arithmetic.

@inline(__always)
func magnitude(_ v: SIMD8<Float>) -> SIMD8<Float> {
    unsafeBitCast(unsafeBitCast(v, to: SIMD8<UInt32>.self) & 0x7FFF_FFFF, to: SIMD8<Float>.self)
}

/// max(v, 0).
@inlinable @inline(__always)
public func positive(_ v: SIMD8<Float>) -> SIMD8<Float> { v.replacing(with: 0, where: v .< 0) }

@inline(__always)
func negative(_ v: SIMD8<Float>) -> SIMD8<Float> { v.replacing(with: 0, where: v .> 0) }

@inline(__always)
func maximum(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> { a.replacing(with: b, where: a .< b) }

/// v clamped to 0…1.
@inlinable @inline(__always)
public func unit(_ v: SIMD8<Float>) -> SIMD8<Float> {
    positive(v).replacing(with: 1, where: v .> 1)
}

/// v clamped to lo…hi lane by lane.
@inlinable @inline(__always)
public func between(_ v: SIMD8<Float>, _ lo: SIMD8<Float>, _ hi: SIMD8<Float>) -> SIMD8<Float> {
    let low = v.replacing(with: lo, where: v .< lo)
    return low.replacing(with: hi, where: low .> hi)
}

/// √x for x ≥ 0 from the bit-level reciprocal-square-root estimate and three Newton steps
/// (relative error ~1e-7): `SIMD.squareRoot()` is a libm call per lane.
@inlinable @inline(__always)
public func squareRoot(_ x: SIMD8<Float>) -> SIMD8<Float> { x * reciprocalSquareRoot(x) }

/// 1/√x for x > 0, as `squareRoot` computes it (relative error ~1e-7; large and finite at 0). The
/// same bits on every machine, where the CPU's estimate instruction differs between vendors.
@inlinable @inline(__always)
public func reciprocalSquareRoot(_ x: SIMD8<Float>) -> SIMD8<Float> {
    let bits = unsafeBitCast(x, to: SIMD8<UInt32>.self)
    var y = unsafeBitCast(0x5F37_5A86 &- (bits &>> 1), to: SIMD8<Float>.self)
    let halfX = x * 0.5
    y = y * (1.5 - halfX * y * y)
    y = y * (1.5 - halfX * y * y)
    y = y * (1.5 - halfX * y * y)
    return y
}

/// `positive` on sixteen lanes (see `sine(_: SIMD16<Float>)`).
@inlinable @inline(__always)
public func positive(_ v: SIMD16<Float>) -> SIMD16<Float> { v.replacing(with: 0, where: v .< 0) }

/// `reciprocalSquareRoot` on sixteen lanes, the same steps lane by lane.
@inlinable @inline(__always)
public func reciprocalSquareRoot(_ x: SIMD16<Float>) -> SIMD16<Float> {
    let bits = unsafeBitCast(x, to: SIMD16<UInt32>.self)
    var y = unsafeBitCast(0x5F37_5A86 &- (bits &>> 1), to: SIMD16<Float>.self)
    let halfX = x * 0.5
    y = y * (1.5 - halfX * y * y)
    y = y * (1.5 - halfX * y * y)
    y = y * (1.5 - halfX * y * y)
    return y
}
