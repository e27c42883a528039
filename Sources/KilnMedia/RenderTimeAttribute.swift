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

    // Glibc's Swift module leaves out <sys/xattr.h>; the two calls are looked up by name in the
    // C library the process already has, rather than adding a C target for two declarations.
    private typealias SetAttribute =
        @convention(c) (UnsafePointer<CChar>, UnsafePointer<CChar>, UnsafeRawPointer, Int, Int32) -> Int32
    private typealias GetAttribute =
        @convention(c) (UnsafePointer<CChar>, UnsafePointer<CChar>, UnsafeMutableRawPointer, Int) -> Int
    private static let setAttribute: SetAttribute? = dlsym(dlopen(nil, RTLD_NOW), "setxattr").map {
        unsafeBitCast($0, to: SetAttribute.self)
    }
    private static let getAttribute: GetAttribute? = dlsym(dlopen(nil, RTLD_NOW), "getxattr").map {
        unsafeBitCast($0, to: GetAttribute.self)
    }

    /// Records `seconds` on the file at `path` (a link is followed: writers name their temporary
    /// file through /proc/self/fd). Failure is ignored: the time is a courtesy, never a reason to
    /// lose a render.
    public static func record(_ seconds: Double, path: String) {
        guard seconds.isFinite, seconds >= 0 else { return }
        let text = String(format: "%.3f", seconds)
        guard let setAttribute else { return }
        _ = text.withCString { setAttribute(path, name, $0, strlen($0), 0) }
    }

    /// The recorded time, or nil (none, unreadable, or not a finite non-negative number).
    public static func read(path: String) -> Double? {
        guard let getAttribute else { return nil }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = buffer.withUnsafeMutableBytes { getAttribute(path, name, $0.baseAddress!, 63) }
        guard count > 0 else { return nil }
        let text = String(decoding: buffer.prefix(count), as: UTF8.self)
        guard let seconds = Double(text), seconds.isFinite, seconds >= 0 else { return nil }
        return seconds
    }
}
