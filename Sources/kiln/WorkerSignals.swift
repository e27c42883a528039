import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Signals for a worker: the first SIGINT/SIGTERM stops claiming and hands running jobs back; a
/// second exits at once; and if the jobs have not stopped within the grace period, the process
/// exits anyway (their leases then expire and the jobs are reclaimed).
enum WorkerSignals {
    nonisolated(unsafe) static var graceSeconds: Double = 30

    static func install() {
        installInterruptHandlers()
        let watchdog = Thread {
            while interruption.cancelledBySignal == nil { Thread.sleep(forTimeInterval: 0.1) }
            let signal = interruption.cancelledBySignal ?? SIGTERM
            Thread.sleep(forTimeInterval: graceSeconds)
            Output.stderr("kiln: worker did not stop within \(Int(graceSeconds)) s; exiting")
            _exit(128 + signal)
        }
        watchdog.name = "kiln-grace"
        watchdog.start()
    }
}
