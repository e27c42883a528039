/// Even and odd lanes as fixed shuffles that are always inlined. The standard library's
/// `evenHalf` and `oddHalf` are generic; inside a large kernel the optimiser stopped inlining
/// them, leaving a call per use that passed the vectors through memory.
@_transparent
func evenLanes(_ v: SIMD16<Float>) -> SIMD8<Float> {
    SIMD8(v[0], v[2], v[4], v[6], v[8], v[10], v[12], v[14])
}

@_transparent
func oddLanes(_ v: SIMD16<Float>) -> SIMD8<Float> {
    SIMD8(v[1], v[3], v[5], v[7], v[9], v[11], v[13], v[15])
}
