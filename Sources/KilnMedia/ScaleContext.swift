import CFFmpeg

/// Owns one SwsContext converting between two pixel formats, and between two sizes if asked.
package final class ScaleContext {
    private let context: OpaquePointer
    private let sourceHeight: Int

    package convenience init(
        width: Int, height: Int, from source: AVPixelFormat, to destination: AVPixelFormat, flags: Int32
    ) throws(MediaError) {
        try self.init(from: (width, height, source), to: (width, height, destination), flags: flags)
    }

    /// When the sizes differ, `flags` picks the filter; swscale widens it by the shrink factor when
    /// downscaling, so a shrink is prefiltered rather than point-sampled.
    init(
        from source: (width: Int, height: Int, format: AVPixelFormat),
        to destination: (width: Int, height: Int, format: AVPixelFormat), flags: Int32
    ) throws(MediaError) {
        let context = sws_getContext(
            Int32(source.width), Int32(source.height), source.format, Int32(destination.width),
            Int32(destination.height), destination.format, flags, nil, nil, nil)
        self.context = try require(
            context, "sws_getContext",
            "cannot convert \(pixelFormatName(source.format)) at \(source.width)x\(source.height) to "
                + "\(pixelFormatName(destination.format)) at \(destination.width)x\(destination.height)")
        sourceHeight = source.height
    }

    deinit { sws_freeContext(context) }

    /// Both sides use the same matrix; `sourceFullRange`/`destinationFullRange` pick JPEG vs MPEG range.
    package func setColorspace(_ colorspace: Int32, sourceFullRange: Bool, destinationFullRange: Bool)
        throws(MediaError)
    {
        let coefficients = sws_getCoefficients(colorspace)
        try check(
            sws_setColorspaceDetails(
                context, coefficients, sourceFullRange ? 1 : 0, coefficients, destinationFullRange ? 1 : 0,
                0, 1 << 16, 1 << 16),
            "sws_setColorspaceDetails")
    }

    func scale(
        source: [UnsafePointer<UInt8>?], sourceStrides: [Int32],
        destination: [UnsafeMutablePointer<UInt8>?], destinationStrides: [Int32]
    ) {
        _ = sws_scale(context, source, sourceStrides, 0, Int32(sourceHeight), destination, destinationStrides)
    }

    /// Scales a whole decoded frame (its first four planes, which is all sws_scale reads).
    package func scale(
        frame: UnsafePointer<AVFrame>, destination: [UnsafeMutablePointer<UInt8>?],
        destinationStrides: [Int32]
    ) {
        let source = withUnsafeBytes(of: frame.pointee.data) {
            Array($0.bindMemory(to: UnsafePointer<UInt8>?.self).prefix(4))
        }
        let sourceStrides = withUnsafeBytes(of: frame.pointee.linesize) {
            Array($0.bindMemory(to: Int32.self).prefix(4))
        }
        scale(
            source: source, sourceStrides: sourceStrides, destination: destination,
            destinationStrides: destinationStrides)
    }
}

/// swscale's SIMD row loops read and write whole vectors, so they touch bytes past a row's last
/// pixel (a 5x3 GRAY8 destination gets an 8-byte store at offset 8). FFmpeg pads its own frame
/// buffers for this; arrays handed to swscale carry this much tail padding. Within an image the
/// spill lands on the next row, which is written after it.
let scalePadding = 64

func pixelFormatName(_ format: AVPixelFormat) -> String {
    av_get_pix_fmt_name(format).map { String(cString: $0) } ?? "none"
}

/// Pads the 3–4 used plane pointers of a C `uint8_t *data[8]`-style argument to what sws_scale reads.
package func planes<T>(_ pointers: T?...) -> [T?] {
    pointers + Array(repeating: nil, count: 4 - pointers.count)
}
func strides(_ values: Int...) -> [Int32] {
    values.map(Int32.init) + Array(repeating: 0, count: 4 - values.count)
}
