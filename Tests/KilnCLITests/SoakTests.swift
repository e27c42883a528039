import Foundation
import KilnMedia
import KilnQueue
import KilnTestSupport
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 20's soak, opt-in (`KILN_SOAK=1`, see scripts/soak.sh): two workers over a stream of good
/// and hostile jobs for a while, with kill -9, SIGTERM and a full output disk at random, then the
/// promises of queue.md checked one by one. Violations are collected and reported per invariant
/// (with job ids and reasons) rather than stopping at the first, so one run shows everything.
final class SoakTests: QueueTestCase {
    private var settings: SoakSettings!
    private var random = SplitMix(state: 1)
    private var findings = SoakFindings()
    private var jobs: [SoakJob] = []
    private var pendingEnqueues: [(job: SoakJob, run: BoundedRun, after: () -> Void)] = []
    private var workers: [SoakWorker] = []
    private var mounted = false
    private var fillerPath: String { outputs.appendingPathComponent("disk-full-filler.bin").path }
    private var counts = (kills: 0, terms: 0, restarts: 0, diskFullSeconds: 0.0)
    /// What an accepted job absent from `kiln status` means in the report.
    private var missing = "not in the queue"

    /// Leases long enough that two busy cores do not expire live ones; a killed worker's jobs are
    /// reclaimed at once anyway (its pid is gone).
    override var environment: [String: String] {
        ["KILN_QUEUE": "sqlite:\(database)", "KILN_QUEUE_LEASE_SECONDS": "10"]
    }

    override func tearDownWithError() throws {
        for worker in workers { worker.killNow() }
        if mounted { _ = try? KilnProcess.tool("/bin/umount", ["-l", outputs.path]) }
        if settings?.keepDirectory == true {
            print("soak: kept \(directory.path)")
            return
        }
        try super.tearDownWithError()
    }

    func testSoak() throws {
        settings = try SoakSettings.fromEnvironment()
        random = SplitMix(state: settings.seed)
        try prepareDirectory()
        let started = Date()
        workers = try ["soak-a", "soak-b"].map { try SoakWorker(name: $0, test: self) }
        try feedAndFault(started: started)
        let drained = try drain()
        stopWorkers()
        try check(drained: drained)
        let header = [
            "Kiln soak: seed \(settings.seed), \(Int(Date().timeIntervalSince(started))) s, "
                + "\(jobs.count) jobs (\(jobs.filter(\.isGood).count) good, \(jobs.filter { !$0.isGood }.count) "
                + "hostile), 2 workers × concurrency 2",
            "faults: \(counts.kills) kill -9, \(counts.terms) SIGTERM, \(counts.restarts) restarts, disk full "
                + (mounted ? "\(Int(counts.diskFullSeconds)) s on a 64 MiB tmpfs" : "skipped (not root)"),
        ]
        let report = findings.report(header: header)
        print(report)
        try? FileManager.default.createDirectory(
            at: URL(fileURLWithPath: settings.reportPath).deletingLastPathComponent(),
            withIntermediateDirectories: true)
        try? Data((report + "\n").utf8).write(to: URL(fileURLWithPath: settings.reportPath))
        for (invariant, details) in findings.violations.sorted(by: { $0.key < $1.key }) {
            XCTFail(
                "\(invariant): \(details.count) violations, e.g. \(details.prefix(3).joined(separator: "; "))"
            )
        }
    }

    // MARK: - Setup

    private func prepareDirectory() throws {
        try FileManager.default.createDirectory(at: outputs, withIntermediateDirectories: true)
        if getuid() == 0 {
            mounted =
                (try? KilnProcess.tool(
                    "/bin/mount", ["-t", "tmpfs", "-o", "size=64m", "tmpfs", outputs.path]))?.status == 0
        }
        if !mounted { findings.notes.append("not root or no tmpfs: the disk-full window is skipped") }
        _ = try tone(seconds: 2)
        try FileManager.default.copyItem(
            at: KilnProcess.repositoryRoot.appendingPathComponent("jobs/photos/forest.png"),
            to: directory.appendingPathComponent("photo.png"))
    }

    // MARK: - The run

    /// Enqueues at an even pace until both the job count and the duration are reached, while
    /// killing, stopping and restarting workers and filling the output disk once.
    private func feedAndFault(started: Date) throws {
        let interval = settings.seconds / Double(max(1, settings.jobs))
        let diskFull = (
            start: settings.seconds * 0.4, length: min(30, settings.seconds / 4)
        )
        var nextEnqueue = 0.0
        var nextFault = Double.random(in: 3...8, using: &random)
        var diskFullStarted: Double?
        var index = 0
        while true {
            let elapsed = Date().timeIntervalSince(started)
            if elapsed >= settings.seconds && jobs.count >= settings.jobs { break }
            if elapsed >= nextEnqueue {
                try enqueueNext(index)
                index += 1
                nextEnqueue += interval
            }
            if elapsed >= nextFault {
                injectFault()
                nextFault = elapsed + Double.random(in: 4...15, using: &random)
            }
            if mounted, diskFullStarted == nil, elapsed >= diskFull.start {
                diskFullStarted = elapsed
                fillDisk()
            }
            if let began = diskFullStarted, began >= 0, elapsed >= began + diskFull.length {
                freeDisk()
                counts.diskFullSeconds = elapsed - began
                diskFullStarted = -1
            }
            superviseWorkers()
            collectEnqueues()
            Thread.sleep(forTimeInterval: 0.05)
        }
        if let began = diskFullStarted, began >= 0 {
            freeDisk()
            counts.diskFullSeconds = Date().timeIntervalSince(started) - began
        }
    }

    private func enqueueNext(_ index: Int) throws {
        let hostileCases = HostileCase.all.filter { !settings.excluded.contains($0.name) }
        let label: String
        let role: SoakJob.Role
        let text: String
        var options: [String] = []
        if index % settings.hostileEvery == settings.hostileEvery - 1, !hostileCases.isEmpty {
            let hostile = hostileCases[(index / settings.hostileEvery) % hostileCases.count]
            label = "h\(index)-\(hostile.name)"
            role = .hostile(hostile)
            text = try hostile.text(id: label)
            options = ["--max-attempts", "2"]
        } else {
            let good = GoodJob(index: index, random: &random)
            label = "g\(index)-\(good.kind.rawValue)"
            role = .good(good)
            text = good.text(output: "out/\(label).mp4")
            options = good.enqueueOptions
        }
        let file = try write("\(label).json", text)
        let job = SoakJob(label: label, role: role, file: file)
        jobs.append(job)
        let after = try prepare(job)
        let run = try BoundedRun(
            boundedCommand(["enqueue"] + options + [file]), name: "enqueue-\(label)", in: directory,
            timeout: 30)
        pendingEnqueues.append((job, run, after))
    }

    /// Sets up what a hostile job needs before its enqueue, and returns what to do after it.
    private func prepare(_ job: SoakJob) throws -> () -> Void {
        guard case .hostile(let hostile) = job.role else { return {} }
        let photo = directory.appendingPathComponent("photo.png")
        switch hostile.preparation {
        case .none:
            return {}
        case .imageVanishesAfterEnqueue:
            let image = directory.appendingPathComponent("vanish-\(job.label).png")
            try FileManager.default.copyItem(at: photo, to: image)
            return { try? FileManager.default.removeItem(at: image) }
        case .imageCorruptedAfterEnqueue:
            let image = directory.appendingPathComponent("corrupt-\(job.label).png")
            try FileManager.default.copyItem(at: photo, to: image)
            return { try? Data(repeating: 0x5a, count: 4096).write(to: image) }
        case .fifoAudio:
            let fifo = directory.appendingPathComponent("fifo-\(job.label).wav").path
            XCTAssertEqual(mkfifo(fifo, 0o644), 0, "mkfifo \(fifo)")
            return {}
        }
    }

    private func collectEnqueues() {
        var finished: [(job: SoakJob, outcome: BoundedRun.Outcome, after: () -> Void)] = []
        pendingEnqueues.removeAll { pending in
            guard let outcome = pending.run.poll() else { return false }
            finished.append((pending.job, outcome, pending.after))
            return true
        }
        for (job, outcome, after) in finished {
            switch outcome {
            case .timedOut:
                job.enqueued = .hung
                findings.violate(
                    "enqueue never hangs", "\(job.label): enqueue still running after 30 s, killed")
            case .exited(let status, let stdout, let stderr):
                if status == 0, let id = Int(stdout.split(separator: "\n").first ?? "") {
                    job.enqueued = .accepted(id: id)
                } else {
                    job.enqueued = .refused(status: status, message: stderr)
                }
            }
            after()
        }
    }

    private func injectFault() {
        let victim = workers[Int.random(in: 0..<workers.count, using: &random)]
        guard victim.isRunning, !victim.isStopping else { return }
        if Bool.random(using: &random) {
            counts.kills += 1
            victim.killNow()
        } else {
            counts.terms += 1
            victim.terminate()
        }
    }

    /// Restarts workers the harness stopped, and records (then restarts) ones that died on their own.
    private func superviseWorkers() {
        for worker in workers where !worker.isRunning {
            if let death = worker.unexpectedDeath() {
                findings.violate("workers never died unless the harness killed them", death)
            }
            if let status = worker.terminatedWithout143() {
                findings.violate("signals honoured (SIGTERM exits within 30 s)", status)
            }
            counts.restarts += 1
            do { try worker.start() } catch {
                findings.violate(
                    "workers never died unless the harness killed them", "restart failed: \(error)")
            }
        }
        for worker in workers where worker.isStopping && worker.stoppingFor > 30 {
            findings.violate(
                "signals honoured (SIGTERM exits within 30 s)", "\(worker.currentName) still running; killed")
            worker.killNow()
        }
    }

    private func fillDisk() {
        _ = FileManager.default.createFile(atPath: fillerPath, contents: nil)
        guard let handle = FileHandle(forWritingAtPath: fillerPath) else { return }
        defer { try? handle.close() }
        let chunk = Data(repeating: 0, count: 1 << 20)
        while (try? handle.write(contentsOf: chunk)) != nil {}
    }

    private func freeDisk() {
        try? FileManager.default.removeItem(atPath: fillerPath)
    }

    // MARK: - Drain and checks

    /// Keeps the workers running until every accepted job has ended, or the drain time is up.
    private func drain() throws -> Bool {
        let deadline = Date().addingTimeInterval(settings.drainSeconds)
        var lastPoll = Date.distantPast
        while Date() < deadline {
            superviseWorkers()
            collectEnqueues()
            if pendingEnqueues.isEmpty, Date().timeIntervalSince(lastPoll) > 2 {
                lastPoll = Date()
                guard let jobs = try? queueJobs() else { return false }
                let ids = Set(self.jobs.compactMap(\.id))
                if jobs.filter({ ids.contains($0.key) }).allSatisfy({ Self.ended($0.value) }) { return true }
            }
            Thread.sleep(forTimeInterval: 0.2)
        }
        return false
    }

    static func ended(_ job: [String: Any]) -> Bool {
        ["completed", "discarded", "cancelled"].contains(job["state"] as? String ?? "")
    }

    private func stopWorkers() {
        for worker in workers where worker.isRunning { worker.terminate() }
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, workers.contains(where: \.isRunning) { Thread.sleep(forTimeInterval: 0.1) }
        for worker in workers where worker.isRunning {
            findings.violate(
                "signals honoured (SIGTERM exits within 30 s)", "\(worker.currentName) at the end; killed")
            worker.killNow()
        }
        for worker in workers {
            if let status = worker.terminatedWithout143() {
                findings.violate("signals honoured (SIGTERM exits within 30 s)", status)
            }
        }
    }

    /// `kiln status --json` by id, bounded in time (a wrecked queue must not hang the report).
    private func queueJobs() throws -> [Int: [String: Any]] {
        let run = try BoundedRun(
            boundedCommand(["status", "--json"]), name: "status", in: directory, timeout: 60)
        guard case .exited(0, let stdout, _) = run.wait(),
            let list = try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [[String: Any]]
        else {
            throw SoakFailure(message: "kiln status --json failed: \(oneLine(run.stderrText))")
        }
        return Dictionary(
            list.compactMap { job in (job["id"] as? Int).map { ($0, job) } },
            uniquingKeysWith: { first, _ in first })
    }

    private func check(drained: Bool) throws {
        if !drained {
            findings.notes.append("the queue did not drain within \(Int(settings.drainSeconds)) s")
        }
        var queue: [Int: [String: Any]] = [:]
        do { queue = try queueJobs() } catch {
            findings.violate("database integrity_check ok", "\(error)")
            missing = "unverifiable, the queue is unreadable"
        }
        for job in jobs {
            switch job.role {
            case .good(let good): checkGood(job, good, queue)
            case .hostile(let hostile): checkHostile(job, hostile, queue)
            }
        }
        for job in jobs where !job.isGood {
            findings.notes.append("\(job.label): \(outcome(of: job, queue))")
        }
        let good = jobs.filter(\.isGood)
        let goodFailures = Set(
            (findings.violations["good jobs completed exactly once with a valid MP4"] ?? []).map {
                $0.split(separator: ":").first.map(String.init) ?? ""
            })
        findings.notes.append("good jobs: \(good.count), with a violation: \(goodFailures.count)")
        checkTempFiles()
        do {
            let integrity = try QueueStore(path: database).integrityCheck()
            if integrity != "ok" { findings.violate("database integrity_check ok", oneLine(integrity)) }
        } catch {
            findings.violate("database integrity_check ok", "cannot open \(database): \(error)")
        }
        checkOrphans()
    }

    private func outcome(of job: SoakJob, _ queue: [Int: [String: Any]]) -> String {
        switch job.enqueued {
        case .pending: return "never enqueued"
        case .hung: return "enqueue hung"
        case .refused(let status, let message):
            return "refused at enqueue (exit \(status)): \(oneLine(message, limit: 160))"
        case .accepted(let id): return "job \(id), " + (queue[id].map(describe) ?? missing)
        }
    }

    private func describe(_ record: [String: Any]) -> String {
        let attempts = (record["attempts"] as? [[String: Any]] ?? []).map {
            "\($0["outcome"] as? String ?? "running")"
                + (($0["error"] as? String).map { " (\(oneLine($0, limit: 80)))" } ?? "")
        }
        return "state \(record["state"] as? String ?? "?"), attempts [\(attempts.joined(separator: ", "))]"
            + ((record["error"] as? String).map { ", error: \(oneLine($0))" } ?? "")
    }

    private func checkGood(_ job: SoakJob, _ good: GoodJob, _ queue: [Int: [String: Any]]) {
        let invariant = "good jobs completed exactly once with a valid MP4"
        guard let id = job.id else {
            if case .refused(let status, let message) = job.enqueued {
                findings.violate(
                    invariant, "\(job.label): refused at enqueue (exit \(status)): \(oneLine(message))")
            }
            return
        }
        guard let record = queue[id] else {
            findings.violate(invariant, "job \(id) \(job.label): \(missing)")
            return
        }
        guard Self.ended(record) else {
            findings.violate("every accepted job ended", "job \(id) \(job.label): \(describe(record))")
            return
        }
        let completions = (record["attempts"] as? [[String: Any]] ?? []).filter {
            $0["outcome"] as? String == "completed"
        }
        guard record["state"] as? String == "completed", completions.count == 1 else {
            findings.violate(invariant, "job \(id) \(job.label): \(describe(record))")
            return
        }
        let output = record["output"] as? String ?? ""
        do {
            let info = try VideoDecodeBack.decode(path: output)
            let expected = [good.width, good.height, good.frames, 0, good.kind == .audio ? 1 : 0]
            let got = [
                info.width, info.height, info.decodedFrameCount, info.decodeErrors, info.hasAudio ? 1 : 0,
            ]
            if got != expected {
                findings.violate(
                    invariant,
                    "job \(id) \(job.label): [w, h, frames, decode errors, audio] \(got), expected \(expected)"
                )
            }
        } catch {
            findings.violate(invariant, "job \(id) \(job.label): \(output) does not decode: \(error)")
        }
    }

    private func checkHostile(_ job: SoakJob, _ hostile: HostileCase, _ queue: [Int: [String: Any]]) {
        let invariant = "hostile jobs refused or failed with their reason"
        switch job.enqueued {
        case .pending, .hung:
            return
        case .refused(let status, let message):
            if ![65, 66, 73].contains(status) {
                findings.violate(invariant, "\(job.label): enqueue exited \(status): \(oneLine(message))")
            } else if !hostile.namesTheProblem(message) {
                findings.violate(
                    invariant,
                    "\(job.label): refused (exit \(status)) without naming \(hostile.reasons): \(oneLine(message))"
                )
            }
        case .accepted(let id):
            guard let record = queue[id] else {
                findings.violate(invariant, "job \(id) \(job.label): accepted, \(missing)")
                return
            }
            let state = record["state"] as? String ?? "?"
            let error = record["error"] as? String ?? ""
            if !Self.ended(record) {
                findings.violate("every accepted job ended", "job \(id) \(job.label): \(describe(record))")
            } else if state != "discarded" || !hostile.namesTheProblem(error) {
                findings.violate(invariant, "job \(id) \(job.label): accepted, then \(describe(record))")
            }
        }
    }

    /// Hidden files are Kiln's temp files and segment pieces; none may outlive the run.
    private func checkTempFiles() {
        for root in [directory!, outputs] {
            guard let walker = FileManager.default.enumerator(atPath: root.path) else { continue }
            for case let path as String in walker
            where URL(fileURLWithPath: path).lastPathComponent.hasPrefix(".") && !path.hasPrefix("out/") {
                findings.violate("no temp files left", root.appendingPathComponent(path).path)
            }
        }
    }

    /// Any process still running in the soak's directory (workers, encoders, backtracers) is an orphan.
    private func checkOrphans() {
        let ours = directory.resolvingSymlinksInPath().path
        let pids =
            (try? FileManager.default.contentsOfDirectory(atPath: "/proc"))?.compactMap(Int32.init) ?? []
        for pid in pids where pid != getpid() {
            guard let cwd = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/cwd"),
                cwd == ours || cwd.hasPrefix(ours + "/")
            else { continue }
            let command =
                (try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8))?
                .replacingOccurrences(of: "\0", with: " ") ?? "?"
            findings.violate("no orphan processes", "pid \(pid): \(oneLine(command))")
            // Reported, then ended, so a failed soak leaves nothing running on the machine.
            kill(pid, SIGKILL)
        }
    }

    // MARK: - Processes

    /// A kiln command line under the soak's address-space limit.
    func boundedCommand(_ args: [String]) -> [String] {
        [
            "/bin/sh", "-c", "ulimit -v \(settings.memoryMiB * 1024); exec \"$0\" \"$@\"",
            KilnProcess.binary.path,
        ]
            + args
    }
}

struct SoakFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
