import CFFmpeg

public enum SegmentFile {
    /// Opens a segment and reads its video packets without decoding them. Throws for a file that
    /// cannot be read, has no video stream, or whose timestamps are not one packet per frame.
    public static func probe(path: String) throws(MediaError) -> SegmentInfo {
        let reader = try SegmentReader(path: path)
        let packet = try require(av_packet_alloc(), "av_packet_alloc")
        var packetPointer: UnsafeMutablePointer<AVPacket>? = packet
        defer { av_packet_free(&packetPointer) }
        while try reader.next(packet) != nil { av_packet_unref(packet) }
        try reader.checkComplete()
        let parameters = reader.stream.pointee.codecpar.pointee
        return SegmentInfo(
            frameCount: reader.packetsRead, width: Int(parameters.width), height: Int(parameters.height),
            frameRateNumerator: Int(reader.frameRate.num), frameRateDenominator: Int(reader.frameRate.den),
            startsWithKeyframe: reader.startsWithKeyframe, hasAudio: reader.hasAudio)
    }
}
