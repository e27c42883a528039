import CFFmpeg

/// The one colour description Kiln writes: BT.709 primaries/transfer/matrix, limited (tv) range,
/// chroma sited left. Applied to the codec context (H.264 VUI, then stream codecpar → MP4 `colr`)
/// and to every frame, so no layer falls back to "unspecified".
enum BT709Tags {
    static func apply(to context: UnsafeMutablePointer<AVCodecContext>) {
        context.pointee.color_primaries = AVCOL_PRI_BT709
        context.pointee.color_trc = AVCOL_TRC_BT709
        context.pointee.colorspace = AVCOL_SPC_BT709
        context.pointee.color_range = AVCOL_RANGE_MPEG
        context.pointee.chroma_sample_location = AVCHROMA_LOC_LEFT
    }

    static func apply(to frame: UnsafeMutablePointer<AVFrame>) {
        frame.pointee.color_primaries = AVCOL_PRI_BT709
        frame.pointee.color_trc = AVCOL_TRC_BT709
        frame.pointee.colorspace = AVCOL_SPC_BT709
        frame.pointee.color_range = AVCOL_RANGE_MPEG
        frame.pointee.chroma_location = AVCHROMA_LOC_LEFT
    }
}
