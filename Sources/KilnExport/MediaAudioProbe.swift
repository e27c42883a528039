import Foundation
import KilnMedia
import KilnModel
import KilnScene

/// Soundtracks probed through the media module: the file must open and hold a decodable audio
/// stream (its first packets are decoded, so a file with a broken codec is caught too). The
/// duration comes from the header (a WAV's chunks, another format's container), never from
/// decoding the whole file.
public struct MediaAudioProbe: AudioProbing {
    public init() {}

    public func audioDuration(at url: URL) throws -> Double {
        try NonRegularInput.refuse(url)
        // Before FFmpeg opens it: its WAV demuxer would crawl through junk padding.
        let wavSeconds = try WAVHeader.duration(path: url.path)
        let reader = try AudioFileReader(path: url.path)
        if let wavSeconds {
            var left = [Float](repeating: 0, count: 1024), right = left
            _ = try reader.read(left: &left, right: &right, count: 1024)
            return wavSeconds
        }
        var left = [Float](repeating: 0, count: 1024), right = left
        _ = try reader.read(left: &left, right: &right, count: 1024)
        return reader.info.durationSeconds
    }
}

extension MediaAudioProbe: AudioAnalyzing {
    /// Decodes the track (or the whole mix) as placed on the timeline and measures it every hop.
    public func levels(
        of soundtrack: Soundtrack, track: Int?, bands: [ClosedRange<Double>?], duration: Double, hop: Double
    ) throws -> [[Float]] {
        let hopSamples = max(1, Int((hop * Double(AudioFormat.sampleRate)).rounded()))
        let hops = Int((duration / hop).rounded(.up)) + 1
        let source =
            if let track {
                // The track alone, as placed, before any ducking under another.
                try SoundtrackMix.mix(
                    Soundtrack(
                        tracks: [soundtrack.tracks[track]].map {
                            var t = $0; t.duck = nil; return t
                        }),
                    from: 0, to: duration)
            } else {
                try SoundtrackMix.mix(soundtrack, from: 0, to: duration)
            }
        return try AudioAnalysis(bands: bands).levels(of: source, hops: hops, hop: hopSamples)
    }
}
