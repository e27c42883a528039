import Foundation

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
    /// A draft (`Draft.text`): every task of the job renders it; nil is the whole job.
    public var draft: String?

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
            && a.segments == b.segments && a.soundtrackTask == b.soundtrackTask && a.draft == b.draft
    }
}
