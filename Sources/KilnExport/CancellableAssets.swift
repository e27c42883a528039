import Foundation
import KilnMedia
import KilnModel
import KilnRaster
import KilnScene
import Synchronization

/// Thrown by an asset read once the load's cancellation flag is set.
struct LoadCancelled: Error, CustomStringConvertible {
    let signal: Int32
    var description: String { "loading was interrupted (signal \(signal))" }
}

/// The media decoders behind a cancellation check, so a signal during a long load (many or large
/// images, a long soundtrack) stops it at the next file instead of after the whole job.
final class CancellableAssets: ImageDecoding, VideoDecoding, AudioProbing, AudioAnalyzing {
    private let cancellation: CancellationFlag?
    private let images = MediaImageDecoder()
    private let videos = MediaVideoDecoder()
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

    func videoFacts(at url: URL) throws -> VideoFacts {
        try check(url)
        return try videos.videoFacts(at: url)
    }

    func openVideo(at url: URL, maxPixels: Int, scaledTo size: SIMD2<Int>?) throws -> any VideoFrameSource {
        try check(url)
        return try videos.openVideo(at: url, maxPixels: maxPixels, scaledTo: size)
    }

    func audioDuration(at url: URL) throws -> Double {
        try check(url)
        return try audio.audioDuration(at: url)
    }

    func levels(
        of soundtrack: Soundtrack, track: Int?, bands: [ClosedRange<Double>?], duration: Double, hop: Double
    ) throws -> [[Float]] {
        if let signal = cancellation?.cancelledBySignal { throw LoadCancelled(signal: signal) }
        return try audio.levels(of: soundtrack, track: track, bands: bands, duration: duration, hop: hop)
    }

    private func check(_ url: URL) throws {
        if let signal = cancellation?.cancelledBySignal { throw LoadCancelled(signal: signal) }
        _ = recorded.withLock { $0.insert(url.standardizedFileURL.path) }
    }
}
