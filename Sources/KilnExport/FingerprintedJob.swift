import Foundation
import KilnModel

/// A job and the digest of everything its pixels and sound depend on: Kiln's version, the job
/// text, its variables and base directory, and the bytes of every file it reads (images, audio).
/// Fonts are found by family through fontconfig and are not part of it.
public struct FingerprintedJob: Sendable {
    public let job: Job
    public let fingerprint: String
}
