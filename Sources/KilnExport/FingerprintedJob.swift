import Foundation
import KilnModel

/// A job and the digest of everything its pixels and sound depend on: Kiln's version, the job
/// text, its variables and base directory, and the bytes of every file it reads (images, audio).
/// Fonts are found by family through fontconfig and are not part of it.
public struct FingerprintedJob: Sendable {
    public let job: Job
    public let fingerprint: String
}

extension FingerprintedJob {
    /// The job rendered as `draft`. Its fingerprint covers the draft's size and frames too, so a
    /// draft never reuses a full-size render's segments or soundtrack, nor they a draft's; a draft
    /// that comes out as the whole job keeps the job's fingerprint.
    public func drafted(_ draft: Draft) throws(DraftError) -> FingerprintedJob {
        let drafted = try job.drafted(draft)
        let o = drafted.output
        guard o != job.output else { return self }
        var digest = ContentDigest()
        digest.update("kiln draft")
        digest.update(fingerprint)
        for value in [o.width, o.height, o.layoutWidth, o.layoutHeight, o.startFrame, o.frameCount] {
            digest.update(value)
        }
        return FingerprintedJob(job: drafted, fingerprint: digest.hex)
    }
}

extension FingerprintedJob {
    /// The job written as another format (`Job.reformatted(as:keepingPath:)`); its fingerprint
    /// covers the format and its encoder settings, so no segment of one format serves another.
    public func reformatted(as format: OutputFormat, keepingPath: Bool) -> FingerprintedJob {
        let reformatted = job.reformatted(as: format, keepingPath: keepingPath)
        guard reformatted.output.format != job.output.format else { return self }
        var digest = ContentDigest()
        digest.update("kiln format")
        digest.update(fingerprint)
        digest.update(format.rawValue)
        digest.update(reformatted.output.preset)
        digest.update(Int(reformatted.output.crf * 1000))
        return FingerprintedJob(job: reformatted, fingerprint: digest.hex)
    }
}
