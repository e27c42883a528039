import Foundation
import KilnModel
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// One complete file at the final path or none: content goes to a hidden temp file in the same
/// directory (same file system, so the rename is atomic), which is fsynced, renamed over the
/// final path, and the directory fsynced. Anything else removes the temp file.
///
/// The directory is resolved once (`OutputLocation`) and opened once (`OutputDirectory`); the
/// temp file is created, checked, renamed and removed relative to that descriptor, so neither a
/// link at the final name nor a folder swapped for a link is ever followed.
public final class AtomicOutputFile: @unchecked Sendable {
    public let finalURL: URL
    public let temporaryURL: URL
    /// Where writers that take a path (FFmpeg) write the temp file: the open file itself
    /// (`/proc/self/fd/N`), not its name.
    public let writablePath: String
    public let directory: OutputDirectory
    private let finalName: String
    private let temporaryName: String
    private var descriptor: Int32
    private var finished = false

    /// Files no output of this process may replace, whatever job asks (the queue database it
    /// serves): checked here, right before the output is opened, as well as when jobs load.
    public static let protectedFiles = Mutex<[ProtectedFile]>([])

    /// Creates the folders `finalURL` is to go into, as `mkdir -p` does; returns the folder it had
    /// to create, or nil when it existed. `kiln render` and the queue's workers both do this, so
    /// a job behaves the same whichever way it is rendered.
    @discardableResult
    public static func createDirectory(for finalURL: URL) throws(ExportError) -> URL? {
        let directory = OutputLocation(finalURL).directoryURL
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
    public init(finalURL written: URL) throws(ExportError) {
        let location = OutputLocation(written)
        finalURL = location.url
        finalName = location.name
        let rules = PathRules(protectedFiles: Self.protectedFiles.withLock { $0 })
        if let problem = rules.outputProblem(finalURL, jobFile: nil, inputs: []) {
            throw .cannotCreateOutput(path: finalURL.path, reason: "refused: \(problem)")
        }
        do {
            directory = try OutputDirectory(location.directory)
        } catch {
            throw .cannotCreateOutput(path: finalURL.path, reason: error.description)
        }
        guard access(location.directory, W_OK) == 0 else {
            throw .cannotCreateOutput(
                path: finalURL.path, reason: "directory \(location.directory) is not writable")
        }
        // Checked again on the descriptor: the name may have become a link since validation.
        if let kind = directory.nonRegularKind(of: finalName) {
            throw .cannotCreateOutput(
                path: finalURL.path, reason: "refused: it is \(kind); only a regular file can be replaced")
        }
        let ext = finalURL.pathExtension.isEmpty ? "" : "." + finalURL.pathExtension
        let token = UInt32.random(in: 0...UInt32.max)
        // The host is in the name because outputs may be on storage shared by many hosts, and
        // only this host can tell whether one of its processes is gone.
        temporaryName = ".\(finalName).kiln-\(getpid())-\(String(token, radix: 16))@\(Self.host)\(ext)"
        temporaryURL = location.directoryURL.appendingPathComponent(temporaryName)
        // Created here, exclusively and without following a link, so that whatever writes the
        // content (this class or FFmpeg's own open) writes into a new regular file of ours and
        // never through a link or into a file someone placed at the name.
        descriptor = directory.createFile(temporaryName)
        guard descriptor >= 0 else {
            throw .cannotCreateOutput(
                path: finalURL.path,
                reason: "cannot create \(temporaryName): \(Self.errnoText())")
        }
        writablePath = OutputDirectory.path(ofOpenFile: descriptor, fallback: temporaryURL.path)
    }

    /// Writes `bytes` to the temp file (for small outputs such as PNG previews).
    public func write(_ bytes: [UInt8]) throws(ExportError) {
        guard descriptor >= 0, ftruncate(descriptor, 0) == 0, lseek(descriptor, 0, SEEK_SET) == 0 else {
            throw .cannotCreateOutput(path: finalURL.path, reason: Self.errnoText())
        }
        if let reason = Self.writeAll(bytes, to: descriptor) {
            discard()
            throw .cannotCreateOutput(path: finalURL.path, reason: reason)
        }
    }

    /// nil, or why `bytes` could not all be written to `fd`.
    static func writeAll(_ bytes: [UInt8], to fd: Int32) -> String? {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                return Self.errnoText()
            }
            offset += n
        }
        return nil
    }

    /// fsync, rename over the final path, fsync the directory.
    public func commit() throws(ExportError) {
        var info = stat()
        let regular = descriptor >= 0 && fstat(descriptor, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
        let named = directory.status(of: temporaryName)
        guard regular, let named, named.st_ino == info.st_ino, named.st_dev == info.st_dev else {
            discard()
            throw .cannotCreateOutput(
                path: finalURL.path, reason: "the temp file \(temporaryName) was replaced")
        }
        let syncFailure = fsync(descriptor) != 0 ? Self.errnoText() : nil
        // The final name may have become something else while the file was written.
        if let kind = directory.nonRegularKind(of: finalName) {
            discard()
            throw .cannotCreateOutput(
                path: finalURL.path, reason: "refused: it is \(kind); only a regular file can be replaced")
        }
        if let reason = syncFailure {
            discard()
            throw .cannotCreateOutput(path: finalURL.path, reason: "fsync failed: \(reason)")
        }
        // renameat replaces whatever is at the name (a link appearing now included) and never
        // follows it.
        guard directory.rename(temporaryName, to: finalName) else {
            let reason = Self.errnoText()
            discard()
            throw .cannotCreateOutput(path: finalURL.path, reason: "rename failed: \(reason)")
        }
        finished = true
        closeDescriptor()
        directory.sync()
    }

    /// Removes the temp file if it exists; safe to call more than once.
    public func discard() {
        closeDescriptor()
        guard !finished else { return }
        finished = true
        directory.remove(temporaryName)
    }

    private func closeDescriptor() {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
    }

    deinit { discard() }

    static func errnoText() -> String { String(cString: strerror(errno)) }

    /// This host's name as temp file names carry it (no '/' or '@', bounded length).
    static let host: String = {
        let name = ProcessInfo.processInfo.hostName.filter { $0 != "/" && $0 != "@" }
        return String((name.isEmpty ? "localhost" : name).prefix(64))
    }()
}
