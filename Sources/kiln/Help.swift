enum Help {
    static let top = """
        kiln — bake declarative effect timelines (JSON job files) into MP4 videos

        usage: kiln <command> [options]

        commands:
          render JOB [-o OUT.mp4] [--threads N] [--progress auto|bar|json|none]
                                  render a job to an H.264 MP4 (BT.709, yuv420p)
          preview JOB (--at SECONDS | --frame N) -o OUT.png [--threads N]
                                  render one frame to a PNG
          validate JOB... [--json]
                                  check job files and report every problem
          layers                  list layer kinds, transform keys and effects with their parameters
          limits [--json]         list the resource limits, their defaults and what they bound
          docs [--write | --check] [FILE]
                                  regenerate the parameter tables of docs/job-format.md

        the export queue (embedded SQLite, or PostgreSQL for many hosts; --queue sqlite:PATH |
        postgres://… or $KILN_QUEUE, default $XDG_STATE_HOME/kiln/queue.sqlite3):
          enqueue JOB... [--priority N] [--at TIME] [--set k=v]... [--batch F.csv|F.jsonl]
                  [--idempotency-key K]
                                  validate and queue export jobs (all or none)
          worker [--concurrency N] [--drain] [--once]
                                  run queued jobs
          status [ID] [--json]    jobs with state, progress, attempts, output and errors
          logs ID                 what happened to a job, attempt by attempt
          cancel ID | retry ID    stop a job, or queue an ended one again
          prune --older-than DUR  delete ended jobs
          run JOB [--set k=v]...  enqueue and drain in one command
          schedule add NAME --cron "EXPR" [--tz ZONE] [--misfire P] JOB | list | remove NAME |
                   pause NAME | resume NAME | next NAME [--count N]
                                  recurring renders, run by workers
          --version               print the version and the FFmpeg libraries in use
          help COMMAND            help for one command (or: kiln COMMAND --help)

        render, preview, validate, enqueue and worker take --limit NAME=VALUE (repeatable): a job
        over a limit is refused with exit 65, naming the limit (see `kiln limits`); the
        configuration file's "limits" object sets them too.

        queue commands confine jobs to asset and output roots (--asset-root DIR, --output-root DIR,
        or $XDG_CONFIG_HOME/kiln/config.json / --config FILE; default: the job file's directory);
        render, preview and validate do so only when given roots. See docs/security.md.

        exit codes: 0 ok, 64 usage, 65 invalid or refused job, 66 missing input, 69 queue unavailable,
                    70 internal error, 73 cannot create output, 75 failed but will retry,
                    78 bad configuration file, 130 interrupted (SIGINT), 143 terminated (SIGTERM)
        """

    static let render = """
        usage: kiln render JOB [-o OUT.mp4] [--threads N] [--progress auto|bar|json|none] [--set name=value]...
                               [--segments N | --segment-seconds S] [--frame-hashes FILE]
                               [--asset-root DIR]... [--output-root DIR]... [--limit NAME=VALUE]...

        Renders every frame of JOB and encodes it with libx264 into an MP4 (yuv420p, BT.709,
        limited range, +faststart). With the job's `audio`, the file also gets an AAC track
        (48 kHz stereo) exactly as long as the video. The file appears at its final path only
        when complete.

        Videos of 60 s or more are rendered in segments of about 30 s: each is encoded on its own
        to a hidden file beside the output, then all are joined by stream copy (no re-encode)
        with the audio encoded once. An interrupted render (Ctrl-C, kill, crash) keeps its
        finished segments, and running the same command again renders only the rest. A changed
        job, range or Kiln version never reuses an old segment.

          -o, --output PATH     output file (default: the job's output.path)
          --threads N           render threads (default: all cores); output is identical for any N
          --progress MODE       auto (a bar on a terminal, silent otherwise), bar, json (one JSON
                                object per frame on stdout) or none
          --set name=value      a job variable (repeatable; see the job's "variables")
          --segments N          split into N segments (1: one piece, no resume)
          --segment-seconds S   split into segments of about S seconds
          --frame-hashes FILE   append "FRAME DIGEST" for every rendered frame (the pixels before
                                encoding) to FILE: equal for any thread count, segmenting or host
          --limit NAME=VALUE    raise or lower a resource limit (repeatable; see `kiln limits`)
        \(rootOptions)
        An output is never the job file, one of its inputs, the queue database ($KILN_QUEUE or the
        default), a device, FIFO, directory or symbolic link (exit 65, or 73 for -o).
        """

    static let preview = """
        usage: kiln preview JOB (--at SECONDS | --frame N) -o OUT.png [--threads N] [--set name=value]...
                            [--limit NAME=VALUE]...

        Renders one frame to a PNG: the same pixels the video gets before YUV conversion.

          --at SECONDS   the frame shown at this time (the last frame starting at or before it)
          --frame N      frame index, 0-based
          -o PATH        output PNG
          --threads N    render threads (default: all cores)
          --limit NAME=VALUE  a resource limit (repeatable; see `kiln limits`)
        \(rootOptions)
        """

    static let validate = """
        usage: kiln validate JOB... [--json] [--asset-root DIR]... [--output-root DIR]...
                                    [--limit NAME=VALUE]...

        Checks job files and reports every problem at once, each with the file, line:column and
        the JSON path. Exit 0 when all are valid, 65 when one is invalid, 66 when one is missing.

          --json   print one JSON array with {file, valid, errors: [{path, line, column, message}]}
          --limit NAME=VALUE  a resource limit (repeatable; see `kiln limits`)
        \(rootOptions)
        """

    static let rootOptions = """
          --asset-root DIR      read images, audio and transcripts only under DIR (repeatable;
                                symbolic links and .. resolved first; default: anywhere)
          --output-root DIR     write outputs only under DIR (repeatable; default: anywhere)
        """

    static let queueRootOptions = """
          --asset-root DIR      read images, audio and transcripts only under DIR (repeatable;
                                symbolic links and .. resolved first, also in --set and batch values)
          --output-root DIR     write outputs only under DIR (repeatable)
                                (both default to the config file's assetRoots / outputRoots, else
                                to each job file's own directory tree)
          --config FILE         configuration (default $XDG_CONFIG_HOME/kiln/config.json, else
                                ~/.config/kiln/config.json):
                                {"assetRoots": [...], "outputRoots": [...], "limits": {NAME: VALUE}}
        """

    static let limits = """
        usage: kiln limits [--json] [--limit NAME=VALUE]...

        Lists every resource limit: its name, its value (the default, or as the configuration
        file's "limits" object or --limit sets it) and what it bounds. Each is checked before the
        memory it bounds is allocated; a job over one is refused with exit 65 and a message naming
        the limit, its value and the maximum. render, preview, validate, enqueue and worker take
        --limit NAME=VALUE (repeatable). See docs/security.md.

          --json   one JSON array of {name, value, default, summary}
        """

    static let layers = """
        usage: kiln layers

        Lists every layer kind, the transform keys every layer takes, and every effect, each
        parameter with its type, range, default and a line of help.
        """

    static let queueOption = """
          --queue LOCATION      sqlite:PATH, or postgres://USER[:PASSWORD]@HOST[:PORT]/DB for a queue
                                shared by many hosts (default: $KILN_QUEUE, else
                                $XDG_STATE_HOME/kiln/queue.sqlite3 or ~/.local/state/kiln/queue.sqlite3)
        """

    static let enqueue = """
        usage: kiln enqueue JOB... [--priority N] [--at TIME] [--set name=value]... [--batch FILE]
                                   [--idempotency-key K] [--max-attempts N] [--json] [--queue sqlite:PATH]
                                   [--segments N | --segment-seconds S] [--limit NAME=VALUE]...

        Validates every job (and every batch row) exactly as `kiln render` would, then queues one
        export per job and row. If anything is invalid, nothing is queued (exit 65, or 66 for a
        missing file). Prints the new job ids, one per line (or JSON with --json).

        A job of 60 s or more (or any job with --segments / --segment-seconds) is split into
        segment tasks that any worker may render at the same time; the job itself is joined from
        them (stream copy, audio encoded once) when all are done. See docs/scale-out.md.

          --priority N          lower runs first (default 0; -1000…1000)
          --at TIME             not before TIME: 2026-12-01T09:30:00Z, '2026-12-01 09:30' (local) or +10m
          --set name=value      a job variable (repeatable); see the job's "variables"
          --batch FILE          .csv with a header of variable names, or .jsonl with one object per
                                line: one job per row, the row's values over --set
          --idempotency-key K   a second enqueue with the same key returns the first job's id
          --max-attempts N      attempts before a failing job is discarded (default 5)
          --segments N          split each job into N segments (1: never split)
          --segment-seconds S   split each job into segments of about S seconds
          --limit NAME=VALUE    raise or lower a resource limit (repeatable; see `kiln limits`)
        \(queueRootOptions)
        \(queueOption)
        """

    static let worker = """
        usage: kiln worker [--concurrency N] [--drain | --once] [--threads N] [--name NAME]
                           [--grace SECONDS] [--stall-seconds S] [--frame-hashes FILE]
                           [--queue sqlite:PATH|postgres://…] [--limit NAME=VALUE]...
                           [--asset-root DIR]... [--output-root DIR]... [--config FILE]

        Runs queued exports, each attempt in a render process of its own: a job that crashes
        or hangs its render is charged alone, never the jobs beside it. Each job is claimed with a lease (60 s, renewed every 15 s with its
        progress; KILN_QUEUE_LEASE_SECONDS shortens both), rendered to a temp file beside its
        output and renamed into place before the job is marked completed. Failures retry with
        backoff (15 s doubling, up to an hour); invalid jobs and missing files are discarded at
        once. SIGINT/SIGTERM hands running jobs back to the queue and exits (a second signal
        exits at once; after --grace seconds, default 30, the worker exits anyway).

          --concurrency N   jobs at once (default 1), each on its own share of the cores
          --drain           exit when no job is due and no dead worker's job is left to reclaim
          --stall-seconds S kill an attempt that reports no progress for S s (default 600) and
                            charge it as stalled
          --once            run one job (if one is due) and exit
          --threads N       render threads per job (default: cores / concurrency)
          --frame-hashes F  append "FRAME DIGEST" for every frame rendered to F (as kiln render)
          --limit NAME=VALUE  a resource limit for every job it runs (repeatable; see `kiln limits`)
        \(queueRootOptions)
        A job that reads outside the asset roots or writes outside the output roots is discarded
        before any work, with the reason in `kiln status ID`.
        \(queueOption)
        """

    static let status = """
        usage: kiln status [ID] [--json] [--state S[,S…]] [--queue sqlite:PATH]

        Lists queued jobs (id, state, progress, attempts, output), or one job in detail with its
        attempts and last error. --json prints the same as JSON (an array, or one object).
        States: scheduled, available, running, retryable, completed, discarded, cancelled.
        \(queueOption)
        """

    static let logs = """
        usage: kiln logs ID [--queue sqlite:PATH]

        Prints what happened to a job: enqueued, each attempt's claim and its end (completed,
        failed with the error, crashed, returned), cancel and retry requests.
        """

    static let cancel = """
        usage: kiln cancel ID [--queue sqlite:PATH]

        Cancels a waiting job at once; a running job's worker stops at its next heartbeat and
        removes its temp file. Exit 65 if the job has already ended.
        """

    static let retry = """
        usage: kiln retry ID [--queue sqlite:PATH]

        Queues an ended (or retryable) job again now, with a fresh set of attempts.
        """

    static let prune = """
        usage: kiln prune --older-than DURATION [--queue sqlite:PATH]

        Deletes completed, discarded and cancelled jobs (and their attempts and logs) that ended
        more than DURATION ago: 90 (seconds), 45s, 30m, 12h, 7d, 2w, 1h30m. Output files stay.
        """

    static let run = """
        usage: kiln run JOB [--set name=value]... [--threads N] [--queue sqlite:PATH]
                            [--asset-root DIR]... [--output-root DIR]... [--config FILE]

        Enqueues JOB into the embedded queue and runs the queue until nothing is due, in this
        process; prints the output path. Exit 0 when the job completed, 75 when it failed and is
        waiting to retry, 65/66 when the job is invalid. Roots as for enqueue and worker.
        """

    static let schedule = """
        usage: kiln schedule add NAME --cron "EXPR" [--tz ZONE] [--misfire run_once|skip|run_all]
                                 [--overlap skip|allow] [--set name=value]... [--priority N] JOB
               kiln schedule list [--json]
               kiln schedule remove|pause|resume NAME
               kiln schedule next NAME [--count N]     (or: next --cron "EXPR" [--tz ZONE])

        Recurring renders. Workers run the cron tick (any number at once: each fire makes exactly
        one job). EXPR is five fields, minute hour day-of-month month day-of-week (`*`, `*/15`,
        `1-5`, `1,15`, names jan…dec and sun…sat; when both day fields are restricted a day
        matches either), or @hourly, @daily, @weekly, @monthly, @yearly. --tz is an IANA zone
        (default UTC): a time skipped by a spring-forward change fires once at the first valid
        instant after it; a time repeated by a fall-back change fires once, the first time.

          --misfire run_once   after downtime, one run for the latest missed fire within an hour
                    skip       only fires that are on time (within a minute) run
                    run_all    every missed fire runs (the latest 100)
          --overlap skip       a fire is skipped while the previous run is still queued or running
                    allow      runs may overlap
          JOB                  read again at each fire; output paths may use {schedule}, {date}
                               and {time} (the fire time, in the schedule's zone)
          --asset-root, --output-root, --config   checked now as by enqueue; each fire is checked
                               again under the roots of the worker that runs the tick
        \(queueOption)
        """

    static func command(_ name: String) -> String? {
        switch name {
        case "render": return render
        case "preview": return preview
        case "validate": return validate
        case "layers": return layers
        case "limits": return limits
        case "docs": return DocsCommand.help
        case "enqueue": return enqueue
        case "worker": return worker
        case "status": return status
        case "logs": return logs
        case "cancel": return cancel
        case "retry": return retry
        case "prune": return prune
        case "run": return run
        case "schedule": return schedule
        default: return nil
        }
    }
}
