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
