import Foundation

extension QueueStore: ScheduleStore {
    public var now: Double { clock.wall() }

    public func addSchedule(
        name: String, cron: CronExpression, misfire: MisfirePolicy, overlap: OverlapPolicy, jobFile: String,
        variables: [String: String], priority: Int, confinement: ScheduleConfinement = ScheduleConfinement()
    ) throws -> Schedule {
        let now = clock.wall()
        let zoneName = Self.zoneName(cron.timeZone)
        guard let first = cron.next(after: now) else {
            throw QueueError.invalidSchedule(name: name, reason: "'\(cron.text)' never fires")
        }
        return try db.write { () throws -> Schedule in
            let id: Int64
            do {
                // The unique constraint decides, not a look first: two hosts adding one name at
                // once both look before either inserts.
                id =
                    try db.query(
                        """
                        INSERT INTO schedules (name, cron, time_zone, misfire, overlap, job_file, variables, priority,
                                               next_fire, created_at, confinement)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id
                        """,
                        [
                            .text(name), .text(cron.text), .text(zoneName),
                            .text(misfire.rawValue),
                            .text(overlap.rawValue), .text(jobFile), .text(VariablesJSON.encode(variables)),
                            .integer(Int64(priority)), .real(first), .real(now), .text(confinement.json),
                        ]
                    ).first?.first?.int ?? 0
            } catch let error where Self.isUniqueViolation(error) {
                throw ScheduleNameTaken(name: name)
            }
            return Schedule(
                id: id, name: name, cron: cron.text, timeZone: zoneName, misfire: misfire,
                overlap: overlap, jobFile: jobFile, variables: variables, priority: priority, paused: false,
                nextFire: first, lastFire: nil, lastNote: nil, confinement: confinement)
        }
    }

    /// Foundation names UTC "GMT"; users wrote UTC.
    static func zoneName(_ zone: TimeZone) -> String {
        zone.identifier == "GMT" ? "UTC" : zone.identifier
    }

    /// A unique constraint said no, in either backend's words.
    static func isUniqueViolation(_ error: any Error) -> Bool {
        (error as? SQLiteError)?.isUniqueViolation ?? (error as? PostgresError)?.isUniqueViolation ?? false
    }

    public func updateSchedule(named name: String, _ change: ScheduleChange) throws -> Schedule? {
        let now = clock.wall()
        return try db.write { () throws -> Schedule? in
            // PostgreSQL: the row is held until commit, so two updates cannot undo each other.
            let lock = db.dialect == .postgres ? " FOR UPDATE" : ""
            let row = try db.query(
                "SELECT \(Self.scheduleColumns) FROM schedules WHERE name = ?\(lock)", [.text(name)]
            ).first
            guard var schedule = row.map(Self.decodeSchedule) else { return nil }
            if let cron = change.cron {
                let zoneChanged = (TimeZone(identifier: schedule.timeZone) ?? cron.timeZone) != cron.timeZone
                if cron.text != schedule.cron || zoneChanged {
                    guard let next = cron.next(after: now) else {
                        throw QueueError.invalidSchedule(name: name, reason: "'\(cron.text)' never fires")
                    }
                    schedule.cron = cron.text
                    schedule.timeZone = Self.zoneName(cron.timeZone)
                    // A paused schedule keeps no fire due; resuming computes one from then.
                    if !schedule.paused { schedule.nextFire = next }
                }
            }
            schedule.misfire = change.misfire ?? schedule.misfire
            schedule.overlap = change.overlap ?? schedule.overlap
            schedule.jobFile = change.jobFile ?? schedule.jobFile
            schedule.variables = change.variables ?? schedule.variables
            schedule.priority = change.priority ?? schedule.priority
            schedule.confinement = change.confinement ?? schedule.confinement
            try db.query(
                """
                UPDATE schedules SET cron = ?, time_zone = ?, misfire = ?, overlap = ?, job_file = ?, variables = ?,
                                     priority = ?, next_fire = ?, confinement = ?
                WHERE id = ?
                """,
                [
                    .text(schedule.cron), .text(schedule.timeZone), .text(schedule.misfire.rawValue),
                    .text(schedule.overlap.rawValue), .text(schedule.jobFile),
                    .text(VariablesJSON.encode(schedule.variables)), .integer(Int64(schedule.priority)),
                    schedule.nextFire.map { .real($0) } ?? .null, .text(schedule.confinement.json),
                    .integer(schedule.id),
                ])
            return schedule
        }
    }

    static let scheduleColumns = """
        id, name, cron, time_zone, misfire, overlap, job_file, variables, priority, paused, next_fire, last_fire,
        last_note, confinement
        """

    static func decodeSchedule(_ row: [SQLiteValue]) -> Schedule {
        Schedule(
            id: row[0].int ?? 0, name: row[1].string ?? "", cron: row[2].string ?? "",
            timeZone: row[3].string ?? "UTC",
            misfire: MisfirePolicy(rawValue: row[4].string ?? "") ?? .runOnce,
            overlap: OverlapPolicy(rawValue: row[5].string ?? "") ?? .skip, jobFile: row[6].string ?? "",
            variables: VariablesJSON.decode(row[7].string ?? "{}"), priority: Int(row[8].int ?? 0),
            paused: row[9].int == 1, nextFire: row[10].double, lastFire: row[11].double,
            lastNote: row[12].string, confinement: ScheduleConfinement(json: row[13].string ?? "{}"))
    }

    public func schedules() throws -> [Schedule] {
        try db.query("SELECT \(Self.scheduleColumns) FROM schedules ORDER BY name").map(Self.decodeSchedule)
    }

    public func schedule(named name: String) throws -> Schedule? {
        try db.query("SELECT \(Self.scheduleColumns) FROM schedules WHERE name = ?", [.text(name)]).first.map(
            Self.decodeSchedule)
    }

    public func removeSchedule(named name: String) throws -> Bool {
        try db.write { () throws -> Bool in
            try db.query("DELETE FROM schedules WHERE name = ?", [.text(name)])
            return db.changes == 1
        }
    }

    public func setPaused(_ paused: Bool, named name: String) throws -> Bool {
        guard let schedule = try schedule(named: name) else { return false }
        let next = paused ? schedule.nextFire : try schedule.expression().next(after: clock.wall())
        return try db.write { () throws -> Bool in
            try db.query(
                "UPDATE schedules SET paused = ?, next_fire = ? WHERE name = ?",
                [.integer(paused ? 1 : 0), next.map { .real($0) } ?? .null, .text(name)])
            return db.changes == 1
        }
    }

    public func dueSchedules() throws -> [Schedule] {
        try db.query(
            "SELECT \(Self.scheduleColumns) FROM schedules WHERE paused = 0 AND next_fire <= ? ORDER BY next_fire",
            [.real(clock.wall())]
        ).map(Self.decodeSchedule)
    }

    public func hasActiveJobs(scheduleID: Int64) throws -> Bool {
        try !db.query(
            """
            SELECT 1 FROM jobs WHERE schedule_id = ? AND state IN ('scheduled', 'available', 'running', 'retryable')
            LIMIT 1
            """, [.integer(scheduleID)]
        ).isEmpty
    }

    public func commitTick(_ schedule: Schedule, jobs: [EnqueueRequest], nextFire: Double?, note: String?)
        throws
        -> Bool
    {
        let now = clock.wall()
        return try db.write { () throws -> Bool in
            try db.query(
                """
                UPDATE schedules SET next_fire = ?, last_fire = COALESCE(?, last_fire), last_note = ?
                WHERE id = ? AND paused = 0 AND next_fire = ?
                """,
                [
                    nextFire.map { .real($0) } ?? .null,
                    jobs.last?.schedule.map { .real($0.fireTime) } ?? .null,
                    note.map { .text($0) } ?? .null, .integer(schedule.id),
                    schedule.nextFire.map { .real($0) } ?? .null,
                ])
            guard db.changes == 1 else { return false }
            var batch: Int64?
            for request in jobs { _ = try insert(request, now: now, batch: &batch) }
            return true
        }
    }
}
