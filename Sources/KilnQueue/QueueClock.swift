import Foundation

/// Time as the queue sees it. Wall time orders jobs and cron; lease staleness is judged on a
/// monotonic clock that also counts suspend (CLOCK_BOOTTIME) and is shared by every process on
/// the host, so a wall-clock jump never kills a live lease. The boot id tells a lease written
/// before a reboot (when the monotonic clock restarted) from a live one.
public protocol QueueClock: Sendable {
    /// Seconds since 1970.
    func wall() -> Double
    /// Seconds since boot, including suspend.
    func monotonic() -> Double
    var bootID: String { get }
}

public struct SystemClock: QueueClock {
    public let bootID: String

    public init() {
        bootID =
            (try? String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? "unknown-boot"
    }

    public func wall() -> Double { Date().timeIntervalSince1970 }

    public func monotonic() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_BOOTTIME, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}

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

/// PostgreSQL's time, for stores on a shared server: read once at connect, then advanced by this
/// host's boot-time clock, so every lease and schedule time is on the server's clock (as all
/// hosts see it) and a jump of this host's wall clock changes nothing.
public final class ServerClock: QueueClock, @unchecked Sendable {
    private let serverAtConnect: Double
    private let localAtConnect: Double
    private let local = SystemClock()

    init(connection: PostgresConnection) throws {
        let rows = try connection.query("SELECT extract(epoch FROM clock_timestamp())", [])
        guard let text = rows.first?.first ?? nil, let seconds = Double(text) else {
            throw PostgresError(
                sqlState: nil, message: "could not read the server's clock", isConnectionFailure: false)
        }
        serverAtConnect = seconds
        localAtConnect = local.monotonic()
    }

    public func wall() -> Double { serverAtConnect + (local.monotonic() - localAtConnect) }
    /// The same timeline: leases are compared on the server's clock by every host.
    public func monotonic() -> Double { wall() }
    /// This host's boot, for telling whether a lease's process on this host is still alive.
    public var bootID: String { local.bootID }
}
