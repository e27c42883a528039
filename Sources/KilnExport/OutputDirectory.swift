import Foundation
import KilnModel

#if canImport(Glibc)
    import Glibc
#endif

/// An output's directory, opened once by walking its real path from `/` one component at a time
/// without following any link, so that every file an output creates, checks, renames or removes
/// there is named relative to this descriptor: a folder swapped for a link after the job was
/// validated is refused instead of followed.
public final class OutputDirectory: @unchecked Sendable {
    public let path: String
    public let descriptor: Int32

    /// `O_PATH`, which Glibc's Swift overlay does not import (the same value on x86-64 and arm64).
    static let pathOnly: Int32 = 0o10_000_000

    /// Opens `path` (absolute, as `OutputLocation` resolves it); the error says which folder of it
    /// is missing, not a folder, or a symbolic link.
    public init(_ path: String) throws(OutputDirectoryError) {
        self.path = path
        var current = open("/", Self.pathOnly | O_DIRECTORY | O_CLOEXEC)
        guard current >= 0 else {
            throw OutputDirectoryError(path: "/", reason: AtomicOutputFile.errnoText())
        }
        var walked = ""
        let components = path.split(separator: "/").map(String.init)
        for (index, component) in components.enumerated() {
            walked += "/" + component
            let last = index == components.count - 1
            // The last one is opened for reading too, so it can be fsynced; a folder one may
            // enter but not list is still used, unsynced.
            var next = openat(
                current, component, (last ? O_RDONLY : Self.pathOnly) | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            if next < 0, last, errno == EACCES {
                next = openat(current, component, Self.pathOnly | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            }
            if next < 0 {
                let reason: String
                switch errno {
                case ENOENT: reason = "does not exist"
                case ELOOP, ENOTDIR:
                    reason =
                        FileKind.nonRegular(atPath: walked, followingLinks: false) == "a symbolic link"
                        ? "is a symbolic link (an output's folders are not followed through links once resolved)"
                        : "is not a folder"
                default: reason = AtomicOutputFile.errnoText()
                }
                close(current)
                throw OutputDirectoryError(path: walked, reason: reason)
            }
            close(current)
            current = next
        }
        descriptor = current
    }

    /// A folder inside this one, opened without following a link.
    public init(in parent: OutputDirectory, name: String) throws(OutputDirectoryError) {
        path = parent.path == "/" ? "/" + name : parent.path + "/" + name
        let fd = openat(parent.descriptor, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { throw OutputDirectoryError(path: path, reason: AtomicOutputFile.errnoText()) }
        descriptor = fd
    }

    deinit { close(descriptor) }

    /// What `name` is here without following a link: nil when nothing is there.
    public func status(of name: String) -> stat? {
        var info = stat()
        return fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 ? info : nil
    }

    /// "a symbolic link", "a FIFO (named pipe)", … for anything at `name` that is not a regular
    /// file; nil for a regular file or nothing.
    public func nonRegularKind(of name: String) -> String? {
        guard let info = status(of: name) else { return nil }
        return FileKind.nonRegular(mode: info.st_mode)
    }

    /// Whether a regular file (not a link to one) is at `name`.
    public func holdsRegularFile(_ name: String) -> Bool {
        guard let info = status(of: name) else { return false }
        return info.st_mode & S_IFMT == S_IFREG
    }

    /// A new file of ours at `name` (`O_CREAT|O_EXCL|O_NOFOLLOW`), open for writing; -1 and errno
    /// when it cannot be created.
    public func createFile(_ name: String, mode: mode_t = 0o644) -> Int32 {
        openat(descriptor, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
    }

    /// An existing regular file at `name`, opened for reading without following a link and
    /// without blocking on a FIFO; nil for anything else.
    public func openRegularFile(_ name: String) -> Int32? {
        let fd = openat(descriptor, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            return nil
        }
        return fd
    }

    public func makeDirectory(_ name: String) -> Bool { mkdirat(descriptor, name, 0o755) == 0 }

    public func rename(_ from: String, to: String) -> Bool { renameat(descriptor, from, descriptor, to) == 0 }

    @discardableResult
    public func remove(_ name: String) -> Bool { unlinkat(descriptor, name, 0) == 0 }

    @discardableResult
    public func removeDirectory(_ name: String) -> Bool { unlinkat(descriptor, name, AT_REMOVEDIR) == 0 }

    /// The names in this folder (not `.` or `..`).
    public func names() -> [String] {
        let fd = openat(descriptor, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0, let stream = fdopendir(fd) else {
            if fd >= 0 { close(fd) }
            return []
        }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// fsync, so a rename here survives a crash; ignored where the folder could not be opened for it.
    public func sync() { _ = fsync(descriptor) }

    /// A path that reaches the file open as `fd` itself, for writers that take a path (FFmpeg's
    /// avio): the kernel's link to the open file, not its name, so nothing renamed or linked in
    /// its place since it was created is written. Falls back to `fallback` without `/proc`.
    public static func path(ofOpenFile fd: Int32, fallback: String) -> String {
        let magic = "/proc/self/fd/\(fd)"
        var info = stat(), opened = stat()
        guard stat(magic, &info) == 0, fstat(fd, &opened) == 0, info.st_ino == opened.st_ino,
            info.st_dev == opened.st_dev
        else { return fallback }
        return magic
    }
}

public struct OutputDirectoryError: Error, Sendable, CustomStringConvertible {
    public let path: String
    public let reason: String

    public var description: String { "folder \(path) \(reason)" }
}
