import Foundation
import KilnModel
import KilnScene

/// The SHA-256 of everything one frame's pixels depend on (docs/architecture.md, "Frame
/// digests"): equal digests mean equal pixels, on any host, run or build with the same
/// `renderVersion`.
public struct FrameDigest: Hashable, Sendable, CustomStringConvertible {
    public let bytes: [UInt8]

    /// Bumped whenever a change to Kiln changes any frame's pixels: digests of different
    /// versions never match, so a cache never serves frames drawn by older code.
    public static let renderVersion = 1

    public var description: String { bytes.map { String($0, radix: 16).leftPadded(to: 2) }.joined() }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(width - count, 0)) + self
    }
}

/// Computes the frame digests of one job: what every frame shares (render version, output
/// size and format, the job's settings outside its layers, files read outside any layer,
/// played composition files) is read once; each frame adds its layers' inputs at its time
/// (`FrameInputWalk`) and, when something shown reads the time itself, the time.
public final class FrameDigester: @unchecked Sendable {
    /// How the files a frame reads are told apart.
    public enum Files: Sendable {
        /// By their content: digests that hold across runs and hosts (a cache's keys).
        case content(AssetDigests)
        /// By their path: enough within one render, whose files were read when it loaded,
        /// and free of reading them again.
        case pathWithinOneRun
    }

    private let job: Job
    private let file: @Sendable (URL) -> [UInt8]
    private let shared: SHA256Digest

    public init(job: Job, files: Files = .content(AssetDigests())) {
        self.job = job
        let file: @Sendable (URL) -> [UInt8]
        switch files {
        case .content(let assets): file = { assets.digest(of: $0) }
        case .pathWithinOneRun: file = { Array("path \($0.path)".utf8) }
        }
        self.file = file
        var shared = SHA256Digest()
        shared.update(string: "kiln frame digest")
        shared.update(word: UInt64(FrameDigest.renderVersion))
        let o = job.output
        for value in [o.width, o.height, o.layoutWidth, o.layoutHeight] { shared.update(word: UInt64(value)) }
        shared.update(string: o.format.rawValue)
        shared.update(bytes: job.frameInputs.source)
        shared.update(word: UInt64(job.frameInputs.files.count))
        for url in job.frameInputs.files { shared.update(bytes: file(url)) }
        shared.update(word: UInt64(job.compositionFiles.count))
        for composition in job.compositionFiles { shared.update(bytes: composition.bytes) }
        self.shared = shared
    }

    /// The digest of the video's frame `n` (counted from the render's first frame).
    public func digest(ofFrame n: Int) -> FrameDigest {
        digest(atTime: job.output.timelineTime(ofFrame: n))
    }

    /// The digest of the frame at job time `time`.
    public func digest(atTime time: Double) -> FrameDigest {
        let frame = SHA256Digest(copying: shared)
        var sink = frame
        var readsTime = job.frameInputs.readsFrameTime
        sink.update(word: UInt64(job.frameInputs.animated.count))
        for value in job.frameInputs.animated { sink.update(bytes: value.bytes(at: time)) }
        if FrameInputWalk.feed(job.layers, at: time, file: file, into: &sink) {
            readsTime = true
        }
        // The time last, and only when needed: a still stretch of frames shares one digest.
        sink.update(word: readsTime ? 1 : 0)
        if readsTime { sink.update(word: time.bitPattern) }
        return FrameDigest(bytes: frame.finish())
    }
}
