import Foundation
import KilnMedia
import KilnModel
import KilnRaster
import KilnScene
import Synchronization

/// Image layers' files, decoded through the media module (libavformat + libavcodec, resized
/// with swscale).
public struct MediaImageDecoder: ImageDecoding {
    public init() {}

    public func imageSize(at url: URL) throws -> SIMD2<Int> {
        try NonRegularInput.refuse(url)
        let header = try ImageFile.probe(url)
        return SIMD2(header.width, header.height)
    }

    public func decodeImage(at url: URL, resizedTo size: SIMD2<Int>?) throws -> RasterImage {
        try NonRegularInput.refuse(url)
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
        try NonRegularInput.refuse(url)
        let reader = try AudioFileReader(path: url.path)
        var left = [Float](repeating: 0, count: 1024), right = left
        _ = try reader.read(left: &left, right: &right, count: 1024)
        return reader.info.durationSeconds
    }
}

/// A media file that is a FIFO, device or socket: FFmpeg would open it and block or read
/// forever, so it is refused by `stat` first, at every open and not only when the job loads.
struct NonRegularInput: Error, CustomStringConvertible {
    let path: String
    let kind: String
    var description: String { "\(path) is \(kind), not a regular file" }

    static func refuse(_ url: URL) throws(NonRegularInput) {
        if let kind = FileKind.nonRegular(atPath: url.path, followingLinks: true) {
            throw NonRegularInput(path: url.path, kind: kind)
        }
    }
}

/// Loads jobs with every registered layer kind and effect, with image decoding and audio probing:
/// what the CLI, the benchmarks and the tests use.
public enum JobFiles {
    public static func load(file: String, options: JobLoadOptions = JobLoadOptions()) throws(JobLoadError)
        -> Job
    {
        try LayerRegistry.load(
            file: file, images: MediaImageDecoder(), audio: MediaAudioProbe(), options: options)
    }

    public static func decode(
        bytes: [UInt8], file: String, baseDirectory: URL, options: JobLoadOptions = JobLoadOptions()
    ) throws(JobLoadError) -> Job {
        try LayerRegistry.decode(
            bytes: bytes, file: file, baseDirectory: baseDirectory, images: MediaImageDecoder(),
            audio: MediaAudioProbe(), options: options)
    }
}

/// This build's version: printed by `kiln --version` and part of every segment key, so pieces
/// rendered by another version are never joined with this one's.
public enum KilnVersion {
    public static let string = "0.2.0"
}

/// A job and the digest of everything its pixels and sound depend on: Kiln's version, the job
/// text, its variables and base directory, and the bytes of every file it reads (images, audio).
/// Fonts are found by family through fontconfig and are not part of it.
public struct FingerprintedJob: Sendable {
    public let job: Job
    public let fingerprint: String
}

extension JobFiles {
    /// Reads and decodes a job file, fingerprinting it.
    public static func loadFingerprinted(file: String, options: JobLoadOptions = JobLoadOptions())
        throws(JobLoadError) -> FingerprintedJob
    {
        let url = URL(fileURLWithPath: file)
        let bytes = try JobLoader.readBytes(file: file)
        return try decodeFingerprinted(
            bytes: bytes, file: file, baseDirectory: url.deletingLastPathComponent().standardizedFileURL,
            options: options)
    }

    /// Decodes a job (a queue's snapshot of it), fingerprinting it.
    public static func decodeFingerprinted(
        bytes: [UInt8], file: String, baseDirectory: URL, options: JobLoadOptions = JobLoadOptions()
    ) throws(JobLoadError) -> FingerprintedJob {
        let recorder = AssetRecorder()
        let job = try LayerRegistry.decode(
            bytes: bytes, file: file, baseDirectory: baseDirectory, images: recorder, audio: recorder,
            options: options)
        var digest = ContentDigest()
        digest.update("kiln \(KilnVersion.string) job format \(Job.formatVersion)")
        digest.update(bytes)
        for (key, value) in options.variables.sorted(by: { $0.key < $1.key }) {
            digest.update(key)
            digest.update(value)
        }
        digest.update(baseDirectory.standardizedFileURL.path)
        for path in recorder.paths {
            digest.update(path)
            if let data = try? Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped) {
                data.withUnsafeBytes { digest.update($0) }
            }
        }
        return FingerprintedJob(job: job, fingerprint: digest.hex)
    }
}

/// Decodes through the media module like `JobFiles`, noting every file it was asked to read.
final class AssetRecorder: ImageDecoding, AudioProbing {
    private let seen = Mutex(Set<String>())
    private let images = MediaImageDecoder()
    private let audio = MediaAudioProbe()

    var paths: [String] { seen.withLock { $0.sorted() } }

    func imageSize(at url: URL) throws -> SIMD2<Int> {
        note(url)
        return try images.imageSize(at: url)
    }

    func decodeImage(at url: URL, resizedTo size: SIMD2<Int>?) throws -> RasterImage {
        note(url)
        return try images.decodeImage(at: url, resizedTo: size)
    }

    func audioDuration(at url: URL) throws -> Double {
        note(url)
        return try audio.audioDuration(at: url)
    }

    private func note(_ url: URL) {
        _ = seen.withLock { $0.insert(url.standardizedFileURL.path) }
    }
}
