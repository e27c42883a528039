import Foundation
import KilnExport
import KilnModel
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The render process's side of `AttemptProcess`'s pipe protocol: `kiln __render-attempt` reads
/// its request from stdin, renders it, and reports on fd 3. When the worker is gone (its end of
/// stdin closes: killed with -9, say) the render stops as if its lease was lost, and the process
/// exits within `orphanGraceSeconds` even if the render does not stop.
public enum RenderAttemptProcess {
    static let reportDescriptor: Int32 = 3
    static let orphanGraceSeconds = 10.0

    /// Serves one attempt; returns the process's exit status (0 once a result was reported).
    public static func serve(flag: CancellationFlag) -> Int32 {
        closeInheritedDescriptors()
        // A worker killed with -9 closes the report pipe: a write then fails (and the listener
        // stops the render, removing its temp file) instead of killing this process mid-frame.
        signal(SIGPIPE, SIG_IGN)
        let input = LineReader(fd: 0)
        guard let line = input.next(),
            let request = try? JSONDecoder().decode(AttemptRequest.self, from: Data(line.utf8))
        else {
            FileHandle.standardError.write(Data("kiln: __render-attempt is run by `kiln worker` only\n".utf8))
            return 64
        }
        let limits = (try? ResourceLimits(overrides: request.limitOverrides)) ?? ResourceLimits()
        // Over the budget, the worker is told it is permanent: the same job would only go over
        // it again.
        if let encoded = try? JSONEncoder().encode(
            AttemptOutcome.permanent(MemoryGuard.message(limits: limits)))
        {
            MemoryGuard.install(
                limits: limits,
                report: (reportDescriptor, "result " + String(decoding: encoded, as: UTF8.self)))
        }
        let reports = LineWriter(fd: reportDescriptor)
        let supervisor = PipeSupervisor(reports: reports, flag: flag)
        let listener = Thread {
            while let message = input.next() {
                let (verb, rest) = AttemptProcess.split(message)
                if verb == "cancel", let code = Int32(rest) {
                    flag.cancel(signal: code)
                } else if verb == "commit" {
                    supervisor.answer(rest == "yes")
                }
            }
            flag.cancel(signal: CancellationFlag.leaseLost)
            supervisor.answer(false)
            Thread.sleep(forTimeInterval: orphanGraceSeconds)
            _exit(70)
        }
        listener.name = "kiln-attempt-listener"
        listener.start()
        let outcome = RenderAttempt(request: request, flag: flag, supervisor: supervisor).run()
        if let encoded = try? JSONEncoder().encode(outcome) {
            reports.send("result " + String(decoding: encoded, as: UTF8.self))
        }
        return 0
    }
}

extension RenderAttemptProcess {
    /// Whatever the worker had open without close-on-exec (beyond stdio and the report pipe) is
    /// not this process's to hold: a database file or socket kept open here would outlive the
    /// worker's own handle. Only those are closed: a descriptor that survived exec has no
    /// close-on-exec flag, while the ones the runtime opened since (Dispatch's) all have it.
    static func closeInheritedDescriptors() {
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for fd in open.compactMap(Int32.init) where fd > reportDescriptor {
            let flags = fcntl(fd, F_GETFD)
            if flags >= 0 && flags & FD_CLOEXEC == 0 { close(fd) }
        }
    }
}
