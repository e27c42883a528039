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
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        let marker = ".kiln-\(pid)-"
        for name in names where name.hasPrefix(".") && name.contains(marker) {
            guard let at = name.lastIndex(of: "@"),
                name[name.index(after: at)...].hasPrefix(AtomicOutputFile.host)
            else { continue }
            if removeTemporary(directory.appendingPathComponent(name).path) {
                log("removed \(name), left by the render process (pid \(pid)) that ended")
            }
        }
    }

    /// The same for several files of one directory (a segmented export's output and pieces),
    /// reading the directory once.
    public static func remove(besides outputs: [URL], log: (String) -> Void) {
        guard let directory = outputs.first?.deletingLastPathComponent(),
            let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path)
        else { return }
        let prefixes = outputs.map { ".\($0.lastPathComponent).kiln-" }
        for name in names {
            guard let prefix = prefixes.first(where: { name.hasPrefix($0) }) else { continue }
            let rest = name.dropFirst(prefix.count)
            guard let dash = rest.firstIndex(of: "-"), let pid = Int32(rest[..<dash]),
                let at = rest.firstIndex(of: "@"),
                rest[rest.index(after: at)...].hasPrefix(AtomicOutputFile.host + ".")
                    || rest[rest.index(after: at)...] == AtomicOutputFile.host
            else { continue }
            guard !isRunning(pid) else { continue }
            if removeTemporary(directory.appendingPathComponent(name).path) {
                log("removed \(name), left by a process (pid \(pid)) that is gone")
            }
        }
    }

    /// Removes a temp file, or a temp folder of a PNG sequence with the frames in it (and
    /// nothing else: a folder holding anything but frames is kept).
    static func removeTemporary(_ path: String) -> Bool {
        if unlink(path) == 0 { return true }
        guard FileKind.isDirectory(atPath: path) else { return false }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        for name in names where PNGSequenceWriter.isFrameFileName(name) { unlink(path + "/" + name) }
        return rmdir(path) == 0
    }
}
