import Foundation
import KilnModel
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// One complete file at the final path or none: content goes to a hidden temp file in the same
/// directory (same file system, so the rename is atomic), which is fsynced, renamed over the
/// final path, and the directory fsynced. Anything else removes the temp file.
public final class AtomicOutputFile: @unchecked Sendable {
    public let finalURL: URL
    public let temporaryURL: URL
    private var finished = false

    /// Files no output of this process may replace, whatever job asks (the queue database it
    /// serves): checked here, right before the output is opened, as well as when jobs load.
    public static let protectedFiles = Mutex<[ProtectedFile]>([])

    /// Creates the folders `finalURL` is to go into, as `mkdir -p` does; returns the folder it had
    /// to create, or nil when it existed. `kiln render` and the queue's workers both do this, so
    /// a job behaves the same whichever way it is rendered.
    @discardableResult
    public static func createDirectory(for finalURL: URL) throws(ExportError) -> URL? {
        let directory = finalURL.deletingLastPathComponent()
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) {
            return nil  // a file in the way is reported by `init`
        }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw .cannotCreateOutput(
                path: finalURL.path,
                reason:
                    "cannot create directory \(directory.path): \((error as NSError).localizedDescription)")
        }
        return directory
    }

    /// Fails with `ExportError.cannotCreateOutput` when the directory is missing or not writable,
    /// or the final path is something an output must not replace (a device, FIFO, directory or
    /// symbolic link, or a protected file).
    public init(finalURL: URL) throws(ExportError) {
        self.finalURL = finalURL
        let rules = PathRules(protectedFiles: Self.protectedFiles.withLock { $0 })
        if let problem = rules.outputProblem(finalURL, jobFile: nil, inputs: []) {
            throw .cannotCreateOutput(path: finalURL.path, reason: "refused: \(problem)")
        }
        let directory = finalURL.deletingLastPathComponent()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory),
            isDirectory.boolValue
        else {
            throw .cannotCreateOutput(
                path: finalURL.path, reason: "directory \(directory.path) does not exist")
        }
        guard access(directory.path, W_OK) == 0 else {
            throw .cannotCreateOutput(
                path: finalURL.path, reason: "directory \(directory.path) is not writable")
        }
        let ext = finalURL.pathExtension.isEmpty ? "" : "." + finalURL.pathExtension
        let token = UInt32.random(in: 0...UInt32.max)
        // The host is in the name because outputs may be on storage shared by many hosts, and
        // only this host can tell whether one of its processes is gone.
        temporaryURL = directory.appendingPathComponent(
            ".\(finalURL.lastPathComponent).kiln-\(getpid())-\(String(token, radix: 16))@\(Self.host)\(ext)")
        // Created here, exclusively and without following a link, so that whatever writes the
        // content (this class or FFmpeg's own open) writes into a new regular file of ours and
        // never through a link or into a file someone placed at the name.
        let fd = open(temporaryURL.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw .cannotCreateOutput(
                path: finalURL.path,
                reason: "cannot create \(temporaryURL.lastPathComponent): \(Self.errnoText())")
        }
        close(fd)
    }

    /// Writes `bytes` to the temp file (for small outputs such as PNG previews).
    public func write(_ bytes: [UInt8]) throws(ExportError) {
        let fd = open(temporaryURL.path, O_WRONLY | O_TRUNC | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { throw .cannotCreateOutput(path: finalURL.path, reason: Self.errnoText()) }
        defer { close(fd) }
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                let reason = Self.errnoText()
                discard()
                throw .cannotCreateOutput(path: finalURL.path, reason: reason)
            }
            offset += n
        }
    }

    /// fsync, rename over the final path, fsync the directory.
    public func commit() throws(ExportError) {
        let fd = open(temporaryURL.path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { throw .cannotCreateOutput(path: finalURL.path, reason: Self.errnoText()) }
        var info = stat()
        let regular = fstat(fd, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
        let syncFailure = regular && fsync(fd) != 0 ? Self.errnoText() : nil
        close(fd)
        guard regular else {
            discard()
            throw .cannotCreateOutput(
                path: finalURL.path, reason: "the temp file \(temporaryURL.lastPathComponent) was replaced")
        }
        // The final path may have become something else while the file was written.
        if let kind = FileKind.nonRegular(atPath: finalURL.path, followingLinks: false) {
            discard()
            throw .cannotCreateOutput(
                path: finalURL.path, reason: "refused: it is \(kind); only a regular file can be replaced")
        }
        if let reason = syncFailure {
            discard()
            throw .cannotCreateOutput(path: finalURL.path, reason: "fsync failed: \(reason)")
        }
        guard rename(temporaryURL.path, finalURL.path) == 0 else {
            let reason = Self.errnoText()
            discard()
            throw .cannotCreateOutput(path: finalURL.path, reason: "rename failed: \(reason)")
        }
        finished = true
        let dir = open(finalURL.deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dir >= 0 {
            _ = fsync(dir)
            close(dir)
        }
    }

    /// Removes the temp file if it exists; safe to call more than once.
    public func discard() {
        guard !finished else { return }
        finished = true
        unlink(temporaryURL.path)
    }

    deinit { discard() }

    static func errnoText() -> String { String(cString: strerror(errno)) }

    /// This host's name as temp file names carry it (no '/' or '@', bounded length).
    static let host: String = {
        let name = ProcessInfo.processInfo.hostName.filter { $0 != "/" && $0 != "@" }
        return String((name.isEmpty ? "localhost" : name).prefix(64))
    }()
}
