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
    /// `cancellation` is checked before every image and soundtrack the job reads: once it is set the
    /// load stops early with an error, and the caller reports the cancellation instead.
    public static func load(
        file: String, options: JobLoadOptions = JobLoadOptions(), cancellation: CancellationFlag? = nil
    ) throws(JobLoadError) -> Job {
        let assets = CancellableAssets(cancellation: cancellation)
        assets.waitForFaultDelay()
        return try LayerRegistry.load(file: file, images: assets, audio: assets, options: options)
    }

    public static func decode(
        bytes: [UInt8], file: String, baseDirectory: URL, options: JobLoadOptions = JobLoadOptions(),
        cancellation: CancellationFlag? = nil
    ) throws(JobLoadError) -> Job {
        let assets = CancellableAssets(cancellation: cancellation)
        assets.waitForFaultDelay()
        return try LayerRegistry.decode(
            bytes: bytes, file: file, baseDirectory: baseDirectory, images: assets, audio: assets,
            options: options)
    }
}

/// Thrown by an asset read once the load's cancellation flag is set.
struct LoadCancelled: Error, CustomStringConvertible {
    let signal: Int32
    var description: String { "loading was interrupted (signal \(signal))" }
}

/// The media decoders behind a cancellation check, so a signal during a long load (many or large
/// images, a long soundtrack) stops it at the next file instead of after the whole job.
final class CancellableAssets: ImageDecoding, AudioProbing {
    private let cancellation: CancellationFlag?
    private let images = MediaImageDecoder()
    private let audio = MediaAudioProbe()
    let recorded = Mutex(Set<String>())

    init(cancellation: CancellationFlag?) { self.cancellation = cancellation }

    /// The fault-injection tests' slow load: sleeps in short slices until the delay is over or
    /// the flag is set.
    func waitForFaultDelay() {
        guard let delay = FaultInjection.loadDelay else { return }
        let end = ProcessInfo.processInfo.systemUptime + delay
        while ProcessInfo.processInfo.systemUptime < end, cancellation?.cancelledBySignal == nil {
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    func imageSize(at url: URL) throws -> SIMD2<Int> {
        try check(url)
        return try images.imageSize(at: url)
    }

    func decodeImage(at url: URL, resizedTo size: SIMD2<Int>?) throws -> RasterImage {
        try check(url)
        return try images.decodeImage(at: url, resizedTo: size)
    }

    func audioDuration(at url: URL) throws -> Double {
        try check(url)
        return try audio.audioDuration(at: url)
    }

    private func check(_ url: URL) throws {
        if let signal = cancellation?.cancelledBySignal { throw LoadCancelled(signal: signal) }
        _ = recorded.withLock { $0.insert(url.standardizedFileURL.path) }
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
    public static func loadFingerprinted(
        file: String, options: JobLoadOptions = JobLoadOptions(), cancellation: CancellationFlag? = nil
    ) throws(JobLoadError) -> FingerprintedJob {
        let url = URL(fileURLWithPath: file)
        let bytes = try JobLoader.readBytes(file: file, limits: options.limits)
        return try decodeFingerprinted(
            bytes: bytes, file: file, baseDirectory: url.deletingLastPathComponent().standardizedFileURL,
            options: options, cancellation: cancellation)
    }

    /// Decodes a job (a queue's snapshot of it), fingerprinting it.
    public static func decodeFingerprinted(
        bytes: [UInt8], file: String, baseDirectory: URL, options: JobLoadOptions = JobLoadOptions(),
        cancellation: CancellationFlag? = nil
    ) throws(JobLoadError) -> FingerprintedJob {
        let recorder = CancellableAssets(cancellation: cancellation)
        recorder.waitForFaultDelay()
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
        for path in recorder.recorded.withLock({ $0.sorted() }) {
            digest.update(path)
            if let data = try? Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped) {
                data.withUnsafeBytes { digest.update($0) }
            }
        }
        return FingerprintedJob(job: job, fingerprint: digest.hex)
    }
}
