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
    private var finished = false

    public init(finalURL: URL) throws(ExportError) {
        self.finalURL = finalURL
        let rules = PathRules(protectedFiles: AtomicOutputFile.protectedFiles.withLock { $0 })
        if let problem = rules.outputProblem(finalURL, jobFile: nil, inputs: [], folder: true) {
            throw .cannotCreateOutput(path: finalURL.path, reason: "refused: \(problem)")
        }
        if let problem = Self.replacementProblem(finalURL) {
            throw .cannotCreateOutput(path: finalURL.path, reason: problem)
        }
        let parent = finalURL.deletingLastPathComponent()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: parent.path, isDirectory: &isDirectory),
            isDirectory.boolValue
        else {
            throw .cannotCreateOutput(path: finalURL.path, reason: "directory \(parent.path) does not exist")
        }
        let token = UInt32.random(in: 0...UInt32.max)
        temporaryURL = parent.appendingPathComponent(
            ".\(finalURL.lastPathComponent).kiln-\(getpid())-\(String(token, radix: 16))@\(AtomicOutputFile.host)"
        )
        guard mkdir(temporaryURL.path, 0o755) == 0 else {
            throw .cannotCreateOutput(
                path: finalURL.path,
                reason: "cannot create \(temporaryURL.lastPathComponent): \(AtomicOutputFile.errnoText())")
        }
    }

    /// Why the folder at `url` may not be replaced, or nil (nothing there, or only frame files).
    static func replacementProblem(_ url: URL) -> String? {
        guard FileKind.isDirectory(atPath: url.path) else { return nil }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        if let other = names.first(where: { !PNGSequenceWriter.isFrameFileName($0) }) {
            return "refused: the folder exists and holds \(other), which is not a frame of a PNG sequence; "
                + "only a folder of frame_NNNNN.png files is replaced"
        }
        return nil
    }

    /// fsyncs the frames and the folder, moves any earlier sequence aside, renames the new one
    /// into place, then deletes the earlier one.
    public func commit() throws(ExportError) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: temporaryURL.path)) ?? []
        for name in names { Self.sync(temporaryURL.appendingPathComponent(name).path, directory: false) }
        Self.sync(temporaryURL.path, directory: true)
        if let problem = Self.replacementProblem(finalURL) {
            discard()
            throw .cannotCreateOutput(path: finalURL.path, reason: problem)
        }
        var previous: URL?
        if FileKind.isDirectory(atPath: finalURL.path) {
            let aside = URL(fileURLWithPath: temporaryURL.path + ".old")
            guard rename(finalURL.path, aside.path) == 0 else {
                let reason = AtomicOutputFile.errnoText()
                discard()
                throw .cannotCreateOutput(
                    path: finalURL.path, reason: "cannot move the old frames aside: \(reason)")
            }
            previous = aside
        } else if FileKind.nonRegular(atPath: finalURL.path, followingLinks: false) == nil,
            FileManager.default.fileExists(atPath: finalURL.path)
        {
            discard()
            throw .cannotCreateOutput(
                path: finalURL.path, reason: "refused: a file is in the way of the folder")
        }
        guard rename(temporaryURL.path, finalURL.path) == 0 else {
            let reason = AtomicOutputFile.errnoText()
            if let previous { _ = rename(previous.path, finalURL.path) }
            discard()
            throw .cannotCreateOutput(path: finalURL.path, reason: "rename failed: \(reason)")
        }
        finished = true
        if let previous { try? FileManager.default.removeItem(at: previous) }
        Self.sync(finalURL.deletingLastPathComponent().path, directory: true)
    }

    /// Removes the temp folder and its frames; safe to call more than once.
    public func discard() {
        guard !finished else { return }
        finished = true
        try? FileManager.default.removeItem(at: temporaryURL)
    }

    deinit { discard() }

    private static func sync(_ path: String, directory: Bool) {
        let fd = open(path, O_RDONLY | O_CLOEXEC | (directory ? O_DIRECTORY : O_NOFOLLOW))
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }
}
