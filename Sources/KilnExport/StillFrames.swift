import KilnModel

/// Still frames rendered once during an export: each frame's digest (`FrameDigester`) is known
/// one frame ahead, and a frame whose digest equals its predecessor's takes the pictures kept
/// of it. One extra frame is kept, and only once a still stretch begins.
struct StillFrames {
    private let digester: FrameDigester?
    private let range: Range<Int>
    private var digests: [Int: FrameDigest] = [:]
    private var kept: (digest: FrameDigest, frame: RenderedFrame)?
    private(set) var reused = 0

    init(job: Job, enabled: Bool, range: Range<Int>) {
        // Files by path: within one render they are the ones it loaded.
        digester = enabled ? FrameDigester(job: job, files: .pathWithinOneRun) : nil
        self.range = range
    }

    private mutating func digest(of n: Int) -> FrameDigest? {
        guard let digester, range.contains(n) else { return nil }
        if let known = digests[n] { return known }
        let digest = digester.digest(ofFrame: n)
        digests[n] = digest
        // Only n and n+1 are ever asked for again.
        digests[n - 2] = nil
        return digest
    }

    /// True when frame `n` shows exactly what frame n−1 did.
    mutating func repeatsFrame(before n: Int) -> Bool {
        guard n > range.lowerBound, let digest = digest(of: n) else { return false }
        return self.digest(of: n - 1) == digest
    }

    /// Fills `frame` with frame `n`'s pictures when they are kept; false when it must be drawn.
    mutating func reuse(frame n: Int, into frame: RenderedFrame) -> Bool {
        guard let kept, let digest = digest(of: n), kept.digest == digest else { return false }
        frame.copyPictures(of: kept.frame)
        reused += 1
        return true
    }

    /// Frame `n` was drawn into `frame`: its pictures are kept when frame n+1 shows them again.
    mutating func rendered(frame n: Int, _ frame: RenderedFrame) {
        guard repeatsFrame(before: n + 1), let digest = digest(of: n) else { return }
        let copy =
            kept?.frame
            ?? RenderedFrame(width: frame.yuv.width, height: frame.yuv.height, keepsAlpha: frame.rgba != nil)
        copy.copyPictures(of: frame)
        kept = (digest, copy)
    }
}
