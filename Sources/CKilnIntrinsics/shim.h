// Intrinsics Swift cannot call itself: the gathers are macros (their scale must be a constant),
// so each is wrapped in a static inline function. Nothing here but the wrapped intrinsic; the
// Swift callers keep a portable path and use these only where the build enables them.
// SwiftPM does not rebuild the Swift that imports this header when only the header changes:
// touch the importing file (ImagePainter.swift) or build clean after editing it.
#include <immintrin.h>

#if defined(__AVX512F__)
/// Eight 64-bit values, each at byte offset 4 · index[i] from base.
static inline __m512i kiln_gather_u64_scale4(const void *base, __m256i index) {
    return _mm512_i32gather_epi64(index, base, 4);
}
#endif
