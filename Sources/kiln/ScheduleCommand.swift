import Foundation
import KilnQueue
import KilnWorker

/// `kiln schedule add|list|remove|pause|resume|next`.
enum ScheduleCommand {
    static func run(_ raw: [String]) throws -> Int32 {
        guard let action = raw.first, !action.hasPrefix("-") else {
            if raw.contains("--help") || raw.contains("-h") {
                print(Help.schedule)
                return ExitCode.ok
            }
            throw UsageError(
                message: "schedule needs add, list, remove, pause, resume or next", command: "schedule")
        }
        let rest = Array(raw.dropFirst())
        switch action {
        case "add": return try add(rest)
        case "list": return try list(rest)
        case "remove", "pause", "resume": return try change(action, rest)
        case "next": return try next(rest)
        default:
            throw UsageError(message: "unknown schedule action '\(action)'", command: "schedule")
        }
    }

    static func open(_ args: Arguments) throws -> QueueStore {
        try QueueLocation.open(try QueueLocation.databasePath(args, command: "schedule"))
    }

    static func zone(_ args: Arguments) throws -> TimeZone {
        let name = args.values["--tz"] ?? "UTC"
        guard let zone = TimeZone(identifier: name) else {
            throw UsageError(
                message: "--tz expects an IANA time zone such as Europe/Berlin, got '\(name)'",
                command: "schedule")
        }
        return zone
    }

    static func add(_ raw: [String]) throws -> Int32 {
        let args = try Arguments(
            raw, command: "schedule",
            valued: (["--cron", "--tz", "--misfire", "--overlap", "--set", "--priority", "--queue"]
                as Set<String>).union(
                    PathOptions.queueFlags))
        if args.flags.contains("--help") {
            print(Help.schedule)
            return ExitCode.ok
        }
        guard args.positionals.count == 2 else {
            throw UsageError(message: "schedule add takes NAME and JOB", command: "schedule")
        }
        let (name, jobFile) = (args.positionals[0], args.positionals[1])
        guard let cronText = args.values["--cron"] else {
            throw UsageError(message: "schedule add needs --cron \"EXPR\"", command: "schedule")
        }
        let cron: CronExpression
        do {
            cron = try CronExpression(cronText, timeZone: try zone(args))
        } catch let error as CronExpression.ParseError {
            throw UsageError(message: "--cron: \(error)", command: "schedule")
        }
        guard let misfire = MisfirePolicy(rawValue: args.values["--misfire"] ?? "run_once") else {
            throw UsageError(message: "--misfire expects run_once, skip or run_all", command: "schedule")
        }
        guard let overlap = OverlapPolicy(rawValue: args.values["--overlap"] ?? "skip") else {
            throw UsageError(message: "--overlap expects skip or allow", command: "schedule")
        }
        var options = JobSubmission.Options()
        options.variables = try variableSettings(args, command: "schedule")
        options.roots = try PathOptions.queueRoots(
            args, command: "schedule",
            queueLocation: try QueueLocation.databasePath(args, command: "schedule"))
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
                priority: try args.int("--priority", command: "schedule", range: -1000...1000) ?? 0)
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

    static func list(_ raw: [String]) throws -> Int32 {
        let args = try Arguments(raw, command: "schedule", valued: ["--queue"], boolean: ["--json"])
        let schedules = try open(args).schedules()
        if args.flags.contains("--json") {
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

    static func change(_ action: String, _ raw: [String]) throws -> Int32 {
        let args = try Arguments(raw, command: "schedule", valued: ["--queue"])
        guard args.positionals.count == 1 else {
            throw UsageError(message: "schedule \(action) takes one NAME", command: "schedule")
        }
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
    static func next(_ raw: [String]) throws -> Int32 {
        let args = try Arguments(raw, command: "schedule", valued: ["--queue", "--count", "--cron", "--tz"])
        let count = try args.int("--count", command: "schedule", range: 1...1000) ?? 5
        let cron: CronExpression
        if let text = args.values["--cron"] {
            do {
                cron = try CronExpression(text, timeZone: try zone(args))
            } catch let error as CronExpression.ParseError {
                throw UsageError(message: "--cron: \(error)", command: "schedule")
            }
        } else {
            guard args.positionals.count == 1 else {
                throw UsageError(message: "schedule next takes NAME (or --cron EXPR)", command: "schedule")
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
