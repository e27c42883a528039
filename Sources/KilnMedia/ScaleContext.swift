import CFFmpeg

/// Owns one SwsContext converting between two pixel formats at a fixed size.
final class ScaleContext {
    private let context: OpaquePointer
    let height: Int

    init(width: Int, height: Int, from source: AVPixelFormat, to destination: AVPixelFormat, flags: Int32)
        throws(MediaError)
    {
        let context = sws_getContext(
            Int32(width), Int32(height), source, Int32(width), Int32(height), destination, flags, nil, nil,
            nil)
        self.context = try require(
            context, "sws_getContext",
            "cannot convert \(pixelFormatName(source)) to \(pixelFormatName(destination)) at \(width)x\(height)"
        )
        self.height = height
    }

    deinit { sws_freeContext(context) }

    /// Both sides use the same matrix; `sourceFullRange`/`destinationFullRange` pick JPEG vs MPEG range.
    func setColorspace(_ colorspace: Int32, sourceFullRange: Bool, destinationFullRange: Bool)
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
        _ = sws_scale(context, source, sourceStrides, 0, Int32(height), destination, destinationStrides)
    }
}

func pixelFormatName(_ format: AVPixelFormat) -> String {
    av_get_pix_fmt_name(format).map { String(cString: $0) } ?? "none"
}

/// Pads the 3–4 used plane pointers of a C `uint8_t *data[8]`-style argument to what sws_scale reads.
func planes<T>(_ pointers: T?...) -> [T?] { pointers + Array(repeating: nil, count: 4 - pointers.count) }
func strides(_ values: Int...) -> [Int32] {
    values.map(Int32.init) + Array(repeating: 0, count: 4 - values.count)
}
