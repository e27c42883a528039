import Foundation
import KilnMedia
import KilnModel
import KilnRaster
import KilnScene

/// Image layers' files, decoded through the media module (libavformat + libavcodec, resized
/// with swscale).
public struct MediaImageDecoder: ImageDecoding {
    public init() {}

    public func imageSize(at url: URL) throws -> SIMD2<Int> {
        let header = try ImageFile.probe(url)
        return SIMD2(header.width, header.height)
    }

    public func decodeImage(at url: URL, resizedTo size: SIMD2<Int>?) throws -> RasterImage {
        let decoded = try ImageFile.decode(url, resizedTo: size.map { (width: $0.x, height: $0.y) })
        return decoded.premultiplied
            ? RasterImage(width: decoded.width, height: decoded.height, premultipliedRGBA: decoded.rgba)
            : RasterImage(width: decoded.width, height: decoded.height, straightRGBA: decoded.rgba)
    }
}

/// Soundtracks probed through the media module: the file must open and hold a decodable audio
/// stream (its first packets are decoded, so a file with a broken codec is caught too).
public struct MediaAudioProbe: AudioProbing {
    public init() {}

    public func audioDuration(at url: URL) throws -> Double {
        let reader = try AudioFileReader(path: url.path)
        var left = [Float](repeating: 0, count: 1024), right = left
        _ = try reader.read(left: &left, right: &right, count: 1024)
        return reader.info.durationSeconds
    }
}

/// Loads jobs with every registered layer kind and effect, with image decoding and audio probing:
/// what the CLI, the benchmarks and the tests use.
public enum JobFiles {
    public static func load(file: String) throws(JobLoadError) -> Job {
        try LayerRegistry.load(file: file, images: MediaImageDecoder(), audio: MediaAudioProbe())
    }

    public static func decode(bytes: [UInt8], file: String, baseDirectory: URL) throws(JobLoadError) -> Job {
        try LayerRegistry.decode(
            bytes: bytes, file: file, baseDirectory: baseDirectory, images: MediaImageDecoder(),
            audio: MediaAudioProbe())
    }
}
