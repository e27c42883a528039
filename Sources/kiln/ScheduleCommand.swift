import Foundation
import KilnCommandLine
import KilnQueue
import KilnWorker

/// `kiln schedule add|list|remove|pause|resume|next`.
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
                options: [cron, timeZone, misfire, overlap, .set, .priority] + OptionSpec.queueRoots,
                positionals: [
                    name,
                    PositionalSpec(
                        "JOB", kind: .path,
                        help: "read again at each fire; output paths may use {schedule}, {date} and {time} "
                            + "(the fire time, in the schedule's zone)"),
                ]),
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
            --asset-root, --output-root and --config are checked when a schedule is added, as by
            enqueue; each fire is checked again under the roots of the worker that runs the tick.
            """)

    static func run(_ args: ParsedArguments) throws -> Int32 {
        switch args.spec.name {
        case "add": return try add(args)
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
        let cron: CronExpression
        do {
            cron = try CronExpression(cronText, timeZone: try zone(args))
        } catch let error as CronExpression.ParseError {
            throw args.usageError("--cron: \(error)")
        }
        guard let misfire = MisfirePolicy(rawValue: args.string(Self.misfire) ?? "run_once"),
            let overlap = OverlapPolicy(rawValue: args.string(Self.overlap) ?? "skip")
        else {
            throw args.usageError("--misfire or --overlap is not one of its choices")
        }
        var options = JobSubmission.Options()
        options.variables = try variableSettings(args)
        options.roots = try PathOptions.queueRoots(args, queueLocation: try QueueLocation.databasePath(args))
        // Checked as its first fire will be, so `{schedule}`, `{date}` and `{time}` expand as they
        // will then (the id is the schedule's, which does not exist yet: nothing is inserted).
        let firstFire = cron.fires(after: Date().timeIntervalSince1970, count: 1).first
        options.schedule = (id: 0, fireTime: firstFire ?? Date().timeIntervalSince1970, name: name)
        options.timeZone = cron.timeZone
        // Checked now so a typo is found today, not at 3 a.m.; the file is read again at each fire.
        do {
            _ = try JobSubmission.requests(
                jobFiles: [jobFile], options: options, now: Date().timeIntervalSince1970)
        } catch {
            for message in error.messages { Output.stderr("kiln: error: \(message)") }
            return error.exitCode
        }
        let store = try open(args)
        let schedule: Schedule
        do {
            schedule = try store.addSchedule(
                name: name, cron: cron, misfire: misfire, overlap: overlap,
                jobFile: URL(fileURLWithPath: jobFile).standardizedFileURL.path, variables: options.variables,
                priority: args.int(.priority) ?? 0)
        } catch {
            Output.error("\(error)")
            return ExitCode.dataError
        }
        Output.stderr(
            "kiln: schedule '\(name)' added; next fire \(describe(schedule.nextFire, cron.timeZone))")
        return ExitCode.ok
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
                        "paused": s.paused,
                        "priority": s.priority, "nextFire": StatusCommand.iso(s.nextFire),
                        "lastFire": StatusCommand.iso(s.lastFire), "note": s.lastNote ?? NSNull(),
                    ]
                })
            return ExitCode.ok
        }
        for s in schedules {
            let zone = TimeZone(identifier: s.timeZone) ?? .current
            Output.line(
                "\(s.name)\t\(s.cron)\t\(s.timeZone)\t\(s.paused ? "paused" : "next \(describe(s.nextFire, zone))")\t\(s.jobFile)"
                    + (s.lastNote.map { "\t(\($0))" } ?? ""))
        }
        return ExitCode.ok
    }

    static func change(_ action: String, _ args: ParsedArguments) throws -> Int32 {
        let store = try open(args)
        let name = args.positionals[0]
        let changed =
            action == "remove"
            ? try store.removeSchedule(named: name) : try store.setPaused(action == "pause", named: name)
        guard changed else {
            Output.error("no schedule named '\(name)'")
            return ExitCode.noInput
        }
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
            guard let schedule = try open(args).schedule(named: args.positionals[0]) else {
                Output.error("no schedule named '\(args.positionals[0])'")
                return ExitCode.noInput
            }
            cron = try schedule.expression()
        }
        for fire in cron.fires(after: Date().timeIntervalSince1970, count: count) {
            print(describe(fire, cron.timeZone))
        }
        return ExitCode.ok
    }
}
