import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Where the embedded queue lives: `$KILN_QUEUE`/`--queue sqlite:PATH`, else
/// `$XDG_STATE_HOME/kiln/queue.sqlite3` (default `~/.local/state/kiln/queue.sqlite3`).
public enum StoreLocation {
    public static func defaultDatabasePath(
        environment: [String: String] = ProcessInfo.processInfo.environment
    )
        -> String
    {
        let state =
            environment["XDG_STATE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.local/state"
        return state + "/kiln/queue.sqlite3"
    }

    /// Creates the database's directory and refuses network file systems, where SQLite's locks
    /// (and so the queue's guarantees) do not hold.
    static func check(databasePath path: String) throws {
        // NSString's path methods trap on some short relative paths on Linux; URL's do not.
        let directory = path.contains("/") ? URL(fileURLWithPath: path).deletingLastPathComponent().path : ""
        do {
            try FileManager.default.createDirectory(
                atPath: directory.isEmpty ? "." : directory,
                withIntermediateDirectories: true)
        } catch {
            throw QueueError.unusableLocation(
                path: path, reason: "cannot create its directory (\(error.localizedDescription))")
        }
        let resolved = URL(fileURLWithPath: directory.isEmpty ? "." : directory).resolvingSymlinksInPath()
            .path
        if let kind = mountType(of: resolved),
            networkTypes.contains(where: { kind == $0 || kind.hasPrefix($0 + ".") })
        {
            throw QueueError.networkFilesystem(path: path, kind: kind)
        }
        if let kind = nonRegularKind(path) {
            throw QueueError.unusableLocation(path: path, reason: "is \(kind), not a queue database file")
        }
    }
}

extension StoreLocation {
    /// SQLite would open a FIFO and block, or fail with a message that does not say why.
    static func nonRegularKind(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return "a directory"
        default: return "a FIFO, device or socket"
        }
    }

    static let networkTypes = [
        "nfs", "nfs4", "cifs", "smb3", "smbfs", "9p", "ncpfs", "afs", "ceph", "glusterfs", "lustre",
        "fuse.sshfs", "fuse.glusterfs", "fuse.s3fs", "fuse.rclone",
    ]

    /// The file system type of the mount holding `path` (the longest mount point that is a
    /// prefix of it in /proc/self/mountinfo), or nil when that cannot be read.
    static func mountType(of path: String) -> String? {
        guard let table = try? String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8) else {
            return nil
        }
        var best: (point: String, type: String)?
        for line in table.split(separator: "\n") {
            // Fields: id parent major:minor root mountpoint options [optional…] - fstype source superoptions
            let fields = line.split(separator: " ", omittingEmptySubsequences: false)
            guard fields.count > 6, let dash = fields.firstIndex(of: "-"), dash + 1 < fields.count else {
                continue
            }
            let point = fields[4].replacingOccurrences(of: "\\040", with: " ")
            let inside = path == point || point == "/" || path.hasPrefix(point + "/")
            if inside && point.count >= (best?.point.count ?? -1) {
                best = (point, String(fields[dash + 1]))
            }
        }
        return best?.type
    }
}
