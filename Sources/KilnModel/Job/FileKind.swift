import Foundation

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
    public static func nonRegular(mode: mode_t) -> String? {
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

    /// True for a real directory (not a link to one).
    public static func isDirectory(atPath path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }
}
