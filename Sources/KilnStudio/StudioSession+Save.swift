import Foundation
import KilnExport
import KilnModel

#if canImport(Glibc)
    import Glibc
#endif

/// Save and Undo: the page's tuned values written into the job file. The file is the one the
/// studio was started with (a request names no path), written atomically through
/// `AtomicOutputFile`, and only when it still holds exactly the text the page's values were tuned
/// against, so an edit made in an editor meanwhile is never overwritten.
extension StudioSession {
    public struct SaveRequest: Sendable {
        public var values: TunedValues
        /// The job version the page shows; a save against an older one is refused.
        public var version: Int
        /// False: only say what would change (the page's diff); true: write it.
        public var confirm: Bool

        public init(values: TunedValues, version: Int, confirm: Bool) {
            self.values = values
            self.version = version
            self.confirm = confirm
        }
    }

    public struct SaveAnswer: Sendable {
        public let changes: [TunedValues.Change]
        public let diff: String
        public let saved: Bool
        public let version: Int

        public var json: [String: Any] {
            [
                "changes": changes.map { ["path": $0.path, "old": $0.old, "new": $0.new, "line": $0.line] },
                "diff": diff, "saved": saved, "version": version,
            ]
        }
    }

    /// Saves kept for Undo: enough for a session of tuning, bounded as every input is, in count and
    /// in the bytes of text kept (a large job file saved many times); the newest is always kept.
    static let maximumUndo = 32
    static let maximumUndoBytes = 64 << 20

    public func save(_ request: SaveRequest) throws(Problem) -> SaveAnswer {
        saves.lock()
        defer { saves.unlock() }
        let name = URL(fileURLWithPath: file).lastPathComponent
        let (shownBytes, version) = shown()
        guard version == request.version else {
            throw Problem(
                description: "not saved: \(name) changed since the page showed it; look at the new version, "
                    + "then save again", conflict: true)
        }
        guard let before = shownBytes else {
            throw Problem(
                description: "not saved: \(name) does not load as it is on disk; fix it (or undo) first",
                conflict: true)
        }
        let target = try checkPlace()
        try checkUnchanged(before, name: name)
        let edited: TunedValues.Edited
        do {
            edited = try request.values.edit(before, limits: options.limits)
        } catch {
            throw Problem(description: "not saved: \(error.description)")
        }
        let diff = TunedValues.unifiedDiff(from: before, to: edited.bytes, file: name)
        guard !edited.changes.isEmpty else {
            return SaveAnswer(changes: [], diff: "", saved: false, version: version)
        }
        try checkLoads(edited.bytes, variables: request.values.variables)
        guard request.confirm else {
            return SaveAnswer(changes: edited.changes, diff: diff, saved: false, version: version)
        }
        try checkUnchanged(before, name: name)
        try write(edited.bytes, to: target)
        lockedUndo { list in
            list.append((before, edited.bytes))
            var kept = list.reduce(0) { $0 + $1.before.count + $1.after.count }
            while list.count > 1, list.count > Self.maximumUndo || kept > Self.maximumUndoBytes {
                kept -= list[0].before.count + list[0].after.count
                list.removeFirst()
            }
        }
        let summary = edited.changes.map { "\($0.path) \($0.old) → \($0.new)" }.joined(separator: ", ")
        log("saved \(file): \(summary)")
        _ = reloadIfChanged()
        return SaveAnswer(changes: edited.changes, diff: diff, saved: true, version: shown().version)
    }

    /// Puts back the text the last save replaced, when the file still holds what that save wrote.
    public func undo() throws(Problem) -> SaveAnswer {
        saves.lock()
        defer { saves.unlock() }
        let name = URL(fileURLWithPath: file).lastPathComponent
        guard let last = lockedUndo({ $0.last }) else {
            throw Problem(description: "nothing to undo: no save in this session")
        }
        let target = try checkPlace()
        try checkUnchanged(last.after, name: name, since: "the last save")
        try write(last.before, to: target)
        lockedUndo { _ = $0.popLast() }
        log("undid the last save of \(file)")
        _ = reloadIfChanged()
        return SaveAnswer(
            changes: [], diff: TunedValues.unifiedDiff(from: last.after, to: last.before, file: name),
            saved: true,
            version: shown().version)
    }

    /// Where a save writes: the job file's real path, so a job opened through a symbolic link is
    /// saved into the file it names (as editors do) and the link stays. The studio writes only
    /// where it may read: that real place must be under the asset roots (by default the job's own
    /// folder, so this holds unless --asset-root left the job out or a link leads out of it).
    private func checkPlace() throws(Problem) -> URL {
        let target = URL(fileURLWithPath: file).resolvingSymlinksInPath()
        if let problem = options.pathRules.placeProblem(target) {
            throw Problem(description: "not saved: the studio writes only where it may read: \(problem)")
        }
        return target
    }

    private func checkUnchanged(_ expected: [UInt8], name: String, since: String = "the studio loaded it")
        throws(Problem)
    {
        let onDisk: [UInt8]
        do {
            onDisk = try JobLoader.readBytes(file: file, limits: options.limits)
        } catch {
            throw Problem(description: "not saved: \(error.description)", conflict: true)
        }
        guard onDisk == expected else {
            throw Problem(
                description: "refused: \(name) changed on disk since \(since); nothing was written "
                    + "(the page reloads the file: look, then try again)", conflict: true)
        }
    }

    /// A saved job must load as the studio loads it: confined to the asset roots, its variables
    /// within their declared ranges. Files that are refused and files that are missing read alike.
    private func checkLoads(_ bytes: [UInt8], variables: [String: String]) throws(Problem) {
        let checked = renders.ifRoom { () -> JobLoadError? in
            do throws(JobLoadError) {
                try check(bytes)
                return nil
            } catch {
                return error
            }
        }
        guard let checked else {
            throw Problem(description: "the studio is busy rendering; save again", busy: true)
        }
        if let error = checked {
            throw Problem(
                description: "not saved: the job would not load with these values:\n"
                    + StudioPathProblem.masked(error, variables: variables))
        }
    }

    /// Replaces the file atomically (a temp file in its folder, renamed over it), keeping its mode.
    private func write(_ bytes: [UInt8], to url: URL) throws(Problem) {
        var info = stat()
        let mode = stat(url.path, &info) == 0 ? info.st_mode & 0o777 : 0o644
        do {
            let output = try AtomicOutputFile(finalURL: url)
            try output.write(bytes)
            _ = chmod(output.writablePath, mode)
            try output.commit()
        } catch {
            throw Problem(description: "not saved: \(error.description)")
        }
    }
}
