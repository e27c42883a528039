import Foundation

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
