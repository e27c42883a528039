import Foundation

/// A queued export's state (design note: queue.md). `scheduled`, `available` and `retryable` wait
/// for a worker; `running` holds a lease; the last three are terminal: every accepted job ends in
/// exactly one of them.
public enum JobState: String, Sendable, CaseIterable, Codable {
    case scheduled, available, running, retryable, completed, discarded, cancelled

    public var isTerminal: Bool { self == .completed || self == .discarded || self == .cancelled }
    static let waiting: [JobState] = [.scheduled, .available, .retryable]
}

/// What `enqueue` stores: a snapshot of the job file (so a later edit changes nothing already
/// queued), where its relative paths resolve, its variables and the rendered output path.
public struct EnqueueRequest: Sendable, Equatable {
    public var name: String
    public var jobFile: String
    public var jobJSON: String
    public var baseDirectory: String
    public var variables: [String: String]
    public var output: String
    /// Lower runs first (0 is the default and the most urgent of the usual range).
    public var priority: Int
    /// Wall-clock seconds since 1970; nil = now.
    public var runAt: Double?
    public var maxAttempts: Int
    public var idempotencyKey: String?
    /// Set by the scheduler: at most one job per (schedule, fire time).
    public var schedule: (id: Int64, fireTime: Double)?
    /// More than one range: the job is split into segment tasks any worker may claim, and the
    /// job itself becomes the assembly task, due once every segment is completed.
    public var segments: [Range<Int>] = []
    /// With `segments`: one more task encodes the soundtrack while the segments render, so the
    /// assembly only copies it.
    public var soundtrackTask = false

    public init(
        name: String, jobFile: String, jobJSON: String, baseDirectory: String,
        variables: [String: String] = [:],
        output: String, priority: Int = 0, runAt: Double? = nil,
        maxAttempts: Int = RetryPolicy.defaultAttempts,
        idempotencyKey: String? = nil, schedule: (id: Int64, fireTime: Double)? = nil
    ) {
        self.name = name
        self.jobFile = jobFile
        self.jobJSON = jobJSON
        self.baseDirectory = baseDirectory
        self.variables = variables
        self.output = output
        self.priority = priority
        self.runAt = runAt
        self.maxAttempts = maxAttempts
        self.idempotencyKey = idempotencyKey
        self.schedule = schedule
    }

    public static func == (a: EnqueueRequest, b: EnqueueRequest) -> Bool {
        a.name == b.name && a.jobFile == b.jobFile && a.jobJSON == b.jobJSON
            && a.baseDirectory == b.baseDirectory
            && a.variables == b.variables && a.output == b.output && a.priority == b.priority
            && a.runAt == b.runAt
            && a.maxAttempts == b.maxAttempts && a.idempotencyKey == b.idempotencyKey
            && a.schedule?.id == b.schedule?.id && a.schedule?.fireTime == b.schedule?.fireTime
            && a.segments == b.segments && a.soundtrackTask == b.soundtrackTask
    }
}

/// One row of the queue as `kiln status` shows it.
public struct QueuedJob: Sendable, Equatable, Codable {
    public var id: Int64
    public var state: JobState
    public var name: String
    public var jobFile: String
    public var jobJSON: String
    public var baseDirectory: String
    public var variables: [String: String]
    public var output: String
    public var priority: Int
    public var runAt: Double
    public var attempt: Int
    public var maxAttempts: Int
    public var leaseToken: Int64
    public var progress: Double
    public var stage: String?
    public var cancelRequested: Bool
    public var idempotencyKey: String?
    public var lastError: String?
    public var createdAt: Double
    public var finishedAt: Double?
    public var scheduleID: Int64?
    public var fireTime: Double?
    /// A segment task: the job it is part of, its 0-based index and its frames.
    public var parentID: Int64?
    public var segmentIndex: Int?
    public var frameRange: Range<Int>?
    /// How many segments the job (or the job this segment is part of) is split into; 0 = none.
    public var segmentCount: Int

    /// One piece of a split job (a frame range, or the soundtrack).
    public var isSegment: Bool { parentID != nil }
    /// The piece of a split job that encodes its soundtrack.
    public var isSoundtrack: Bool { parentID != nil && frameRange == nil }
    /// A split job's own row: it assembles the segments once they are all completed.
    public var isAssembly: Bool { parentID == nil && segmentCount > 1 }
}

/// One attempt at a job: who ran it and how it ended (`kiln logs`).
public struct AttemptRecord: Sendable, Equatable {
    public enum Outcome: String, Sendable {
        case completed, failed, discarded, crashed, interrupted, cancelled, leaseLost = "lease_lost"
    }
    public var jobID: Int64
    public var number: Int
    public var leaseToken: Int64
    public var worker: String
    public var host: String
    public var pid: Int32
    public var startedAt: Double
    public var endedAt: Double?
    public var outcome: Outcome?
    public var error: String?
}

/// Who is claiming: a worker name, its host and process (pid + start time, so a recycled pid is
/// not mistaken for a live owner).
public struct WorkerIdentity: Sendable, Equatable {
    public var name: String
    public var host: String
    public var pid: Int32
    public var processStart: UInt64

    public init(name: String, host: String, pid: Int32, processStart: UInt64) {
        self.name = name
        self.host = host
        self.pid = pid
        self.processStart = processStart
    }

    /// This process.
    public static func current(name: String? = nil) -> WorkerIdentity {
        let pid = getpid()
        let host = ProcessInfo.processInfo.hostName
        return WorkerIdentity(
            name: name ?? "\(host):\(pid)", host: host, pid: pid,
            processStart: ProcessTable.startTime(of: pid) ?? 0)
    }
}

/// A claimed job: the fencing token every later write must carry.
public struct Claim: Sendable, Equatable {
    public let job: QueuedJob
    public let leaseToken: Int64
    public let attempt: Int
}

/// What a heartbeat learned.
public enum HeartbeatOutcome: Sendable, Equatable {
    /// The lease is renewed; `cancelRequested` tells the worker to stop.
    case renewed(cancelRequested: Bool)
    /// Someone else owns the job now (reaped or cancelled): stop, delete temp files, write nothing.
    case leaseLost
}
