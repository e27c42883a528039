import CFFmpeg

/// Shrinks (or enlarges) 8-bit RGBA pictures with libswscale's area filter: each output pixel is
/// the average of the source pixels it covers, so a contact sheet's thumbnails neither alias nor
/// blur more than their size demands.
public enum ImageResizer {
    /// `rgba` holds `height` rows of `stride` bytes; returns `width` × `height` tightly packed RGBA.
    public static func resize(
        rgba: UnsafePointer<UInt8>, width: Int, height: Int, stride: Int, toWidth: Int, toHeight: Int
    ) throws(MediaError) -> [UInt8] {
        precondition(width > 0 && height > 0 && toWidth > 0 && toHeight > 0, "an image has pixels")
        let context = try ScaleContext(
            from: (width, height, AV_PIX_FMT_RGBA), to: (toWidth, toHeight, AV_PIX_FMT_RGBA),
            flags: SWS_AREA | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT)
        // swscale's vector loops may read past the last source row, as they write past the last
        // destination row: both get padding.
        var source = [UInt8](repeating: 0, count: stride * height + scalePadding)
        source.withUnsafeMutableBufferPointer { $0.baseAddress!.update(from: rgba, count: stride * height) }
        var output = [UInt8](repeating: 0, count: toWidth * toHeight * 4 + scalePadding)
        source.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { destination in
                context.scale(
                    source: planes(input.baseAddress), sourceStrides: [Int32(stride), 0, 0, 0],
                    destination: planes(destination.baseAddress),
                    destinationStrides: [Int32(toWidth * 4), 0, 0, 0])
            }
        }
        output.removeLast(scalePadding)
        return output
    }
}
