import Foundation

/// Reads an audio file's duration while a job is decoded, so an unreadable soundtrack is reported
/// with the job's other errors instead of failing at the end of a render. Registered by the
/// media layer; without it only the file's existence is checked.
public protocol AudioProbing: Sendable {
    /// Seconds of audio in the file (0 if the container does not say); throws if it has no
    /// decodable audio stream.
    func audioDuration(at url: URL) throws -> Double
}
