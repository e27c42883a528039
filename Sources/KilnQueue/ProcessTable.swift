import Foundation

/// Facts about processes on this host, read from /proc.
public enum ProcessTable {
    /// The process's start time in clock ticks since boot (field 22 of /proc/PID/stat), or nil
    /// when there is no such process, or only its zombie (dead, waiting for a parent that may
    /// never reap it: an orphan's new parent is not always a reaping init).
    public static func startTime(of pid: Int32) -> UInt64? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        // Fields after the command name (which may hold spaces) start at field 3.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 19, fields[0] != "Z", fields[0] != "X" else { return nil }
        return UInt64(fields[19])
    }

    /// True when `pid` is running and started at `start` (not a recycled pid).
    public static func isAlive(pid: Int32, start: UInt64) -> Bool {
        guard pid > 0, let actual = startTime(of: pid) else { return false }
        return start == 0 || actual == start
    }
}
