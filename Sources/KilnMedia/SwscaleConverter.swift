import CFFmpeg

/// RGBA (8-bit, non-premultiplied, opaque) → YUV 4:2:0 BT.709 limited range with libswscale.
/// Kept for the benchmark and as a cross-check of Kiln's own SIMD converter.
public final class SwscaleConverter {
    private let scaler: ScaleContext

    public init(width: Int, height: Int) throws(MediaError) {
        guard width > 0, height > 0, width % 2 == 0, height % 2 == 0 else {
            throw MediaError.failure("SwscaleConverter", "width and height must be positive and even")
        }
        // Full-chroma input + accurate rounding: chroma is averaged from every RGB pixel rather than
        // point-sampled, and results round like the analytic formula.
        let flags = SWS_BILINEAR | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INP | SWS_BITEXACT
        scaler = try ScaleContext(
            width: width, height: height, from: AV_PIX_FMT_RGBA, to: AV_PIX_FMT_YUV420P, flags: flags)
        try scaler.setColorspace(SWS_CS_ITU709, sourceFullRange: true, destinationFullRange: false)
    }

    /// Each destination plane needs 64 bytes of writable slack after its last row: libswscale's
    /// vector loops may store that far past the end (`YUV420Frame` has it).
    public func convert(
        rgba: UnsafePointer<UInt8>, rgbaStride: Int,
        y: UnsafeMutablePointer<UInt8>, yStride: Int,
        u: UnsafeMutablePointer<UInt8>, v: UnsafeMutablePointer<UInt8>, uvStride: Int
    ) {
        scaler.scale(
            source: planes(rgba), sourceStrides: strides(rgbaStride),
            destination: planes(y, u, v), destinationStrides: strides(yStride, uvStride, uvStride))
    }
}
