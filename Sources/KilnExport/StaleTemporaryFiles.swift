import Foundation
import KilnModel

/// Temp files an earlier attempt left beside an output when its process was killed (named
/// `.NAME.kiln-PID-TOKEN@HOST.EXT` by `AtomicOutputFile`, or a PNG sequence's temp folder by
/// `AtomicOutputFolder`): removed once that process is gone.
/// Files of other hosts are left alone, since their processes cannot be seen from here.
public enum StaleTemporaryFiles {
    public static func remove(besides output: URL, log: (String) -> Void) {
        remove(besides: [output], log: log)
    }

    /// Whether `pid` is a live process; a zombie (dead, not yet reaped by a parent that may
    /// never do so) writes nothing more and counts as gone.
    static func isRunning(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else {
            return false
        }
        guard let close = stat.lastIndex(of: ")") else { return true }
        let state = stat[stat.index(after: close)...].drop(while: { $0 == " " }).first
        return state != "Z" && state != "X"
    }

    /// The temp files a process of this host that has just ended (a worker's render process that
    /// crashed or was killed) left in `directory`, whatever output they were for.
    public static func remove(in directory: URL, leftBy pid: Int32, log: (String) -> Void) {
        guard let folder = try? OutputDirectory(OutputLocation(directory.path).path) else { return }
        let marker = ".kiln-\(pid)-"
        for name in folder.names() where name.hasPrefix(".") && name.contains(marker) {
            guard let at = name.lastIndex(of: "@"),
                name[name.index(after: at)...].hasPrefix(AtomicOutputFile.host)
            else { continue }
            if removeTemporary(name, in: folder) {
                log("removed \(name), left by the render process (pid \(pid)) that ended")
            }
        }
    }

    /// The same for several files of one directory (a segmented export's output and pieces),
    /// reading the directory once.
    public static func remove(besides outputs: [URL], log: (String) -> Void) {
        guard let first = outputs.first,
            let folder = try? OutputDirectory(OutputLocation(first).directory)
        else { return }
        let prefixes = outputs.map { ".\($0.lastPathComponent).kiln-" }
        for name in folder.names() {
            guard let prefix = prefixes.first(where: { name.hasPrefix($0) }) else { continue }
            let rest = name.dropFirst(prefix.count)
            guard let dash = rest.firstIndex(of: "-"), let pid = Int32(rest[..<dash]),
                let at = rest.firstIndex(of: "@"),
                rest[rest.index(after: at)...].hasPrefix(AtomicOutputFile.host + ".")
                    || rest[rest.index(after: at)...] == AtomicOutputFile.host
            else { continue }
            guard !isRunning(pid) else { continue }
            if removeTemporary(name, in: folder) {
                log("removed \(name), left by a process (pid \(pid)) that is gone")
            }
        }
    }

    /// Removes a temp file, or a temp folder of a PNG sequence with the frames in it (and
    /// nothing else: a folder holding anything but frames is kept), by name in `folder`, so
    /// nothing is followed through a link.
    static func removeTemporary(_ name: String, in folder: OutputDirectory) -> Bool {
        if folder.remove(name) { return true }
        guard let info = folder.status(of: name), info.st_mode & S_IFMT == S_IFDIR else { return false }
        AtomicOutputFolder.removeFrames(name, in: folder)
        return folder.status(of: name) == nil
    }
}
