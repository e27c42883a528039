import Foundation
import KilnExport
import Synchronization

/// Progress, log lines and the commit question, sent to the worker over the report pipe.
final class PipeSupervisor: AttemptSupervisor {
    private let reports: LineWriter
    private let flag: CancellationFlag
    private let answers = Mutex<[Bool]>([])
    private let answered = DispatchSemaphore(value: 0)
    private let lastSent = Mutex(-1.0)

    init(reports: LineWriter, flag: CancellationFlag) {
        self.reports = reports
        self.flag = flag
    }

    func report(progress: Double) {
        // Every frame would be a message; a thousandth of the job is plenty for the queue and
        // still tells the stall watchdog that frames are coming.
        let rounded = (progress * 1000).rounded() / 1000
        let changed = lastSent.withLock { last -> Bool in
            guard last != rounded else { return false }
            last = rounded
            return true
        }
        guard changed else { return }
        reports.send("progress \(rounded)")
    }

    func log(_ message: String) { reports.send("log \(message)") }

    func renewBeforeCommit() -> Bool {
        guard flag.cancelledBySignal == nil else { return false }
        reports.send("commit?")
        answered.wait()
        return answers.withLock { $0.isEmpty ? false : $0.removeFirst() }
    }

    func answer(_ yes: Bool) {
        answers.withLock { $0.append(yes) }
        answered.signal()
    }
}
