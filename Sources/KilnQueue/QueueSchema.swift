/// The queue's tables, versioned (SQLite: `PRAGMA user_version`; PostgreSQL: the `kiln_schema`
/// table): each migration runs once, in its own write transaction, in order. A database from a newer Kiln is refused rather than guessed at.
enum QueueSchema {
    static let migrations: [String] = [
        // 1: jobs, their attempts and log lines.
        """
        CREATE TABLE jobs (
            id INTEGER PRIMARY KEY,
            state TEXT NOT NULL CHECK (state IN ('scheduled', 'available', 'running', 'retryable', 'completed',
                                                 'discarded', 'cancelled')),
            name TEXT NOT NULL,
            job_file TEXT NOT NULL,
            job_json TEXT NOT NULL,
            base_dir TEXT NOT NULL,
            variables TEXT NOT NULL DEFAULT '{}',
            output TEXT NOT NULL,
            priority INTEGER NOT NULL DEFAULT 0,
            run_at REAL NOT NULL,
            attempt INTEGER NOT NULL DEFAULT 0,
            max_attempts INTEGER NOT NULL DEFAULT 5 CHECK (max_attempts >= 1),
            lease_token INTEGER NOT NULL DEFAULT 0,
            lease_owner TEXT,
            lease_host TEXT,
            lease_pid INTEGER,
            lease_pid_start INTEGER,
            lease_boot TEXT,
            lease_expires REAL,
            progress REAL NOT NULL DEFAULT 0,
            stage TEXT,
            cancel_requested INTEGER NOT NULL DEFAULT 0,
            idempotency_key TEXT UNIQUE,
            schedule_id INTEGER,
            fire_time REAL,
            last_error TEXT,
            created_at REAL NOT NULL,
            finished_at REAL,
            UNIQUE (schedule_id, fire_time)
        );
        CREATE INDEX jobs_due ON jobs (state, priority, run_at, id);
        CREATE INDEX jobs_finished ON jobs (finished_at) WHERE finished_at IS NOT NULL;
        CREATE TABLE attempts (
            job_id INTEGER NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
            number INTEGER NOT NULL,
            lease_token INTEGER NOT NULL,
            worker TEXT NOT NULL,
            host TEXT NOT NULL,
            pid INTEGER NOT NULL,
            started_at REAL NOT NULL,
            ended_at REAL,
            outcome TEXT,
            error TEXT,
            PRIMARY KEY (job_id, lease_token)
        );
        CREATE TABLE events (
            id INTEGER PRIMARY KEY,
            job_id INTEGER NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
            at REAL NOT NULL,
            message TEXT NOT NULL
        );
        CREATE INDEX events_job ON events (job_id, id);
        """,
        // 2: recurring schedules; their jobs carry (schedule_id, fire_time), unique per fire.
        """
        CREATE TABLE schedules (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE,
            cron TEXT NOT NULL,
            time_zone TEXT NOT NULL,
            misfire TEXT NOT NULL CHECK (misfire IN ('run_once', 'skip', 'run_all')),
            overlap TEXT NOT NULL CHECK (overlap IN ('skip', 'allow')),
            job_file TEXT NOT NULL,
            variables TEXT NOT NULL DEFAULT '{}',
            priority INTEGER NOT NULL DEFAULT 0,
            paused INTEGER NOT NULL DEFAULT 0,
            next_fire REAL,
            last_fire REAL,
            last_note TEXT,
            created_at REAL NOT NULL
        );
        CREATE INDEX schedules_due ON schedules (paused, next_fire);
        CREATE INDEX jobs_schedule ON jobs (schedule_id, state) WHERE schedule_id IS NOT NULL;
        """,
        // 3: split jobs: segment tasks point at their job, which assembles them (scale-out.md).
        """
        ALTER TABLE jobs ADD COLUMN parent_id INTEGER REFERENCES jobs (id) ON DELETE CASCADE;
        ALTER TABLE jobs ADD COLUMN segment_index INTEGER;
        ALTER TABLE jobs ADD COLUMN segment_count INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE jobs ADD COLUMN frame_start INTEGER;
        ALTER TABLE jobs ADD COLUMN frame_end INTEGER;
        CREATE INDEX jobs_parent ON jobs (parent_id, state) WHERE parent_id IS NOT NULL;
        """,
        // 4: batches: the jobs one `kiln enqueue` queued share the first one's id, so they can be
        // cancelled or retried together (`kiln cancel --batch N`). A job's end is announced once
        // (`kiln worker --on-done`): announced_at is its finished_at when announced, so a retried
        // job that ends again is announced again.
        """
        ALTER TABLE jobs ADD COLUMN batch_id INTEGER;
        ALTER TABLE jobs ADD COLUMN announced_at REAL;
        CREATE INDEX jobs_batch ON jobs (batch_id) WHERE batch_id IS NOT NULL;
        """,
        // 5: a schedule keeps the roots and limits it was added under (ScheduleConfinement, JSON).
        """
        ALTER TABLE schedules ADD COLUMN confinement TEXT NOT NULL DEFAULT '{}';
        """,
        // 6: a queued draft (`enqueue --scale/--size/--range`), as `Draft.text`; NULL renders the job whole.
        """
        ALTER TABLE jobs ADD COLUMN draft TEXT;
        """,
    ]

    static var currentVersion: Int { migrations.count }

    /// The migrations in PostgreSQL's types: 64-bit ids from sequences, double precision times.
    static func postgres(_ sql: String) -> String {
        sql.replacingOccurrences(of: "INTEGER PRIMARY KEY", with: "BIGSERIAL PRIMARY KEY")
            .replacingOccurrences(of: "INTEGER", with: "BIGINT")
            .replacingOccurrences(of: "REAL", with: "DOUBLE PRECISION")
    }

    static func migrate(_ db: any QueueDatabase) throws {
        let name =
            (db as? SQLiteConnection)?.path ?? (db as? PostgresDatabase)?.connection.redactedURL ?? "queue"
        switch db.dialect {
        case .sqlite:
            for (index, sql) in migrations.enumerated() {
                let target = index + 1
                try db.write {
                    let version = Int(try db.query("PRAGMA user_version").first?.first?.int ?? 0)
                    guard version < target else { return }
                    try db.execute(sql)
                    try db.execute("PRAGMA user_version = \(target)")
                }
            }
        case .postgres:
            try db.execute("CREATE TABLE IF NOT EXISTS kiln_schema (version INTEGER NOT NULL)")
            for (index, sql) in migrations.enumerated() {
                let target = index + 1
                try db.write {
                    // One migrator at a time, whichever host starts first.
                    try db.query(
                        "SELECT pg_advisory_xact_lock(7406955)")
                    let version = Int(
                        try db.query("SELECT COALESCE(MAX(version), 0) FROM kiln_schema").first?.first?.int
                            ?? 0)
                    guard version < target else { return }
                    try db.execute(postgres(sql))
                    try db.query("INSERT INTO kiln_schema (version) VALUES (?)", [.integer(Int64(target))])
                }
            }
        }
        let version: Int
        switch db.dialect {
        case .sqlite: version = Int(try db.query("PRAGMA user_version").first?.first?.int ?? 0)
        case .postgres:
            version = Int(
                try db.query("SELECT COALESCE(MAX(version), 0) FROM kiln_schema").first?.first?.int ?? 0)
        }
        if version > currentVersion {
            throw QueueError.newerSchema(path: name, found: version, supported: currentVersion)
        }
    }
}
