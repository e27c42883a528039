/// Sine and exponential on eight lanes at once. The standard library's `sin` and `exp` are a libm
/// call per lane (≈ 20 ns each); these are polynomials after a range reduction, accurate to a few
/// units in the last place of Float over the ranges effects use (checked against Foundation in
/// the tests), and the same bits on every machine.
public func vectorSin(_ x: SIMD8<Float>) -> SIMD8<Float> { sine(x) }

/// `vectorSin`, forced inline into kernels.
@_transparent
public func sine(_ x: SIMD8<Float>) -> SIMD8<Float> {
    // x = k·2π + r with r in [−π, π]: 2π split in two parts (Cody–Waite). The first part has
    // 8 significant bits, so k·part is exact for |k| < 2¹⁵ and r keeps full precision.
    let k = roundedToNearest(x * 0.159_154_94)
    var r = x - k * 6.281_25
    r = r - k * 1.935_307_2e-3
    // sin(r) = sin(π − r): fold [π/2, π] and [−π, −π/2] onto [−π/2, π/2].
    r = r.replacing(with: 3.141_592_7 - r, where: r .> 1.570_796_4)
    r = r.replacing(with: -3.141_592_7 - r, where: r .< -1.570_796_4)
    let r2 = r * r
    // Taylor terms to r¹¹: the truncation error at π/2 is below 6·10⁻⁸.
    var p = SIMD8<Float>(repeating: -2.505_210_8e-8)
    p = p * r2 + 2.755_731_9e-6
    p = p * r2 - 1.984_127e-4
    p = p * r2 + 8.333_333_3e-3
    p = p * r2 - 0.166_666_67
    return r + r * r2 * p
}

/// eˣ for x ≤ 88 (larger arguments return the value at 88); below −87 the result is 0.
public func vectorExp(_ x: SIMD8<Float>) -> SIMD8<Float> { exponential(x) }

/// `vectorExp`, forced inline into kernels.
@_transparent
public func exponential(_ x: SIMD8<Float>) -> SIMD8<Float> {
    let clamped = x.replacing(with: 88, where: x .> 88)
    let tiny = clamped .< -87
    let safe = clamped.replacing(with: -87, where: tiny)
    // x = n·ln 2 + r, |r| ≤ ln 2 / 2; eˣ = 2ⁿ · eʳ.
    let n = roundedToNearest(safe * 1.442_695_04)
    // ln 2 in two parts (Cephes): n·0.693359375 is exact for the n that occur.
    var r = safe - n * 0.693_359_375
    r = r + n * 2.121_944_4e-4
    var p = SIMD8<Float>(repeating: 1.0 / 5040)
    p = p * r + 1.0 / 720
    p = p * r + 1.0 / 120
    p = p * r + 1.0 / 24
    p = p * r + 1.0 / 6
    p = p * r + 0.5
    p = p * r + 1
    p = p * r + 1
    // 2ⁿ built from its exponent bits: n is a whole number in −126…127.
    let bits = (wholeNumberToInt(n) &+ 127) &<< 23
    let scaled = p * unsafeBitCast(bits, to: SIMD8<Float>.self)
    return scaled.replacing(with: 0, where: tiny)
}

/// Nearest whole number (ties to even) for |v| < 2²², by the 1.5·2²³ addition.
@inlinable @inline(__always)
public func roundedToNearest(_ v: SIMD8<Float>) -> SIMD8<Float> {
    (v + 12_582_912) - 12_582_912
}

// Sixteen lanes: the same operations in the same order as the eight-lane functions above, so each
// lane's bits are the ones those give. A kernel that runs two groups of eight through one long
// chain of dependent steps (the ripple's sine and exponential) keeps both chains in flight at
// once: where AVX-512 is built for, one instruction carries both.

/// `sine` on sixteen lanes.
@_transparent
public func sine(_ x: SIMD16<Float>) -> SIMD16<Float> {
    let k = roundedToNearest(x * 0.159_154_94)
    var r = x - k * 6.281_25
    r = r - k * 1.935_307_2e-3
    r = r.replacing(with: 3.141_592_7 - r, where: r .> 1.570_796_4)
    r = r.replacing(with: -3.141_592_7 - r, where: r .< -1.570_796_4)
    let r2 = r * r
    var p = SIMD16<Float>(repeating: -2.505_210_8e-8)
    p = p * r2 + 2.755_731_9e-6
    p = p * r2 - 1.984_127e-4
    p = p * r2 + 8.333_333_3e-3
    p = p * r2 - 0.166_666_67
    return r + r * r2 * p
}

/// `exponential` on sixteen lanes.
@_transparent
public func exponential(_ x: SIMD16<Float>) -> SIMD16<Float> {
    let clamped = x.replacing(with: 88, where: x .> 88)
    let tiny = clamped .< -87
    let safe = clamped.replacing(with: -87, where: tiny)
    let n = roundedToNearest(safe * 1.442_695_04)
    var r = safe - n * 0.693_359_375
    r = r + n * 2.121_944_4e-4
    var p = SIMD16<Float>(repeating: 1.0 / 5040)
    p = p * r + 1.0 / 720
    p = p * r + 1.0 / 120
    p = p * r + 1.0 / 24
    p = p * r + 1.0 / 6
    p = p * r + 0.5
    p = p * r + 1
    p = p * r + 1
    let bits = (unsafeBitCast(n + 12_582_912, to: SIMD16<Int32>.self) &- 0x4B40_0000 &+ 127) &<< 23
    let scaled = p * unsafeBitCast(bits, to: SIMD16<Float>.self)
    return scaled.replacing(with: 0, where: tiny)
}

/// `roundedToNearest` on sixteen lanes.
@inlinable @inline(__always)
public func roundedToNearest(_ v: SIMD16<Float>) -> SIMD16<Float> {
    (v + 12_582_912) - 12_582_912
}
