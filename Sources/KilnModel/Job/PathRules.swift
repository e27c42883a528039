import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Where a job may read and write, and which files its output must never replace. A worker
/// renders jobs written by other people, so it confines them; `kiln render` on a user's own file
/// confines only when given roots. The files to protect (the queue database) apply everywhere.
public struct PathRules: Sendable {
    /// Directories the job's images, audio and transcripts must lie under, after symlinks are
    /// resolved; nil reads anywhere.
    public var assetRoots: [String]?
    /// Directories the job's output must lie under; nil writes anywhere.
    public var outputRoots: [String]?
    /// Files an output must not be, whatever the roots say (the queue database and its journals).
    public var protectedFiles: [ProtectedFile]
    /// The longest output file name in bytes: less than NAME_MAX when the writer derives
    /// longer names from it (temp files, segment pieces).
    public var longestOutputName = 255

    public init(
        assetRoots: [String]? = nil, outputRoots: [String]? = nil, protectedFiles: [ProtectedFile] = []
    ) {
        self.assetRoots = assetRoots
        self.outputRoots = outputRoots
        self.protectedFiles = protectedFiles
    }

    /// Why reading `url` is refused, or nil. Only `stat` is used, so a FIFO is never opened
    /// (opening one blocks until a writer appears).
    public func inputProblem(_ url: URL) -> String? {
        if let kind = FileKind.nonRegular(atPath: url.path, followingLinks: true) {
            return "\(url.path) is \(kind), not a regular file"
        }
        let real = RealPath.resolve(url.path)
        if let system = RealPath.systemTrees.first(where: { RealPath.isInside(real, $0) }) {
            return "\(url.path) is under \(system), which holds no media"
        }
        if let roots = assetRoots, !roots.contains(where: { RealPath.isInside(real, RealPath.resolve($0)) }) {
            return
                "\(url.path) (resolved: \(real)) is outside the asset roots (\(roots.joined(separator: ", "))); "
                + "allow a directory with --asset-root DIR or the configuration's assetRoots"
        }
        return nil
    }

    /// Why writing the output at `url` is refused, or nil: outside the output roots, not a
    /// regular file, or one of the files the job reads or the queue keeps.
    public func outputProblem(_ url: URL, jobFile: String?, inputs: [URL]) -> String? {
        if let kind = FileKind.nonRegular(atPath: url.path, followingLinks: false) {
            return "output \(url.path) is \(kind); only a regular file can be replaced"
        }
        // NAME_MAX (255) for directories; less for the file, whose temp and piece names are longer.
        let directories = url.deletingLastPathComponent().pathComponents
        if let long = directories.first(where: { $0.utf8.count > 255 }) {
            return
                "output \(url.path) has a directory name of \(long.utf8.count) bytes; file systems allow 255"
        }
        if url.lastPathComponent.utf8.count > longestOutputName {
            return "output \(url.path) has a file name of \(url.lastPathComponent.utf8.count) bytes; at most "
                + "\(longestOutputName) fit (file systems allow 255, and Kiln's temp and segment names add to it)"
        }
        let real = RealPath.resolve(url.path)
        if let roots = outputRoots, !roots.contains(where: { RealPath.isInside(real, RealPath.resolve($0)) })
        {
            return
                "output \(url.path) (resolved: \(real)) is outside the output roots (\(roots.joined(separator: ", "))); "
                + "allow a directory with --output-root DIR or the configuration's outputRoots"
        }
        var others = protectedFiles
        if let jobFile { others.append(ProtectedFile(path: jobFile, role: "the job file")) }
        others += inputs.map { ProtectedFile(path: $0.path, role: "an input of the job") }
        for other in others where FileIdentity.same(url.path, other.path) {
            return "output \(url.path) is \(other.role) (\(other.path)); writing it would destroy it"
        }
        return nil
    }
}

/// A file an output must not replace, with what it is for messages.
public struct ProtectedFile: Sendable, Hashable, Codable {
    public let path: String
    public let role: String

    public init(path: String, role: String) {
        self.path = path
        self.role = role
    }

    /// A SQLite queue and the journal files beside it: replacing any of them loses jobs.
    public static func queueDatabase(_ path: String) -> [ProtectedFile] {
        ["", "-wal", "-shm", "-journal"].map { ProtectedFile(path: path + $0, role: "the queue database") }
    }
}

/// What a path names, told apart with `stat`/`lstat` without opening it.
public enum FileKind {
    /// "a FIFO", "a device", … for anything but a regular file; nil for a regular file or
    /// nothing at all. `followingLinks` false reports a symbolic link as one.
    public static func nonRegular(atPath path: String, followingLinks: Bool) -> String? {
        var info = stat()
        let status = followingLinks ? stat(path, &info) : lstat(path, &info)
        guard status == 0 else { return nil }
        return nonRegular(mode: info.st_mode)
    }

    /// The kind named by a `stat` mode, nil for a regular file.
    static func nonRegular(mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return "a directory"
        case S_IFIFO: return "a FIFO (named pipe)"
        case S_IFSOCK: return "a socket"
        case S_IFCHR, S_IFBLK: return "a device"
        case S_IFLNK: return "a symbolic link"
        default: return "not a regular file"
        }
    }
}

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

/// Whether two paths name the same file: the same inode on the same device when both exist,
/// else the same real path (a queue's `-wal` file may not exist yet).
enum FileIdentity {
    static func same(_ a: String, _ b: String) -> Bool {
        var left = stat(), right = stat()
        if stat(a, &left) == 0, stat(b, &right) == 0 {
            return left.st_dev == right.st_dev && left.st_ino == right.st_ino
        }
        return RealPath.resolve(a) == RealPath.resolve(b)
    }
}

/// Reads a whole regular file without ever blocking on a FIFO or device: opened non-blocking,
/// checked with `fstat` on the descriptor itself (so the file cannot be swapped between the
/// check and the read), then read.
public enum RegularFileReader {
    public enum Failure: Error, Equatable {
        case missing
        case notRegular(String)
        case tooLarge(Int)
        case unreadable(String)
    }

    public static func read(path: String, limit: Int) -> Result<[UInt8], Failure> {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            return .failure(errno == ENOENT ? .missing : .unreadable(String(cString: strerror(errno))))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .failure(.unreadable(String(cString: strerror(errno)))) }
        if let kind = FileKind.nonRegular(mode: info.st_mode) { return .failure(.notRegular(kind)) }
        guard Int(info.st_size) <= limit else { return .failure(.tooLarge(Int(info.st_size))) }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var filled = 0
        while true {
            if filled == bytes.count {
                // The file grew after fstat: read on, still within the limit.
                guard bytes.count < limit else { break }
                bytes += [UInt8](repeating: 0, count: min(max(4096, bytes.count), limit - bytes.count))
            }
            let n = bytes.withUnsafeMutableBytes {
                Glibc.read(fd, $0.baseAddress! + filled, $0.count - filled)
            }
            if n < 0 {
                if errno == EINTR { continue }
                return .failure(.unreadable(String(cString: strerror(errno))))
            }
            if n == 0 { break }
            filled += n
        }
        return .success(Array(bytes[..<filled]))
    }
}
