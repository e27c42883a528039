import Foundation
import KilnExport
import KilnModel
import KilnQueue

/// Turns job files (and batch rows) into queue requests, validating each exactly as a render
/// would: any problem anywhere means nothing is inserted.
public enum JobSubmission {
    public struct Options {
        public var variables: [String: String] = [:]
        public var batchFile: String?
        public var priority = 0
        /// Wall seconds; nil = now.
        public var runAt: Double?
        public var idempotencyKey: String?
        public var maxAttempts = RetryPolicy.defaultAttempts
        /// The scheduler's fire: its id and time, and its name for `{schedule}` in output paths.
        public var schedule: (id: Int64, fireTime: Double, name: String)?
        public var timeZone = TimeZone.current
        /// How each job is split into segment tasks (long jobs are split by default).
        public var segments = SegmentPlan.Request.automatic
        /// The sizes each job may ask for.
        public var limits = ResourceLimits()
        /// Where jobs may read and write (`JobRoots`).
        public var roots = JobRoots()
        /// Queued drafts (`enqueue --scale/--size/--range`): smaller and/or part of each job,
        /// written beside its output as NAME.draft.EXT.
        public var draft = Draft()

        public init() {}
    }

    public struct Failure: Error, CustomStringConvertible {
        /// Every problem, already formatted for a terminal.
        public let messages: [String]
        public let exitCode: Int32
        public var description: String { messages.joined(separator: "\n") }
    }

    public static func requests(jobFiles: [String], options: Options, now: Double) throws(Failure)
        -> [EnqueueRequest]
    {
        var rows: [(label: String?, values: [String: String])] = [(nil, [:])]
        var messages: [String] = []
        var missingOnly = true
        var draftMisfits = false
        if let batch = options.batchFile {
            do {
                rows = try BatchFile.rows(file: batch).map { ("\(batch):\($0.line)", $0.values) }
            } catch {
                throw Failure(messages: ["\(error)"], exitCode: error.exitCode)
            }
        }
        var requests: [EnqueueRequest] = []
        for file in jobFiles {
            let bytes: [UInt8]
            do {
                bytes = try JobLoader.readBytes(file: file, limits: options.limits)
            } catch {
                messages.append("\(error)")
                missingOnly = missingOnly && error.exitCode == 66
                continue
            }
            let url = URL(fileURLWithPath: file).standardizedFileURL
            let directory = url.deletingLastPathComponent()
            for (index, row) in rows.enumerated() {
                var variables = options.variables
                variables.merge(row.values) { $1 }
                let when = options.schedule?.fireTime ?? options.runAt ?? now
                var template = OutputTemplate(
                    date: Date(timeIntervalSince1970: when), timeZone: options.timeZone)
                if let schedule = options.schedule { template.extra["schedule"] = schedule.name }
                do {
                    let whole = try JobFiles.decode(
                        bytes: bytes, file: file, baseDirectory: directory,
                        options: JobLoadOptions(
                            variables: variables, outputTemplate: template, limits: options.limits,
                            pathRules: options.roots.rules(jobDirectory: directory.path)))
                    let job: Job
                    do {
                        job = try whole.drafted(options.draft)
                    } catch {
                        // The draft options do not fit this job (a range past its end): a usage error.
                        messages.append(
                            (row.label.map { "(batch row \($0)) " } ?? "") + "\(file): \(error.message)")
                        draftMisfits = true
                        continue
                    }
                    let output =
                        options.draft == Draft()
                        ? job.output.path : Draft.outputPath(besides: job.output.path)
                    var request =
                        EnqueueRequest(
                            name: url.deletingPathExtension().lastPathComponent, jobFile: url.path,
                            jobJSON: String(decoding: bytes, as: UTF8.self), baseDirectory: directory.path,
                            variables: variables, output: output.path, priority: options.priority,
                            runAt: options.schedule == nil ? options.runAt : nil,
                            maxAttempts: options.maxAttempts,
                            idempotencyKey: options.idempotencyKey.map {
                                rows.count > 1 || jobFiles.count > 1 ? "\($0)#\(file)#\(index)" : $0
                            },
                            schedule: options.schedule.map { ($0.id, $0.fireTime) })
                    if options.draft != Draft() { request.draft = options.draft.text }
                    let plan = SegmentPlan(
                        frameCount: job.output.frameCount, framesPerSecond: job.output.frameRate.doubleValue,
                        request: options.segments)
                    // Only H.264 is joined from segments; other formats are queued as one job.
                    if plan.isSegmented, job.output.format.supportsSegments {
                        request.segments = plan.ranges
                        request.soundtrackTask = job.audio != nil
                    }
                    requests.append(request)
                } catch {
                    let prefix = row.label.map { "(batch row \($0)) " } ?? ""
                    messages.append(prefix + "\(error)")
                    missingOnly = missingOnly && error.exitCode == 66
                }
            }
        }
        guard messages.isEmpty else {
            throw Failure(messages: messages, exitCode: draftMisfits ? 64 : missingOnly ? 66 : 65)
        }
        return requests
    }
}
