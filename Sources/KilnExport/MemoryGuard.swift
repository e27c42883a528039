import Foundation
import KilnModel

#if canImport(Glibc)
    import Glibc
#endif

/// The backstop behind the memory estimate (`MemoryBudget`): whatever the estimate misses, a
/// process that loads or renders a job ends as a clean, named error (exit 65, "over its memory
/// budget") instead of an abort or the kernel's out-of-memory killer.
///
/// Two guards, installed once the limits are known:
/// - a watchdog thread reads the resident size every 10 ms and ends the process when it passes
///   the budget, so the peak stays within a few percent of it;
/// - an address-space limit (RLIMIT_AS) above that, for an allocation too quick for the
///   watchdog. Swift aborts when an allocation fails, so SIGABRT is caught and turned into the
///   same error; C libraries report it as ENOMEM, which their callers turn into errors.
///
/// Both end the process with `_exit` after writing messages prepared at installation, since
/// nothing may be allocated by then.
public enum MemoryGuard {
    /// Address space allowed beyond the budget and what was mapped at installation: thread
    /// stacks (8 MiB each), malloc's per-thread arenas (64 MiB reserved each) and codec
    /// libraries' own mappings, which are reserved far more than they are used.
    public static let addressSlackMegabytes = 1536.0

    /// How often the watchdog reads the resident size.
    static let pollInterval: useconds_t = 10_000

    nonisolated(unsafe) private static var stderrMessage: UnsafeMutableBufferPointer<UInt8>?
    nonisolated(unsafe) private static var reportMessage: UnsafeMutableBufferPointer<UInt8>?
    nonisolated(unsafe) private static var reportDescriptor: Int32 = -1
    nonisolated(unsafe) private static var installed = false

    /// The message both guards print.
    public static func message(limits: ResourceLimits) -> String {
        "the job went over its memory budget (limit memory-megabytes = "
            + "\(ResourceLimits.text(limits[.memoryMegabytes])) MB; raise it with --limit memory-megabytes=N)"
    }

    /// Installs both guards for the rest of the process. `report`: a descriptor and the line to
    /// write to it before exiting (a worker's render process reports a permanent failure).
    /// Only the first call installs; a process renders one job's budget.
    public static func install(limits: ResourceLimits, report: (descriptor: Int32, line: String)? = nil) {
        guard !installed else { return }
        installed = true
        stderrMessage = prepared("kiln: error: \(message(limits: limits))\n")
        if let report {
            reportMessage = prepared(report.line + "\n")
            reportDescriptor = report.descriptor
        }
        let budget = limits[.memoryMegabytes] * MemoryBudget.megabyte
        let status = ProcessStatus.read()
        // The whole process within its budget, binary and libraries included (about 50 MB),
        // though never less than a little over what it holds already.
        let residentLimit = max(budget, Double(status.resident) + 64 * MemoryBudget.megabyte)
        let addressLimit = Double(status.virtual) + budget + addressSlackMegabytes * MemoryBudget.megabyte
        if addressLimit < 9e18 {
            var limit = rlimit()
            if getrlimit(RLIMIT_AS_VALUE, &limit) == 0 {
                let wanted = rlim_t(addressLimit)
                if wanted < limit.rlim_max {
                    limit.rlim_cur = wanted
                    _ = setrlimit(RLIMIT_AS_VALUE, &limit)
                }
            }
        }
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in MemoryGuard.fail() }
        sigemptyset(&action.sa_mask)
        sigaction(SIGABRT, &action, nil)
        let watchdog = Thread {
            let pageSize = Double(sysconf(Int32(_SC_PAGESIZE)))
            while true {
                if let pages = ProcessStatus.residentPages(), Double(pages) * pageSize > residentLimit {
                    MemoryGuard.fail()
                }
                usleep(pollInterval)
            }
        }
        watchdog.name = "kiln-memory-guard"
        watchdog.stackSize = 256 * 1024
        watchdog.start()
    }

    /// Ends the process with the prepared messages; allocates nothing.
    static func fail() -> Never {
        if let message = stderrMessage { _ = write(2, message.baseAddress, message.count) }
        if let message = reportMessage, reportDescriptor >= 0 {
            _ = write(reportDescriptor, message.baseAddress, message.count)
        }
        _exit(65)
    }

    private static func prepared(_ text: String) -> UnsafeMutableBufferPointer<UInt8> {
        let bytes = Array(text.utf8)
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
        _ = buffer.initialize(from: bytes)
        return buffer
    }

    #if os(Linux)
        private static let RLIMIT_AS_VALUE = __rlimit_resource_t(RLIMIT_AS.rawValue)
    #endif
}

/// The process's sizes from /proc/self/statm, read into a stack buffer (the watchdog reads it
/// when memory may be short).
enum ProcessStatus {
    static func read() -> (virtual: Int, resident: Int) {
        guard let (total, resident) = statm() else { return (0, 0) }
        let page = sysconf(Int32(_SC_PAGESIZE))
        return (total * page, resident * page)
    }

    static func residentPages() -> Int? { statm()?.resident }

    /// The first two numbers of /proc/self/statm: total and resident pages.
    private static func statm() -> (total: Int, resident: Int)? {
        let fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 128) { buffer -> (Int, Int)? in
            let count = Glibc.read(fd, buffer.baseAddress, 128)
            guard count > 0 else { return nil }
            var numbers = (0, 0), index = 0, current = 0, inNumber = false
            for byte in buffer.prefix(count) {
                if byte >= 48 && byte <= 57 {
                    current = current * 10 + Int(byte - 48)
                    inNumber = true
                } else if inNumber {
                    if index == 0 { numbers.0 = current } else { return (numbers.0, current) }
                    index += 1
                    current = 0
                    inNumber = false
                }
            }
            return nil
        }
    }
}
