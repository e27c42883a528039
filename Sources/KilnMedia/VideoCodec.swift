import CFFmpeg

/// The encoders and containers Kiln writes a video with (a PNG sequence is `PNGSequenceWriter`).
public enum VideoCodec: String, Sendable, Hashable, CaseIterable {
    case h264
    case hevc
    case vp9
    case prores4444
    case gif
    case webp

    /// What the writer is fed: the renderer's YUV 4:2:0 (composited over black) or straight-alpha
    /// RGBA for the formats that keep transparency.
    public enum Input: Sendable { case yuv420, rgba }

    public var input: Input {
        switch self {
        case .h264, .hevc, .vp9: .yuv420
        case .prores4444, .gif, .webp: .rgba
        }
    }

    /// libavcodec's name of the encoder.
    var encoderName: String {
        switch self {
        case .h264: "libx264"
        case .hevc: "libx265"
        case .vp9: "libvpx-vp9"
        case .prores4444: "prores_ks"
        case .gif: "gif"
        case .webp: "libwebp_anim"
        }
    }

    /// libavformat's name of the muxer.
    var muxerName: String {
        switch self {
        case .h264, .hevc: "mp4"
        case .vp9: "webm"
        case .prores4444: "mov"
        case .gif: "gif"
        case .webp: "webp"
        }
    }

    /// Whether the container keeps `ContainerTags` (GIF and animated WebP keep none).
    public var carriesTags: Bool { ["mp4", "mov", "webm"].contains(muxerName) }

    /// What the encoder is given.
    var pixelFormat: AVPixelFormat {
        switch self {
        case .h264, .hevc, .vp9: AV_PIX_FMT_YUV420P
        // ProRes 4444 with a 16-bit alpha plane; 10-bit 4:4:4 keeps edges and colour for editing.
        case .prores4444: AV_PIX_FMT_YUVA444P10LE
        case .gif: AV_PIX_FMT_PAL8
        // libwebp's ARGB words in little-endian memory, alpha included.
        case .webp: AV_PIX_FMT_BGRA
        }
    }

    /// The audio codec of its container, or nil when it has none: AAC in MP4 and MOV (editors read
    /// it), Opus in WebM (WebM allows only Opus and Vorbis).
    var audioCodec: AudioTrackCodec? {
        switch self {
        case .h264, .hevc, .prores4444: .aac
        case .vp9: .opus
        case .gif, .webp: nil
        }
    }

    /// Whether its stream carries BT.709 colour tags: GIF and WebP are sRGB RGB by definition.
    var carriesColorTags: Bool {
        switch self {
        case .h264, .hevc, .vp9, .prores4444: true
        case .gif, .webp: false
        }
    }

    /// Why this FFmpeg cannot write it (its build lacks an encoder or muxer), or nil when it can:
    /// asked before rendering, so a missing library is reported before any frame is drawn.
    public var missingLibrary: String? {
        // Kiln writes GIF itself (`GIFAnimationWriter`).
        if self == .gif { return nil }
        if avcodec_find_encoder_by_name(encoderName) == nil {
            return
                "this FFmpeg (\(MediaLibraries.versionSummary)) has no \(encoderName) encoder, which writes \(rawValue)"
        }
        if av_guess_format(muxerName, nil, nil) == nil {
            return
                "this FFmpeg (\(MediaLibraries.versionSummary)) has no \(muxerName) muxer, which writes \(rawValue)"
        }
        if let audio = audioCodec, avcodec_find_encoder_by_name(audio.encoderName) == nil {
            return
                "this FFmpeg (\(MediaLibraries.versionSummary)) has no \(audio.encoderName) encoder for \(rawValue)'s audio"
        }
        return nil
    }
}
