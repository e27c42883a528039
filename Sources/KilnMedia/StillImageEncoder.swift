import CFFmpeg

/// One RGBA8 picture → the bytes of a PNG, JPEG or WebP file (the format a preview's name asks
/// for). PNG and WebP are lossless; JPEG is near-lossless 4:4:4 (see `JPEGEncoder`).
public enum StillImageEncoder {
    /// `rgba` is straight-alpha RGBA8 with `stride` bytes per row. JPEG drops alpha.
    public static func encode(
        _ format: ImageFormat, rgba: UnsafePointer<UInt8>, width: Int, height: Int, stride: Int
    ) throws(MediaError) -> [UInt8] {
        guard width > 0, height > 0, stride >= width * 4 else {
            throw MediaError.failure(
                "StillImageEncoder.encode", "invalid size \(width)x\(height) stride \(stride)")
        }
        switch format {
        case .png: return try PNGCodec.encode(rgba: rgba, width: width, height: height, stride: stride)
        case .jpeg: return try JPEGEncoder.encode(rgba: rgba, width: width, height: height, stride: stride)
        case .webp: return try WebPEncoder.encode(rgba: rgba, width: width, height: height, stride: stride)
        }
    }

    /// Why this FFmpeg cannot write `format` (its build lacks the encoder), or nil when it can:
    /// asked before rendering, so a missing library is reported instead of a failed encode.
    public static func missingEncoder(for format: ImageFormat) -> String? {
        switch format {
        case .png, .jpeg:
            let id = format.codec
            guard avcodec_find_encoder(id) == nil else { return nil }
            return
                "this FFmpeg (\(MediaLibraries.versionSummary)) has no \(format.rawValue.uppercased()) encoder"
        case .webp:
            guard !WebPEncoder.isAvailable else { return nil }
            return
                "this FFmpeg (\(MediaLibraries.versionSummary)) was built without \(WebPEncoder.encoderName), "
                + "which writes WebP; write .png or .jpg instead"
        }
    }
}
