import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Where a job may read and write, and which files its output must never replace. A worker
/// renders jobs written by other people, so it confines them; `kiln render` on a user's own file
/// confines only when given roots. The files to protect (the queue database) apply everywhere.
public struct PathRules: Sendable {
    /// Directories the job's images, video clips, audio and transcripts must lie under, after symlinks are
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
        if let problem = placeProblem(url) { return problem }
        if let kind = FileKind.nonRegular(atPath: url.path, followingLinks: true) {
            return "\(url.path) is \(kind), not a regular file"
        }
        let real = RealPath.resolve(url.path)
        if let system = RealPath.systemTrees.first(where: { RealPath.isInside(real, $0) }) {
            return "\(url.path) is under \(system), which holds no media"
        }
        return nil
    }

    /// Why nothing at `url` may be read, whatever is there: it is outside the asset roots. Checked
    /// before anything about the file itself, so that the answer for a path outside the roots does
    /// not tell whether a file is there or what kind it is.
    public func placeProblem(_ url: URL) -> String? {
        guard let roots = assetRoots else { return nil }
        let real = RealPath.resolve(url.path)
        if roots.contains(where: { RealPath.isInside(real, RealPath.resolve($0)) }) { return nil }
        return
            "\(url.path) (resolved: \(real)) is outside the asset roots (\(roots.joined(separator: ", "))); "
            + "allow a directory with --asset-root DIR or the configuration's assetRoots"
    }

    /// Why writing the output at `url` is refused, or nil: outside the output roots, not a
    /// regular file, or one of the files the job reads or the queue keeps. A `folder` output (a
    /// PNG sequence) may be an existing directory: `AtomicOutputFolder` decides whether it may
    /// replace it.
    public func outputProblem(_ written: URL, jobFile: String?, inputs: [URL], folder: Bool = false)
        -> String?
    {
        // The directory resolved, the final name not: a link there is refused, however reached.
        let location = OutputLocation(written)
        let url = location.url
        if let kind = FileKind.nonRegular(atPath: url.path, followingLinks: false),
            !(folder && FileKind.isDirectory(atPath: url.path))
        {
            return
                "output \(url.path) is \(kind); only a \(folder ? "folder" : "regular file") can be replaced"
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
        let real = location.path
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
