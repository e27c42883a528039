import Foundation

/// The job columns every read selects, and their decoding.
enum JobRow {
    static let columns = """
        id, state, name, job_file, job_json, base_dir, variables, output, priority, run_at, attempt, max_attempts,
        lease_token, progress, stage, cancel_requested, idempotency_key, last_error, created_at, finished_at,
        schedule_id, fire_time, parent_id, segment_index, segment_count, frame_start, frame_end, batch_id,
        draft
        """

    /// The same columns named with their table, for statements that join (`UPDATE … FROM`).
    static let qualifiedColumns = columns.split(separator: ",").map {
        "jobs." + $0.trimmingCharacters(in: .whitespacesAndNewlines)
    }.joined(separator: ", ")

    static func decode(_ row: [SQLiteValue]) -> QueuedJob {
        QueuedJob(
            id: row[0].int!, state: JobState(rawValue: row[1].string ?? "") ?? .discarded,
            name: row[2].string ?? "",
            jobFile: row[3].string ?? "", jobJSON: row[4].string ?? "", baseDirectory: row[5].string ?? "",
            variables: VariablesJSON.decode(row[6].string ?? "{}"), output: row[7].string ?? "",
            priority: Int(row[8].int ?? 0), runAt: row[9].double ?? 0, attempt: Int(row[10].int ?? 0),
            maxAttempts: Int(row[11].int ?? 0), leaseToken: row[12].int ?? 0, progress: row[13].double ?? 0,
            stage: row[14].string, cancelRequested: row[15].int == 1, idempotencyKey: row[16].string,
            lastError: row[17].string, createdAt: row[18].double ?? 0, finishedAt: row[19].double,
            scheduleID: row[20].int, fireTime: row[21].double, parentID: row[22].int,
            segmentIndex: row[23].int.map { Int($0) },
            frameRange: row[25].int.flatMap { start in row[26].int.map { Int(start)..<Int(max(start, $0)) } },
            segmentCount: Int(row[24].int ?? 0), batchID: row[27].int, draft: row[28].string)
    }
}
