import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Where an output goes, resolved once: the real path of its directory (links and `..` resolved
/// by the kernel, as `realpath` does) and its final name exactly as written. The final name is
/// never resolved, so a symbolic link planted there is seen as a link (and refused), whatever
/// spelling leads to it: `sub/../e.mp4`, `../dir/e.mp4`, `/abs/sub/../e.mp4`. (Foundation's
/// `standardizedFileURL` resolves every link of a path holding `..`, the last one included,
/// which is how such outputs used to replace the link's target.)
public struct OutputLocation: Sendable, Hashable {
    /// Absolute, without links, `.` or `..` (its part that does not exist yet is normalised
    /// lexically: the writer creates it, and refuses a link found there when it opens it).
    public let directory: String
    /// The last component as written; never `.`, `..` or empty unless the path is `/`.
    public let name: String

    public var path: String { directory == "/" ? "/" + name : directory + "/" + name }
    public var url: URL { URL(fileURLWithPath: path) }
    public var directoryURL: URL { URL(fileURLWithPath: directory, isDirectory: true) }

    public init(directory: String, name: String) {
        self.directory = directory
        self.name = name
    }

    /// `path` (relative to `base`, or to the current directory) resolved as described above.
    public init(_ path: String, relativeTo base: String? = nil) {
        let start = base ?? FileManager.default.currentDirectoryPath
        let absolute = path.hasPrefix("/") ? path : start + "/" + path
        var components = absolute.split(separator: "/").map(String.init)
        guard let last = components.last else {
            self.init(directory: "/", name: "")
            return
        }
        if last == "." || last == ".." {
            // The path names a directory: resolve it whole, then split off its real name.
            let real = Self.realDirectory(components)
            let url = URL(fileURLWithPath: real)
            let parent = url.deletingLastPathComponent().path
            self.init(directory: real == "/" ? "/" : parent, name: real == "/" ? "" : url.lastPathComponent)
            return
        }
        components.removeLast()
        self.init(directory: Self.realDirectory(components), name: last)
    }

    /// `url`'s path resolved as above.
    public init(_ url: URL) {
        self.init(url.path)
    }

    /// The real path of the directory `components` name, from `/`; a part that does not exist
    /// is appended to its deepest existing ancestor's real path, `.` and `..` applied lexically.
    static func realDirectory(_ components: [String]) -> String {
        var existing = components
        var rest: [String] = []
        while true {
            if let real = realpath("/" + existing.joined(separator: "/"), nil) {
                defer { free(real) }
                var parts = String(cString: real).split(separator: "/").map(String.init)
                for part in rest.reversed() {
                    switch part {
                    case ".": continue
                    case "..": _ = parts.popLast()
                    default: parts.append(part)
                    }
                }
                return "/" + parts.joined(separator: "/")
            }
            guard let last = existing.popLast() else { return "/" }
            rest.append(last)
        }
    }
}
