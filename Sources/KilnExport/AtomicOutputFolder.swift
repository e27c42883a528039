import Foundation
import KilnModel

#if canImport(Glibc)
    import Glibc
#endif

/// A PNG sequence's folder, complete or not at all: frames go into a hidden temp folder beside
/// the final one (same file system), which is renamed into place at the end; anything else
/// removes it. An existing folder at the final path is replaced only when it holds nothing but
/// frame files (an earlier sequence), so a render never deletes anything else.
public final class AtomicOutputFolder: @unchecked Sendable {
    public let finalURL: URL
    public let temporaryURL: URL
    /// The output's parent folder and the temp folder, opened without following links; every
    /// frame, rename and removal goes through them.
    public let directory: OutputDirectory
    public let temporaryFolder: OutputDirectory
    private let finalName: String
    private let temporaryName: String
    private var finished = false

    public init(finalURL written: URL) throws(ExportError) {
        let location = OutputLocation(written)
        finalURL = location.url
        finalName = location.name
        let rules = PathRules(protectedFiles: AtomicOutputFile.protectedFiles.withLock { $0 })
        if let problem = rules.outputProblem(finalURL, jobFile: nil, inputs: [], folder: true) {
            throw .cannotCreateOutput(path: finalURL.path, reason: "refused: \(problem)")
        }
        do {
            directory = try OutputDirectory(location.directory)
        } catch {
            throw .cannotCreateOutput(path: finalURL.path, reason: error.description)
        }
        if let problem = Self.replacementProblem(finalName, in: directory) {
            throw .cannotCreateOutput(path: finalURL.path, reason: problem)
        }
        let token = UInt32.random(in: 0...UInt32.max)
        temporaryName = ".\(finalName).kiln-\(getpid())-\(String(token, radix: 16))@\(AtomicOutputFile.host)"
        temporaryURL = location.directoryURL.appendingPathComponent(temporaryName)
        guard directory.makeDirectory(temporaryName) else {
            throw .cannotCreateOutput(
                path: finalURL.path,
                reason: "cannot create \(temporaryName): \(AtomicOutputFile.errnoText())")
        }
        do {
            temporaryFolder = try OutputDirectory(in: directory, name: temporaryName)
        } catch {
            directory.removeDirectory(temporaryName)
            throw .cannotCreateOutput(path: finalURL.path, reason: error.description)
        }
    }

    /// Why the entry `name` of `directory` may not be replaced, or nil (nothing there, or a real
    /// folder of frame files only). A link is never replaced, whatever it points to.
    static func replacementProblem(_ name: String, in directory: OutputDirectory) -> String? {
        guard let info = directory.status(of: name) else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFDIR:
            guard let folder = try? OutputDirectory(in: directory, name: name) else {
                return "refused: the folder cannot be opened"
            }
            if let other = folder.names().first(where: { !PNGSequenceWriter.isFrameFileName($0) }) {
                return
                    "refused: the folder exists and holds \(other), which is not a frame of a PNG sequence; "
                    + "only a folder of frame_NNNNN.png files is replaced"
            }
            return nil
        case S_IFREG: return "refused: a file is in the way of the folder"
        default:
            return
                "refused: it is \(FileKind.nonRegular(mode: info.st_mode) ?? "not a folder"); only a folder can be replaced"
        }
    }

    /// fsyncs the frames and the folder, moves any earlier sequence aside, renames the new one
    /// into place, then deletes the earlier one.
    public func commit() throws(ExportError) {
        for name in temporaryFolder.names() {
            if let fd = temporaryFolder.openRegularFile(name) {
                _ = fsync(fd)
                close(fd)
            }
        }
        temporaryFolder.sync()
        if let problem = Self.replacementProblem(finalName, in: directory) {
            discard()
            throw .cannotCreateOutput(path: finalURL.path, reason: problem)
        }
        var previous: String?
        if directory.status(of: finalName) != nil {
            let aside = temporaryName + ".old"
            guard directory.rename(finalName, to: aside) else {
                let reason = AtomicOutputFile.errnoText()
                discard()
                throw .cannotCreateOutput(
                    path: finalURL.path, reason: "cannot move the old frames aside: \(reason)")
            }
            previous = aside
        }
        guard directory.rename(temporaryName, to: finalName) else {
            let reason = AtomicOutputFile.errnoText()
            if let previous { _ = directory.rename(previous, to: finalName) }
            discard()
            throw .cannotCreateOutput(path: finalURL.path, reason: "rename failed: \(reason)")
        }
        finished = true
        if let previous { Self.removeFrames(previous, in: directory) }
        directory.sync()
    }

    /// Removes the temp folder and its frames; safe to call more than once.
    public func discard() {
        guard !finished else { return }
        finished = true
        Self.removeFrames(temporaryName, in: directory)
    }

    /// Removes the folder `name` of `directory` if it holds only frames (it never holds links we
    /// follow: entries are removed by name, relative to the folder's own descriptor).
    static func removeFrames(_ name: String, in directory: OutputDirectory) {
        guard let folder = try? OutputDirectory(in: directory, name: name) else { return }
        for frame in folder.names() where PNGSequenceWriter.isFrameFileName(frame) { folder.remove(frame) }
        directory.removeDirectory(name)
    }

    deinit { discard() }
}
