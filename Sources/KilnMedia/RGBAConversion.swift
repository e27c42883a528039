import CFFmpeg

/// Any decoded frame (YUV of either range, RGB, palette, grey, 16-bit …) → tightly packed
/// straight-alpha RGBA8.
func straightRGBA(from frame: UnsafeMutablePointer<AVFrame>) throws(MediaError) -> [UInt8] {
    let width = Int(frame.pointee.width), height = Int(frame.pointee.height)
    var format = AVPixelFormat(rawValue: frame.pointee.format)
    if format == AV_PIX_FMT_RGBA {
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        rgba.withUnsafeMutableBufferPointer {
            av_image_copy_plane(
                $0.baseAddress, Int32(width * 4), frame.pointee.data.0, frame.pointee.linesize.0,
                Int32(width * 4), Int32(height))
        }
        return rgba
    }
    if let layout = BigEndian16Layout(format) {
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        layout.narrow(frame, into: &rgba)
        return rgba
    }
    var fullRange = frame.pointee.color_range == AVCOL_RANGE_JPEG
    // yuvj* is FFmpeg's deprecated spelling of full-range YUV (JPEG's); swscale logs a warning for
    // it, so the plain format is used and the range is passed explicitly.
    if let plain = plainYUV(format) {
        format = plain
        fullRange = true
    }
    // Full-resolution chroma in and out, bilinear chroma upsampling: subsampled JPEG/WebP chroma is
    // interpolated rather than repeated per 2x2 block, and RGB sources that swscale routes through
    // its internal YUV keep every pixel's colour. Accurate rounding and bit-exact arithmetic make
    // the bytes the same on every CPU.
    let scaler = try ScaleContext(
        width: width, height: height, from: format, to: AV_PIX_FMT_RGBA,
        flags: SWS_BILINEAR | SWS_FULL_CHR_H_INT | SWS_FULL_CHR_H_INP | SWS_ACCURATE_RND | SWS_BITEXACT)
    if isYUV(format) {
        // The frame's matrix; unspecified falls back to BT.601 in sws_getCoefficients, which is
        // what JFIF and WebP use. Grey formats are left alone: swscale already treats them as full
        // range, as PNG and JPEG store them.
        try scaler.setColorspace(
            Int32(frame.pointee.colorspace.rawValue), sourceFullRange: fullRange, destinationFullRange: true)
    }
    var rgba = [UInt8](repeating: 0, count: width * height * 4 + scalePadding)
    rgba.withUnsafeMutableBufferPointer {
        scaler.scale(
            frame: frame, destination: planes($0.baseAddress), destinationStrides: strides(width * 4))
    }
    rgba.removeLast(scalePadding)
    return rgba
}

/// The 16-bit big-endian layouts FFmpeg's PNG decoder produces. swscale narrows 16-bit components
/// by rounding v / 256, so 0x8080 (exactly 128 at 8 bits) becomes 129; these are narrowed here as
/// v × 255 / 65535, rounded, which keeps 8-bit values stored in 16 bits exact.
private struct BigEndian16Layout {
    /// Components per pixel, and for each of R, G, B, A the component it comes from (nil: opaque).
    let components: Int
    let sources: [Int?]

    init?(_ format: AVPixelFormat) {
        switch format {
        case AV_PIX_FMT_RGB48BE: (components, sources) = (3, [0, 1, 2, nil])
        case AV_PIX_FMT_RGBA64BE: (components, sources) = (4, [0, 1, 2, 3])
        case AV_PIX_FMT_GRAY16BE: (components, sources) = (1, [0, 0, 0, nil])
        case AV_PIX_FMT_YA16BE: (components, sources) = (2, [0, 0, 0, 1])
        default: return nil
        }
    }

    func narrow(_ frame: UnsafeMutablePointer<AVFrame>, into rgba: inout [UInt8]) {
        let width = Int(frame.pointee.width), height = Int(frame.pointee.height)
        let stride = Int(frame.pointee.linesize.0)
        let data = UnsafePointer(frame.pointee.data.0!)
        rgba.withUnsafeMutableBufferPointer { output in
            for y in 0..<height {
                let row = data + y * stride
                for x in 0..<width {
                    let pixel = row + x * components * 2
                    for (channel, source) in sources.enumerated() {
                        var value: UInt8 = 255
                        if let source {
                            let wide = UInt32(pixel[source * 2]) << 8 | UInt32(pixel[source * 2 + 1])
                            value = UInt8((wide * 255 + 32767) / 65535)
                        }
                        output[(y * width + x) * 4 + channel] = value
                    }
                }
            }
        }
    }
}

private func plainYUV(_ format: AVPixelFormat) -> AVPixelFormat? {
    switch format {
    case AV_PIX_FMT_YUVJ420P: AV_PIX_FMT_YUV420P
    case AV_PIX_FMT_YUVJ422P: AV_PIX_FMT_YUV422P
    case AV_PIX_FMT_YUVJ444P: AV_PIX_FMT_YUV444P
    case AV_PIX_FMT_YUVJ440P: AV_PIX_FMT_YUV440P
    case AV_PIX_FMT_YUVJ411P: AV_PIX_FMT_YUV411P
    default: nil
    }
}

private func isYUV(_ format: AVPixelFormat) -> Bool {
    guard let descriptor = av_pix_fmt_desc_get(format) else { return false }
    let notYUV = UInt64(AV_PIX_FMT_FLAG_RGB | AV_PIX_FMT_FLAG_PAL)
    return descriptor.pointee.flags & notYUV == 0 && descriptor.pointee.nb_components >= 3
}

/// Premultiplies straight RGBA8 in place, rounding to nearest.
func premultiply(_ rgba: inout [UInt8]) {
    rgba.withUnsafeMutableBufferPointer { pixels in
        for base in stride(from: 0, to: pixels.count, by: 4) {
            let alpha = UInt32(pixels[base + 3])
            if alpha == 255 { continue }
            for channel in base..<(base + 3) {
                pixels[channel] = UInt8((UInt32(pixels[channel]) * alpha + 127) / 255)
            }
        }
    }
}

/// Resamples premultiplied RGBA8 with a prefiltered bicubic, one channel at a time as a GRAY8
/// plane: swscale routes packed RGB through its internal YUV when it scales, which would mix the
/// channels and lose precision, while grey planes are filtered on their own. Colour is clamped to
/// alpha afterwards because bicubic overshoot can otherwise break the premultiplied invariant.
func resizePremultiplied(
    _ rgba: [UInt8], width: Int, height: Int, to size: (width: Int, height: Int)
) throws(MediaError) -> [UInt8] {
    let scaler = try ScaleContext(
        from: (width, height, AV_PIX_FMT_GRAY8), to: (size.width, size.height, AV_PIX_FMT_GRAY8),
        flags: SWS_BICUBIC | SWS_ACCURATE_RND | SWS_BITEXACT)
    let pixels = width * height, scaledPixels = size.width * size.height
    var plane = [UInt8](repeating: 0, count: pixels + scalePadding)
    var scaled = [UInt8](repeating: 0, count: scaledPixels + scalePadding)
    var output = [UInt8](repeating: 0, count: scaledPixels * 4)
    for channel in 0..<4 {
        rgba.withUnsafeBufferPointer { source in
            plane.withUnsafeMutableBufferPointer { plane in
                for index in 0..<pixels { plane[index] = source[index * 4 + channel] }
            }
        }
        plane.withUnsafeBufferPointer { source in
            scaled.withUnsafeMutableBufferPointer { destination in
                scaler.scale(
                    source: planes(source.baseAddress), sourceStrides: strides(width),
                    destination: planes(destination.baseAddress), destinationStrides: strides(size.width))
            }
        }
        scaled.withUnsafeBufferPointer { scaled in
            output.withUnsafeMutableBufferPointer { output in
                for index in 0..<scaledPixels { output[index * 4 + channel] = scaled[index] }
            }
        }
    }
    output.withUnsafeMutableBufferPointer { pixels in
        for base in stride(from: 0, to: pixels.count, by: 4) {
            let alpha = pixels[base + 3]
            for channel in base..<(base + 3) { pixels[channel] = min(pixels[channel], alpha) }
        }
    }
    return output
}
