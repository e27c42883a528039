import Foundation
import KilnCommandLine
import KilnModel
import KilnQueue
import KilnWorker

/// `kiln schedule add|update|run|list|remove|pause|resume|next`.
enum ScheduleCommand: KilnSubcommand {
    static let cron = OptionSpec(
        "--cron", kind: .string, placeholder: "EXPR",
        help: "five fields (minute hour day-of-month month day-of-week) or @hourly, @daily, @weekly, "
            + "@monthly, @yearly")
    static let timeZone = OptionSpec(
        "--tz", kind: .string, placeholder: "ZONE", default: .string("UTC"),
        help: "an IANA time zone such as Europe/Berlin")
    static let misfire = OptionSpec(
        "--misfire", kind: .choice(MisfirePolicy.allCases.map(\.rawValue)), default: .string("run_once"),
        help: "after downtime: run_once (one run for the latest missed fire within an hour), skip (only "
            + "fires on time, within a minute) or run_all (every missed fire, the latest 100)")
    static let overlap = OptionSpec(
        "--overlap", kind: .choice(OverlapPolicy.allCases.map(\.rawValue)), default: .string("skip"),
        help: "skip (a fire is skipped while the previous run is still queued or running) or allow")
    static let count = OptionSpec(
        "--count", kind: .int(1...1000), default: .int(5), help: "how many fires to list")
    static let json = OptionSpec.flag("--json", help: "print the schedules as JSON")
    static let name = PositionalSpec("NAME", help: "the schedule's name")

    // `update` changes only what is given, so its options have no defaults (a default would
    // read as a change back to it).
    static let newTimeZone = OptionSpec(
        "--tz", kind: .string, placeholder: "ZONE", help: "a new IANA time zone (the cron stays unless given)"
    )
    static let newMisfire = OptionSpec(
        "--misfire", kind: misfire.kind, help: "a new misfire policy (see schedule add)")
    static let newOverlap = OptionSpec(
        "--overlap", kind: overlap.kind, help: "a new overlap policy (see schedule add)")
    static let newPriority = OptionSpec(
        "--priority", kind: OptionSpec.priority.kind, help: "a new priority (lower runs first)")
    static let unset = OptionSpec(
        "--unset", kind: .string, placeholder: "name", repeatable: true,
        help: "drop a variable (repeatable)")
    static let changes: [OptionSpec] = [cron, newTimeZone, newMisfire, newOverlap, .set, unset, newPriority]

    static let spec = CommandSpec(
        "schedule", summary: "recurring renders, run by workers",
        description: """
            Recurring renders. Workers run the cron tick (any number at once: each fire makes exactly
            one job). EXPR is five fields, minute hour day-of-month month day-of-week (`*`, `*/15`,
            `1-5`, `1,15`, names jan…dec and sun…sat; when both day fields are restricted a day
            matches either), or @hourly, @daily, @weekly, @monthly, @yearly. --tz is an IANA zone
            (default UTC): a time skipped by a spring-forward change fires once at the first valid
            instant after it; a time repeated by a fall-back change fires once, the first time.
            """,
        subcommands: [
            CommandSpec(
                "add", summary: "add a schedule (JOB is checked now, as by enqueue)",
                options: [cron, timeZone, misfire, overlap, .set, .priority, .limit] + OptionSpec.queueRoots,
                positionals: [
                    name,
                    PositionalSpec(
                        "JOB", kind: .path,
                        help: "read again at each fire; output paths may use {schedule}, {date} and {time} "
                            + "(the fire time, in the schedule's zone)"),
                ]),
            CommandSpec(
                "update",
                summary: "change a schedule: only what is given changes; the job is checked again, as by add",
                options: changes + [.limit] + OptionSpec.queueRoots,
                positionals: [
                    name,
                    PositionalSpec(
                        "JOB", kind: .path, count: .optional,
                        help: "a new job file (default: the schedule's own, read again now)"),
                ]),
            CommandSpec(
                "run",
                summary: "enqueue one run now, as a fire at this moment would (prints the job id); the "
                    + "schedule's fires go on as before",
                options: [.limit] + OptionSpec.queueRoots, positionals: [name]),
            CommandSpec("list", summary: "list the schedules", options: [json, .queue]),
            CommandSpec("remove", summary: "remove a schedule", options: [.queue], positionals: [name]),
            CommandSpec("pause", summary: "pause a schedule", options: [.queue], positionals: [name]),
            CommandSpec(
                "resume", summary: "resume a paused schedule", options: [.queue], positionals: [name]),
            CommandSpec(
                "next", summary: "the next fire times of a schedule, or of --cron EXPR [--tz ZONE]",
                options: [count, cron, timeZone, .queue],
                positionals: [PositionalSpec("NAME", count: .optional, help: "the schedule (or give --cron)")]
            ),
        ],
        notes: """
            The roots (--asset-root, --output-root, and the configuration file's) and --limit values
            a schedule is added with are stored with it (update replaces them when given): the job is
            checked under them now, and each fire is checked under them again, by schedule run and by
            the tick in a worker; a worker or schedule run given roots of its own checks a fire under
            those as well (a worker renders every job under its own roots and limits). update --set
            adds or changes variables (--unset drops them); a new --cron or --tz moves the next fire
            to the first one after now.
            """)

    static func run(_ args: ParsedArguments) throws -> Int32 {
        switch args.spec.name {
        case "add": return try add(args)
        case "update": return try update(args)
        case "run": return try runNow(args)
        case "list": return try list(args)
        case "next": return try next(args)
        default: return try change(args.spec.name, args)
        }
    }

    static func open(_ args: ParsedArguments) throws -> QueueStore {
        try QueueLocation.open(try QueueLocation.databasePath(args))
    }

    static func zone(_ args: ParsedArguments) throws -> TimeZone {
        let name = args.string(timeZone) ?? "UTC"
        guard let zone = TimeZone(identifier: name) else {
            throw args.usageError("--tz expects an IANA time zone such as Europe/Berlin, got '\(name)'")
        }
        return zone
    }

    static func add(_ args: ParsedArguments) throws -> Int32 {
        let (name, jobFile) = (args.positionals[0], args.positionals[1])
        guard let cronText = args.string(Self.cron) else {
            throw args.usageError("schedule add needs --cron \"EXPR\"")
        }
        let cron = try cronExpression(cronText, try zone(args), args)
        guard let misfire = MisfirePolicy(rawValue: args.string(Self.misfire) ?? "run_once"),
            let overlap = OverlapPolicy(rawValue: args.string(Self.overlap) ?? "skip")
        else {
            throw args.usageError("--misfire or --overlap is not one of its choices")
        }
        let variables = try variableSettings(args)
        let jobPath = URL(fileURLWithPath: jobFile).standardizedFileURL.path
        let confinement = try confinement(args)
        if let failure = try check(
            jobPath, of: name, cron: cron, variables: variables, confinement: confinement, args)
        {
            return report(failure)
        }
        let store = try open(args)
        let schedule: Schedule
        do {
            schedule = try store.addSchedule(
                name: name, cron: cron, misfire: misfire, overlap: overlap, jobFile: jobPath,
                variables: variables, priority: args.int(.priority) ?? 0, confinement: confinement)
        } catch let taken as ScheduleNameTaken {
            Output.error("\(taken); use `kiln schedule update \(name)` or remove it")
            return ExitCode.dataError
        } catch let error as QueueError {
            Output.error("\(error)")
            return ExitCode.dataError
        }
        Output.stderr(
            "kiln: schedule '\(name)' added; next fire \(describe(schedule.nextFire, cron.timeZone))")
        return ExitCode.ok
    }

    /// The roots and limits this command was given (the configuration file's included), to be
    /// stored with the schedule.
    static func confinement(_ args: ParsedArguments) throws -> ScheduleConfinement {
        let roots = try PathOptions.queueRoots(args, queueLocation: try QueueLocation.databasePath(args))
        return ScheduleConfinement(
            assetRoots: roots.assetRoots, outputRoots: roots.outputRoots,
            limits: try limitSettings(args).overrides)
    }

    /// Checks the job as its next fire will read it (`{schedule}`, `{date}` and `{time}` expanded
    /// as they will be then), under the roots and limits stored with the schedule, so a typo is
    /// found today, not at 3 a.m.; the file is read again at each fire. Nil: the job is good.
    static func check(
        _ jobFile: String, of name: String, cron: CronExpression, variables: [String: String],
        confinement: ScheduleConfinement, _ args: ParsedArguments
    ) throws -> JobSubmission.Failure? {
        var options = JobSubmission.Options()
        options.variables = variables
        options.roots = JobRoots(
            assetRoots: confinement.assetRoots, outputRoots: confinement.outputRoots,
            protectedFiles: PathOptions.protectedFiles(queueLocation: try QueueLocation.databasePath(args)))
        do {
            options.limits = try ResourceLimits(overrides: confinement.limits)
        } catch {
            throw args.usageError("--limit: \(error)")
        }
        let now = Date().timeIntervalSince1970
        // The id is not needed: nothing is inserted (and on add the schedule does not exist yet).
        options.schedule = (id: 0, fireTime: cron.fires(after: now, count: 1).first ?? now, name: name)
        options.timeZone = cron.timeZone
        do {
            _ = try JobSubmission.requests(jobFiles: [jobFile], options: options, now: now)
            return nil
        } catch {
            return error
        }
    }

    static func report(_ failure: JobSubmission.Failure) -> Int32 {
        for message in failure.messages { Output.stderr("kiln: error: \(message)") }
        return failure.exitCode
    }

    static func cronExpression(_ text: String, _ zone: TimeZone, _ args: ParsedArguments) throws
        -> CronExpression
    {
        do {
            return try CronExpression(text, timeZone: zone)
        } catch {
            throw args.usageError("--cron: \(error)")
        }
    }

    /// `schedule update NAME [--cron …] [--tz …] … [JOB]`.
    static func update(_ args: ParsedArguments) throws -> Int32 {
        let name = args.positionals[0]
        let confining = [OptionSpec.limit, .config, .queueAssetRoot, .queueOutputRoot]
        guard args.positionals.count > 1 || (changes + confining).contains(where: args.isGiven) else {
            throw args.usageError(
                "schedule update needs something to change: "
                    + (changes + confining).map(\.long).joined(separator: ", ") + " or JOB")
        }
        let store = try open(args)
        guard let schedule = try store.schedule(named: name) else { return try notFound(name, in: store) }
        var change = ScheduleChange()
        let cronText = args.string(cron), zoneName = args.string(newTimeZone)
        if cronText != nil || zoneName != nil {
            var zone = TimeZone(identifier: schedule.timeZone) ?? .gmt
            if let zoneName {
                guard let given = TimeZone(identifier: zoneName) else {
                    throw args.usageError(
                        "--tz expects an IANA time zone such as Europe/Berlin, got '\(zoneName)'")
                }
                zone = given
            }
            change.cron = try cronExpression(cronText ?? schedule.cron, zone, args)
        }
        change.misfire = args.string(newMisfire).flatMap(MisfirePolicy.init(rawValue:))
        change.overlap = args.string(newOverlap).flatMap(OverlapPolicy.init(rawValue:))
        change.priority = args.int(newPriority)
        change.jobFile = args.positionals.dropFirst().first.map {
            URL(fileURLWithPath: $0).standardizedFileURL.path
        }
        // Roots and limits are replaced separately: `--limit` alone keeps the stored roots.
        let rootsGiven = [OptionSpec.queueAssetRoot, .queueOutputRoot, .config].contains(where: args.isGiven)
        let limitsGiven = args.isGiven(.limit) || args.isGiven(.config)
        if rootsGiven || limitsGiven {
            let given = try confinement(args)
            var updated = schedule.confinement
            if rootsGiven {
                updated.assetRoots = given.assetRoots
                updated.outputRoots = given.outputRoots
            }
            if limitsGiven { updated.limits = given.limits }
            change.confinement = updated
        }
        if args.isGiven(.set) || args.isGiven(unset) {
            var variables = schedule.variables.merging(try variableSettings(args)) { $1 }
            for dropped in args.strings(unset) { variables[dropped] = nil }
            change.variables = variables
        }
        let expression = try change.cron ?? schedule.expression()
        let failure = try check(
            change.jobFile ?? schedule.jobFile, of: name, cron: expression,
            variables: change.variables ?? schedule.variables,
            confinement: change.confinement ?? schedule.confinement, args)
        if let failure { return report(failure) }
        let updated: Schedule?
        do {
            updated = try store.updateSchedule(named: name, change)
        } catch let error as QueueError {
            Output.error("\(error)")
            return ExitCode.dataError
        }
        guard let updated else { return try notFound(name, in: store) }
        let zone = TimeZone(identifier: updated.timeZone) ?? expression.timeZone
        Output.stderr(
            "kiln: schedule '\(name)' updated; "
                + (updated.paused ? "paused" : "next fire \(describe(updated.nextFire, zone))"))
        return ExitCode.ok
    }

    /// `schedule run NAME`: one job now, as the tick would make it for a fire at this moment.
    static func runNow(_ args: ParsedArguments) throws -> Int32 {
        let name = args.positionals[0]
        let store = try open(args)
        guard let schedule = try store.schedule(named: name) else { return try notFound(name, in: store) }
        let roots = try PathOptions.queueRoots(args, queueLocation: try QueueLocation.databasePath(args))
        let overlapping = try store.hasActiveJobs(scheduleID: schedule.id)
        let id: Int64
        do {
            id = try Scheduler(store: store, roots: roots, limits: try limitSettings(args), log: { _ in })
                .fireNow(schedule)
        } catch let failure as JobSubmission.Failure {
            return report(failure)
        } catch let error as CronExpression.ParseError {
            Output.error("schedule '\(name)': \(error)")
            return ExitCode.dataError
        }
        if overlapping {
            Output.stderr("kiln: note: a previous run of '\(name)' is still queued or running")
        }
        print(id)
        return ExitCode.ok
    }

    /// "no schedule named 'nightyl'; did you mean 'nightly'?", exit 66.
    static func notFound(_ name: String, in store: QueueStore) throws -> Int32 {
        let names = try store.schedules().map(\.name)
        Output.error("no schedule named '\(name)'" + NameSuggestion.hint(for: name, among: names))
        return ExitCode.noInput
    }

    static func describe(_ seconds: Double?, _ zone: TimeZone) -> String {
        guard let seconds else { return "never" }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = "yyyy-MM-dd HH:mm xxxxx"
        let name = zone.identifier == "GMT" ? "UTC" : zone.identifier
        return formatter.string(from: Date(timeIntervalSince1970: seconds)) + " (\(name))"
    }

    static func list(_ args: ParsedArguments) throws -> Int32 {
        let schedules = try open(args).schedules()
        if args.flag(json) {
            try printJSON(
                schedules.map { s -> [String: Any] in
                    [
                        "name": s.name, "cron": s.cron, "timeZone": s.timeZone, "misfire": s.misfire.rawValue,
                        "overlap": s.overlap.rawValue, "job": s.jobFile, "variables": s.variables,
                        "assetRoots": s.confinement.assetRoots, "outputRoots": s.confinement.outputRoots,
                        "limits": s.confinement.limits,
                        "paused": s.paused,
                        "priority": s.priority, "nextFire": StatusCommand.iso(s.nextFire),
                        "lastFire": StatusCommand.iso(s.lastFire), "note": s.lastNote ?? NSNull(),
                    ]
                })
            return ExitCode.ok
        }
        guard !schedules.isEmpty else {
            Output.stderr("kiln: no schedules")
            return ExitCode.ok
        }
        let rows = schedules.map { s -> [String] in
            let zone = TimeZone(identifier: s.timeZone) ?? .current
            return [
                s.name, s.cron, s.timeZone, s.paused ? "paused" : describe(s.nextFire, zone), s.jobFile,
                s.lastNote ?? "",
            ]
        }
        for row in Table.aligned([["NAME", "CRON", "ZONE", "NEXT FIRE", "JOB", "LAST NOTE"]] + rows) {
            Output.line(row)
        }
        return ExitCode.ok
    }

    static func change(_ action: String, _ args: ParsedArguments) throws -> Int32 {
        let store = try open(args)
        let name = args.positionals[0]
        let changed =
            action == "remove"
            ? try store.removeSchedule(named: name) : try store.setPaused(action == "pause", named: name)
        guard changed else { return try notFound(name, in: store) }
        Output.stderr(
            "kiln: schedule '\(name)' \(action == "remove" ? "removed" : action == "pause" ? "paused" : "resumed")"
        )
        return ExitCode.ok
    }

    /// `schedule next NAME [--count N]`, or `schedule next --cron EXPR [--tz ZONE]` to try one out.
    static func next(_ args: ParsedArguments) throws -> Int32 {
        let count = args.int(Self.count) ?? 5
        let cron: CronExpression
        if let text = args.string(Self.cron) {
            do {
                cron = try CronExpression(text, timeZone: try zone(args))
            } catch let error as CronExpression.ParseError {
                throw args.usageError("--cron: \(error)")
            }
        } else {
            guard args.positionals.count == 1 else {
                throw args.usageError("schedule next takes NAME (or --cron EXPR)")
            }
            let store = try open(args)
            guard let schedule = try store.schedule(named: args.positionals[0]) else {
                return try notFound(args.positionals[0], in: store)
            }
            cron = try schedule.expression()
        }
        let fires = cron.fires(after: Date().timeIntervalSince1970, count: count)
        guard !fires.isEmpty else {
            Output.stderr("kiln: '\(cron.text)' never fires again")
            return ExitCode.ok
        }
        for fire in fires { print(describe(fire, cron.timeZone)) }
        return ExitCode.ok
    }
}
