import Foundation
import KilnMedia
import KilnModel
import KilnRaster
import KilnScene
import Synchronization

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
        return try LayerRegistry.load(
            file: file, images: assets, videos: assets, audio: assets,
            options: options.interrupted(by: cancellation))
    }

    public static func decode(
        bytes: [UInt8], file: String, baseDirectory: URL, options: JobLoadOptions = JobLoadOptions(),
        cancellation: CancellationFlag? = nil
    ) throws(JobLoadError) -> Job {
        let assets = CancellableAssets(cancellation: cancellation)
        assets.waitForFaultDelay()
        return try LayerRegistry.decode(
            bytes: bytes, file: file, baseDirectory: baseDirectory, images: assets, videos: assets,
            audio: assets,
            options: options.interrupted(by: cancellation))
    }
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
            bytes: bytes, file: file, baseDirectory: baseDirectory, images: recorder, videos: recorder,
            audio: recorder,
            options: options.interrupted(by: cancellation))
        var digest = ContentDigest()
        digest.update("kiln \(KilnVersion.string) job format \(Job.formatVersion)")
        digest.update(bytes)
        for (key, value) in options.variables.sorted(by: { $0.key < $1.key }) {
            digest.update(key)
            digest.update(value)
        }
        digest.update(baseDirectory.standardizedFileURL.path)
        // The composition files as they were played (read once by the load), like the job's bytes.
        for composition in job.compositionFiles.sorted(by: { $0.url.path < $1.url.path }) {
            digest.update(composition.url.path)
            digest.update(composition.bytes)
        }
        for path in recorder.recorded.withLock({ $0.sorted() }) {
            digest.update(path)
            if let data = try? Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped) {
                data.withUnsafeBytes { digest.update($0) }
            }
        }
        return FingerprintedJob(job: job, fingerprint: digest.hex).scaledForTests()
    }
}

extension FingerprintedJob {
    /// Test builds only: `KILN_TEST_DRAFT_SCALE=F` renders every job that `render` or a worker
    /// loads as a draft at that scale, so the documented-commands test can run the README's
    /// renders of 1080p jobs as written in seconds. Release builds return the job unchanged.
    fileprivate func scaledForTests() -> FingerprintedJob {
        #if KILN_TEST_HOOKS
            if let text = ProcessInfo.processInfo.environment["KILN_TEST_DRAFT_SCALE"],
                let scale = Double(text), let drafted = try? drafted(Draft(size: .scale(scale)))
            {
                return drafted
            }
        #endif
        return self
    }
}

extension JobLoadOptions {
    /// These options with the layer-by-layer check of `cancellation` (text layouts and other
    /// work between file reads stop at the next layer too).
    func interrupted(by cancellation: CancellationFlag?) -> JobLoadOptions {
        guard let cancellation else { return self }
        var options = self
        options.interruption = { cancellation.cancelledBySignal }
        return options
    }
}
