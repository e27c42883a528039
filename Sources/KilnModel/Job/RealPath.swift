import Foundation

/// Paths with symbolic links and `..` resolved, so that a root check cannot be walked around.
enum RealPath {
    /// Kernel and device trees: their files look regular (or are devices) and hold process
    /// secrets or block forever, never media.
    static let systemTrees = ["/proc", "/sys", "/dev"]

    /// The real path of `path`; for a path that does not exist yet, the real path of its
    /// deepest existing ancestor with the rest appended (an output is usually not there yet).
    static func resolve(_ path: String) -> String {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        var existing = absolute
        var rest: [String] = []
        while true {
            if let real = realpath(existing, nil) {
                defer { free(real) }
                let base = String(cString: real)
                guard !rest.isEmpty else { return base }
                return (base == "/" ? "" : base) + "/" + rest.reversed().joined(separator: "/")
            }
            guard existing != "/", !existing.isEmpty else { return absolute }
            let url = URL(fileURLWithPath: existing)
            rest.append(url.lastPathComponent)
            existing = url.deletingLastPathComponent().path
        }
    }

    static func isInside(_ path: String, _ root: String) -> Bool {
        root == "/" || path == root || path.hasPrefix(root + "/")
    }
}
