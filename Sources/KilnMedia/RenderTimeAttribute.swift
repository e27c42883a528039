import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// How long a video took to render, kept as an extended attribute of the file
/// (`user.kiln.render_seconds`) rather than in its bytes: the time differs from run to run, and a
/// render's bytes must be identical for any thread count, segmenting or resume. `kiln review`
/// reads it for files no queue knows. A file system without user attributes keeps none, and the
/// page says the render time is unknown.
public enum RenderTimeAttribute {
    public static let name = "user.kiln.render_seconds"

    /// Records `seconds` on the file at `path` (a link is followed: writers name their temporary
    /// file through /proc/self/fd). Failure is ignored: the time is a courtesy, never a reason to
    /// lose a render.
    public static func record(_ seconds: Double, path: String) {
        guard seconds.isFinite, seconds >= 0 else { return }
        let text = String(format: "%.3f", seconds)
        _ = text.withCString { setxattr(path, name, $0, strlen($0), 0) }
    }

    /// The recorded time, or nil (none, unreadable, or not a finite non-negative number).
    public static func read(path: String) -> Double? {
        var buffer = [CChar](repeating: 0, count: 64)
        let count = getxattr(path, name, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        let text = String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let seconds = Double(text), seconds.isFinite, seconds >= 0 else { return nil }
        return seconds
    }
}
