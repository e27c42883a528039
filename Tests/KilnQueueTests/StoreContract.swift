import Foundation
import KilnQueue
import XCTest

/// The state machine of queue.md, written once for every backend: each backend's test class
/// (`SQLiteQueueStoreTests`, `PostgresQueueStoreTests`) runs every function here against its own
/// store, with an injected clock.
enum StoreContract {
    static func enqueueClaimHeartbeatComplete(_ fixture: StoreFixture) throws {
        let store = try fixture.store()
        let ids = try store.enqueue([StoreFixture.request("a"), StoreFixture.request("b")])
        XCTAssertEqual(ids.count, 2)
        let first = try XCTUnwrap(try store.job(id: ids[0]))
        XCTAssertEqual(first.state, .available)
        XCTAssertEqual(first.variables, ["title": "Hello"])

        let claim = try XCTUnwrap(try store.claim(as: .test("w1")))
        XCTAssertEqual(claim.job.id, ids[0], "oldest first at equal priority")
        XCTAssertEqual(claim.attempt, 1)
        XCTAssertEqual(try store.job(id: ids[0])?.state, .running)
        XCTAssertEqual(
            try store.heartbeat(claim, progress: 0.5, stage: "rendering"), .renewed(cancelRequested: false))
        XCTAssertEqual(try store.job(id: ids[0])?.progress, 0.5)
        XCTAssertTrue(try store.complete(claim))
        let done = try XCTUnwrap(try store.job(id: ids[0]))
        XCTAssertEqual(done.state, .completed)
        XCTAssertEqual(done.progress, 1)
        XCTAssertNotNil(done.finishedAt)
        XCTAssertEqual(try store.attempts(jobID: ids[0]).map(\.outcome), [.completed])
        XCTAssertFalse(try store.complete(claim), "a second completion changes nothing")
    }

    static func priorityAndRunAtOrderClaims(_ fixture: StoreFixture) throws {
        let store = try fixture.store()
        let now = fixture.clock.wall()
        let ids = try store.enqueue([
            StoreFixture.request("low", priority: 5), StoreFixture.request("later", runAt: now + 60),
            StoreFixture.request("urgent", priority: 0),
        ])
        XCTAssertEqual(try store.job(id: ids[1])?.state, .scheduled)
        XCTAssertEqual(try store.claim(as: .test("w"))?.job.name, "urgent")
        XCTAssertEqual(try store.claim(as: .test("w"))?.job.name, "low")
        XCTAssertNil(try store.claim(as: .test("w")), "the scheduled job is not due yet")
        fixture.clock.advance(61)
        XCTAssertEqual(try store.claim(as: .test("w"))?.job.name, "later")
    }

    static func idempotencyKeyMakesOneJob(_ fixture: StoreFixture) throws {
        let store = try fixture.store()
        let a = try store.enqueue([StoreFixture.request(key: "k1")])
        let b = try store.enqueue([StoreFixture.request(key: "k1")])
        XCTAssertEqual(a, b)
        XCTAssertEqual(try store.jobs(states: nil).count, 1)
    }

    static func transientFailuresBackOffThenDiscard(_ fixture: StoreFixture) throws {
        let store = try fixture.store()
        let id = try store.enqueue([StoreFixture.request()])[0]
        var waits: [Double] = []
        for attempt in 1...5 {
            let claim = try XCTUnwrap(try store.claim(as: .test("w")), "attempt \(attempt)")
            XCTAssertEqual(claim.attempt, attempt)
            XCTAssertTrue(try store.fail(claim, error: "disk full", permanent: false))
            let job = try XCTUnwrap(try store.job(id: id))
            if attempt < 5 {
                XCTAssertEqual(job.state, .retryable)
                waits.append(job.runAt - fixture.clock.wall())
                XCTAssertNil(try store.claim(as: .test("w")), "not before its backoff")
                fixture.clock.advance(job.runAt - fixture.clock.wall())
            } else {
                XCTAssertEqual(job.state, .discarded)
                XCTAssertEqual(job.lastError, "disk full")
            }
        }
        XCTAssertEqual(waits, [15, 30, 60, 120])
        XCTAssertEqual(
            try store.attempts(jobID: id).map(\.outcome), [.failed, .failed, .failed, .failed, .discarded])
    }

    static func permanentErrorDiscardsAfterOneAttempt(_ fixture: StoreFixture) throws {
        let store = try fixture.store()
        let id = try store.enqueue([StoreFixture.request()])[0]
        let claim = try XCTUnwrap(try store.claim(as: .test("w")))
        XCTAssertTrue(try store.fail(claim, error: "asset missing", permanent: true))
        XCTAssertEqual(try store.job(id: id)?.state, .discarded)
        XCTAssertNil(try store.claim(as: .test("w")))
    }

    static func releaseDoesNotChargeTheAttempt(_ fixture: StoreFixture) throws {
        let store = try fixture.store()
        let id = try store.enqueue([StoreFixture.request()])[0]
        let claim = try XCTUnwrap(try store.claim(as: .test("w")))
        XCTAssertTrue(try store.release(claim, reason: "SIGTERM"))
        XCTAssertEqual(try store.job(id: id)?.state, .available)
        XCTAssertEqual(try store.job(id: id)?.attempt, 0)
        let again = try XCTUnwrap(try store.claim(as: .test("w")))
        XCTAssertEqual(again.attempt, 1)
        XCTAssertNotEqual(again.leaseToken, claim.leaseToken)
        XCTAssertFalse(try store.complete(claim), "the old token is fenced off")
    }

    static func cancelWaitingAndRunningJobs(_ fixture: StoreFixture) throws {
        let store = try fixture.store()
        let ids = try store.enqueue([StoreFixture.request("a"), StoreFixture.request("b")])
        let claim = try XCTUnwrap(try store.claim(as: .test("w")))
        XCTAssertTrue(try store.cancel(id: ids[1]))
        XCTAssertEqual(try store.job(id: ids[1])?.state, .cancelled)
        XCTAssertTrue(try store.cancel(id: ids[0]))
        XCTAssertEqual(try store.job(id: ids[0])?.state, .running, "a running job stops at its heartbeat")
        XCTAssertEqual(
            try store.heartbeat(claim, progress: 0.2, stage: "rendering"), .renewed(cancelRequested: true))
        XCTAssertTrue(try store.acknowledgeCancel(claim))
        XCTAssertEqual(try store.job(id: ids[0])?.state, .cancelled)
        XCTAssertFalse(try store.cancel(id: ids[0]), "already ended")
        XCTAssertTrue(try store.retry(id: ids[0]))
        XCTAssertEqual(try store.job(id: ids[0])?.state, .available)
    }

    /// Between heartbeats the worker stores progress and looks for a cancel with one fenced
    /// statement that does not renew the lease (so it cannot keep a dead owner's job alive).
    static func progressReportsAreFencedAndSeeACancel(_ fixture: StoreFixture) throws {
        let store = try fixture.store()
        let id = try store.enqueue([StoreFixture.request()])[0]
        let claim = try XCTUnwrap(try store.claim(as: .test("w")))
        XCTAssertEqual(
            try store.heartbeat(claim, progress: 0.1, stage: "rendering"), .renewed(cancelRequested: false))
        XCTAssertEqual(try store.reportProgress(claim, 0.91), .renewed(cancelRequested: false))
        var job = try XCTUnwrap(try store.job(id: id))
        XCTAssertEqual(job.progress, 0.91, "status sees it at once, not at the next heartbeat")
        XCTAssertEqual(job.stage, "rendering", "a progress report keeps the stage")
        XCTAssertEqual(try store.reportProgress(claim, nil), .renewed(cancelRequested: false))
        XCTAssertEqual(try store.job(id: id)?.progress, 0.91, "nil only looks")
        XCTAssertEqual(try store.reportProgress(claim, 1.5), .renewed(cancelRequested: false))
        XCTAssertEqual(try store.job(id: id)?.progress, 1, "clamped")

        XCTAssertTrue(try store.cancel(id: id))
        XCTAssertEqual(try store.reportProgress(claim, nil), .renewed(cancelRequested: true))
        XCTAssertEqual(try store.reportProgress(claim, 0.95), .renewed(cancelRequested: true))

        fixture.clock.advance(30)
        _ = try store.reportProgress(claim, 0.96)
        fixture.clock.advance(31)
        XCTAssertEqual(try store.reap(), 1, "progress reports do not renew the lease")
        XCTAssertEqual(try store.reportProgress(claim, 0.97), .leaseLost)
        XCTAssertEqual(try store.reportProgress(claim, nil), .leaseLost)
        job = try XCTUnwrap(try store.job(id: id))
        XCTAssertEqual(job.state, .cancelled, "its cancel was pending")
        XCTAssertEqual(job.progress, 0, "the fenced-off owner wrote nothing")
    }

    /// Every way out of `running`, and every operator change, leaves progress and stage meaning
    /// what the new state means: none under way while waiting or after an end without output,
    /// all of it once completed, and no stage but a running attempt's.
    static func stateChangesResetProgressAndStage(_ fixture: StoreFixture) throws {
        let store = try fixture.store()
        var once = StoreFixture.request("once", priority: 5)  // claimed once the first has ended
        once.maxAttempts = 1
        let ids = try store.enqueue([StoreFixture.request(), once])
        let id = ids[0]
        func run(_ progress: Double) throws -> Claim {
            let claim = try XCTUnwrap(try store.claim(as: .test("w")))
            XCTAssertEqual(
                try store.heartbeat(claim, progress: progress, stage: "rendering"),
                .renewed(cancelRequested: false))
            return claim
        }
        func expect(
            _ state: JobState, progress: Double, _ id: Int64, _ what: String, line: UInt = #line
        ) throws {
            let job = try XCTUnwrap(try store.job(id: id), line: line)
            XCTAssertEqual(job.state, state, what, line: line)
            XCTAssertEqual(job.progress, progress, what, line: line)
            XCTAssertNil(job.stage, what, line: line)
        }

        XCTAssertTrue(try store.complete(try run(0.9)))
        try expect(.completed, progress: 1, id, "completed")
        XCTAssertTrue(try store.retry(id: id))
        try expect(.available, progress: 0, id, "retried after completing")
        XCTAssertEqual(try store.job(id: id)?.maxAttempts, 6)

        XCTAssertTrue(try store.fail(try run(0.42), error: "disk full", permanent: false))
        try expect(.retryable, progress: 0, id, "waiting for its retry")
        fixture.clock.advance(3600)

        XCTAssertTrue(try store.release(try run(0.5), reason: "SIGTERM"))
        try expect(.available, progress: 0, id, "released")

        XCTAssertTrue(try store.fail(try run(0.3), error: "asset missing", permanent: true))
        try expect(.discarded, progress: 0, id, "discarded")
        XCTAssertTrue(try store.retry(id: id))
        try expect(.available, progress: 0, id, "retried after a discard")

        let cancelled = try run(0.7)
        XCTAssertTrue(try store.cancel(id: id))
        XCTAssertEqual(try store.job(id: id)?.stage, "rendering", "running until its worker stops")
        XCTAssertTrue(try store.acknowledgeCancel(cancelled))
        try expect(.cancelled, progress: 0, id, "cancelled while running")
        XCTAssertTrue(try store.retry(id: id))

        _ = try run(0.6)
        fixture.clock.advance(61)
        XCTAssertEqual(try store.reap(), 1)
        try expect(.available, progress: 0, id, "reclaimed from a dead worker")
        XCTAssertTrue(try store.cancel(id: id))
        try expect(.cancelled, progress: 0, id, "cancelled while waiting")

        _ = try run(0.8)  // the job with one attempt
        fixture.clock.advance(61)
        XCTAssertEqual(try store.reap(), 1)
        try expect(.discarded, progress: 0, ids[1], "reaped with no attempts left")
    }

    /// A split job's own row, whenever it waits, shows its segments (completed fraction and
    /// count), and nothing once it ended without output.
    static func aWaitingSplitJobShowsItsSegments(_ fixture: StoreFixture) throws {
        let store = try fixture.store()
        let id = try store.enqueue([split(segments: 4)])[0]
        func expect(
            _ state: JobState, progress: Double, stage: String?, _ what: String, line: UInt = #line
        ) throws {
            let job = try XCTUnwrap(try store.job(id: id), line: line)
            XCTAssertEqual(job.state, state, what, line: line)
            XCTAssertEqual(job.progress, progress, what, line: line)
            XCTAssertEqual(job.stage, stage, what, line: line)
        }
        XCTAssertTrue(try store.complete(try XCTUnwrap(try store.claim(as: .test("w")))))
        try expect(.scheduled, progress: 0.25, stage: "waiting for segments (1 of 4 done)", "one done")
        let failing = try XCTUnwrap(try store.claim(as: .test("w")))
        XCTAssertTrue(try store.fail(failing, error: "asset vanished", permanent: true))
        try expect(.discarded, progress: 0, stage: nil, "a segment was discarded")
        let segments = try store.segments(ofJob: id)
        XCTAssertEqual(segments.map(\.state), [.completed, .discarded, .cancelled, .cancelled])
        XCTAssertEqual(segments.map(\.progress), [1, 0, 0, 0])
        XCTAssertEqual(segments.map(\.stage), [nil, nil, nil, nil])
        XCTAssertTrue(try store.retry(id: id))
        try expect(.scheduled, progress: 0.25, stage: "waiting for segments (1 of 4 done)", "retried")
        XCTAssertTrue(
            try store.segments(ofJob: id).dropFirst().allSatisfy {
                $0.state == .available && $0.progress == 0 && $0.stage == nil
            })
        var claim = try XCTUnwrap(try store.claim(as: .test("w")))
        while claim.job.isSegment {
            XCTAssertTrue(try store.complete(claim))
            claim = try XCTUnwrap(try store.claim(as: .test("w")))
        }
        XCTAssertEqual(claim.job.id, id, "the assembly, once its segments are done")
        XCTAssertEqual(
            try store.heartbeat(claim, progress: 0.5, stage: "rendering"), .renewed(cancelRequested: false))
        XCTAssertTrue(try store.fail(claim, error: "disk full", permanent: false))
        try expect(.retryable, progress: 1, stage: "segments done; assembly due", "its assembly failed")
        fixture.clock.advance(3600)
        let again = try XCTUnwrap(try store.claim(as: .test("w")))
        XCTAssertEqual(again.job.id, id)
        fixture.clock.advance(61)
        XCTAssertEqual(try store.reap(), 1)
        try expect(.available, progress: 1, stage: "segments done; assembly due", "its assembly was reaped")
        XCTAssertTrue(try store.cancel(id: id))
        try expect(.cancelled, progress: 0, stage: nil, "cancelled while waiting")
    }

    static func expiredLeaseIsReapedAndTheOldOwnerFencedOff(_ fixture: StoreFixture) throws {
        let store = try fixture.store()
        let id = try store.enqueue([StoreFixture.request()])[0]
        let claim = try XCTUnwrap(try store.claim(as: .test("w1")))
        fixture.clock.advance(30)
        XCTAssertEqual(try store.reap(), 0, "the lease still has 30 s")
        fixture.clock.advance(31)
        XCTAssertEqual(try store.reap(), 1)
        XCTAssertEqual(try store.job(id: id)?.state, .available)
        XCTAssertEqual(try store.heartbeat(claim, progress: 0.9, stage: "rendering"), .leaseLost)
        XCTAssertFalse(try store.complete(claim))
        let second = try XCTUnwrap(try store.claim(as: .test("w2")))
        XCTAssertEqual(second.attempt, 2)
        XCTAssertTrue(try store.complete(second))
        XCTAssertEqual(try store.attempts(jobID: id).map(\.outcome), [.crashed, .completed])
    }

    /// A running job whose cancel was pending when its worker died is cancelled by the reaper,
    /// never rendered again; a split job's waiting segments end with it.
    static func aReapedJobWithAPendingCancelEndsCancelled(_ fixture: StoreFixture) throws {
        let store = try fixture.store()
        let ids = try store.enqueue([StoreFixture.request("a"), split()])
        let claim = try XCTUnwrap(try store.claim(as: .test("w1")))
        XCTAssertEqual(claim.job.id, ids[0])
        XCTAssertTrue(try store.cancel(id: ids[0]))
        fixture.clock.advance(61)
        XCTAssertEqual(try store.reap(), 1)
        XCTAssertEqual(try store.job(id: ids[0])?.state, .cancelled)
        XCTAssertEqual(try store.attempts(jobID: ids[0]).map(\.outcome), [.crashed])
        let segment = try XCTUnwrap(try store.claim(as: .test("w2")))
        XCTAssertEqual(segment.job.parentID, ids[1], "the cancelled job is not claimed again")
        XCTAssertTrue(try store.cancel(id: ids[1]))
        fixture.clock.advance(61)
        XCTAssertEqual(try store.reap(), 1)
        XCTAssertEqual(try store.job(id: ids[1])?.state, .cancelled)
        XCTAssertEqual(Set(try store.segments(ofJob: ids[1]).map(\.state)), [.cancelled])
        XCTAssertNil(try store.claim(as: .test("w3")), "nothing is left to render")
    }

    static func wallClockJumpsDoNotExpireLeases(_ fixture: StoreFixture) throws {
        let store = try fixture.store()
        _ = try store.enqueue([StoreFixture.request()])
        let claim = try XCTUnwrap(try store.claim(as: .test("w")))
        fixture.clock.jumpWall(2 * 3600)
        XCTAssertEqual(try store.reap(), 0)
        fixture.clock.jumpWall(-4 * 3600)
        XCTAssertEqual(try store.reap(), 0)
        XCTAssertEqual(
            try store.heartbeat(claim, progress: 0.1, stage: "x"), .renewed(cancelRequested: false))
    }

    static func aLeaseFromBeforeARebootIsStale(_ fixture: StoreFixture) throws {
        let store = try fixture.store()
        _ = try store.enqueue([StoreFixture.request()])
        _ = try XCTUnwrap(try store.claim(as: .test("w")))
        fixture.clock.reboot()
        XCTAssertEqual(try store.reap(), 1)
    }

    static func deadOwnerIsReclaimedAtOnce(_ fixture: StoreFixture) throws {
        let store = try fixture.store()
        let id = try store.enqueue([StoreFixture.request()])[0]
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        let gone = WorkerIdentity(
            name: "gone", host: ProcessInfo.processInfo.hostName, pid: process.processIdentifier,
            processStart: 1)
        _ = try XCTUnwrap(try store.claim(as: gone))
        XCTAssertEqual(try store.reap(), 1, "its process has exited: no need to wait for the lease")
        XCTAssertEqual(try store.attempts(jobID: id).first?.error, "worker process died")
    }

    static func pruneDeletesOnlyOldTerminalJobs(_ fixture: StoreFixture) throws {
        let store = try fixture.store()
        let ids = try store.enqueue([StoreFixture.request("a"), StoreFixture.request("b")])
        let claim = try XCTUnwrap(try store.claim(as: .test("w")))
        XCTAssertTrue(try store.complete(claim))
        fixture.clock.advance(86_400)
        XCTAssertEqual(try store.prune(endedBefore: fixture.clock.wall() - 3600), 1)
        XCTAssertNil(try store.job(id: ids[0]))
        XCTAssertNotNil(try store.job(id: ids[1]))
        XCTAssertEqual(try store.attempts(jobID: ids[0]), [], "attempts go with their job")
    }

    static func batchEnqueueIsAllOrNothing(_ fixture: StoreFixture) throws {
        let store = try fixture.store()
        var bad = StoreFixture.request("bad")
        bad.maxAttempts = 0  // violates the schema's CHECK
        XCTAssertThrowsError(try store.enqueue([StoreFixture.request("good"), bad]))
        XCTAssertEqual(try store.jobs(states: nil), [])
    }

    /// One `enqueue` is one batch, named by its first job; an idempotent repeat keeps its job's
    /// batch; a split job's segments belong to no batch (they follow their job).
    static func oneEnqueueIsOneBatch(_ fixture: StoreFixture) throws {
        let store = try fixture.store()
        let first = try store.enqueue([StoreFixture.request("a", key: "k"), StoreFixture.request("b")])
        let second = try store.enqueue([StoreFixture.request("c"), split()])
        XCTAssertEqual(try first.map { try store.job(id: $0)?.batchID }, [first[0], first[0]])
        XCTAssertEqual(try second.map { try store.job(id: $0)?.batchID }, [second[0], second[0]])
        XCTAssertEqual(try store.segments(ofJob: second[1]).map(\.batchID), [nil, nil, nil])
        let repeated = try store.enqueue([StoreFixture.request("d"), StoreFixture.request("a", key: "k")])
        XCTAssertEqual(repeated[1], first[0], "the idempotency key returns the first job")
        XCTAssertEqual(try store.job(id: first[0])?.batchID, first[0], "and leaves its batch alone")
        XCTAssertEqual(try store.job(id: repeated[0])?.batchID, repeated[0])
        XCTAssertEqual(
            try store.jobs(inBatch: second[0]).map(\.id), second, "the split job, not its segments")
        XCTAssertEqual(
            try store.jobs(inBatch: second[1]).map(\.id), second, "any of its jobs names the batch")
        XCTAssertEqual(try store.jobs(inBatch: 999), [])
    }

    /// Each job's end is handed out once, whoever asks; ends before `since` and segments never;
    /// a retried job that ends again is handed out again.
    static func eachEndIsAnnouncedOnce(_ fixture: StoreFixture) throws {
        let store = try fixture.store()
        let old = try store.enqueue([StoreFixture.request("old")])[0]
        XCTAssertTrue(try store.cancel(id: old))
        fixture.clock.advance(10)
        let since = store.currentTime()
        let ids = try store.enqueue([StoreFixture.request("a"), StoreFixture.request("b"), split()])
        XCTAssertEqual(try store.takeUnannouncedEnds(since: since, limit: 10), [], "nothing has ended")
        let claim = try XCTUnwrap(try store.claim(as: .test("w")))
        XCTAssertEqual(claim.job.id, ids[0])
        XCTAssertTrue(try store.complete(claim))
        fixture.clock.advance(1)
        XCTAssertTrue(try store.cancel(id: ids[1]))
        XCTAssertTrue(try store.cancel(id: ids[2]), "the split job and its segments")
        let other = try fixture.store()
        let taken = try store.takeUnannouncedEnds(since: since, limit: 2)
        XCTAssertEqual(taken.map(\.id), [ids[0], ids[1]], "oldest end first, at most the limit")
        XCTAssertEqual(taken.map(\.state), [.completed, .cancelled])
        XCTAssertEqual(try other.takeUnannouncedEnds(since: since, limit: 10).map(\.id), [ids[2]])
        XCTAssertEqual(try store.takeUnannouncedEnds(since: since, limit: 10), [], "each end once")
        XCTAssertEqual(try other.takeUnannouncedEnds(since: 0, limit: 10).map(\.id), [old])
        fixture.clock.advance(1)
        XCTAssertTrue(try store.retry(id: ids[1]))
        XCTAssertEqual(try store.takeUnannouncedEnds(since: since, limit: 10), [], "running again")
        fixture.clock.advance(1)
        XCTAssertTrue(try store.cancel(id: ids[1]))
        XCTAssertEqual(try other.takeUnannouncedEnds(since: since, limit: 10).map(\.id), [ids[1]])
    }

    static func reopeningKeepsTheSchemaAndData(_ fixture: StoreFixture) throws {
        let id = try fixture.store().enqueue([StoreFixture.request()])[0]
        let reopened = try fixture.store()
        XCTAssertEqual(try reopened.job(id: id)?.name, "intro")
    }

    static func split(_ name: String = "long", segments: Int = 3, frames: Int = 90) -> EnqueueRequest {
        var request = StoreFixture.request(name)
        request.segments = (0..<segments).map { ($0 * frames / segments)..<(($0 + 1) * frames / segments) }
        return request
    }

    /// A split job: its segments are claimable tasks; the job's own row (the assembly) is due only
    /// once every segment is completed, and shows their progress meanwhile.
    static func splitJobAssemblesAfterItsSegments(_ fixture: StoreFixture) throws {
        let store = try fixture.store()
        let id = try store.enqueue([split(), StoreFixture.request("other", priority: 5)])[0]
        let parent = try XCTUnwrap(try store.job(id: id))
        XCTAssertTrue(parent.isAssembly)
        XCTAssertEqual(parent.state, .scheduled)
        let segments = try store.segments(ofJob: id)
        XCTAssertEqual(segments.map(\.frameRange), [0..<30, 30..<60, 60..<90])
        XCTAssertEqual(segments.map(\.segmentIndex), [0, 1, 2])
        XCTAssertTrue(
            segments.allSatisfy { $0.parentID == id && $0.segmentCount == 3 && $0.state == .available })
        XCTAssertEqual(try store.jobs(states: nil).count, 5)

        let a = try XCTUnwrap(try store.claim(as: .test("w1")))
        let b = try XCTUnwrap(try store.claim(as: .test("w2")))
        XCTAssertEqual([a.job.segmentIndex, b.job.segmentIndex], [0, 1], "segments before less urgent work")
        XCTAssertTrue(try store.complete(b))
        XCTAssertEqual(try store.job(id: id)?.progress ?? 0, 1.0 / 3, accuracy: 1e-9)
        let c = try XCTUnwrap(try store.claim(as: .test("w2")))
        XCTAssertEqual(c.job.segmentIndex, 2)
        XCTAssertTrue(try store.complete(c))
        XCTAssertEqual(
            try store.claim(as: .test("w2"))?.job.name, "other", "the assembly waits for segment 1")
        XCTAssertTrue(try store.complete(a))
        let assembly = try XCTUnwrap(try store.claim(as: .test("w3")))
        XCTAssertEqual(assembly.job.id, id)
        XCTAssertTrue(assembly.job.isAssembly)
        XCTAssertTrue(try store.complete(assembly))
        XCTAssertEqual(try store.job(id: id)?.state, .completed)
        XCTAssertNil(try store.claim(as: .test("w3")))
    }

    /// A segment that runs out of attempts ends its job: the job is discarded once, the waiting
    /// segments are cancelled and the running ones asked to stop; a retry of the job runs only
    /// the segments that did not complete, and a segment id stands for its job.
    static func aDiscardedSegmentEndsItsJob(_ fixture: StoreFixture) throws {
        let store = try fixture.store()
        let id = try store.enqueue([split(segments: 4)])[0]
        let first = try XCTUnwrap(try store.claim(as: .test("w1")))
        XCTAssertTrue(try store.complete(first))
        let running = try XCTUnwrap(try store.claim(as: .test("w1")))
        let failing = try XCTUnwrap(try store.claim(as: .test("w2")))
        XCTAssertTrue(try store.fail(failing, error: "asset vanished", permanent: true))
        let job = try XCTUnwrap(try store.job(id: id))
        XCTAssertEqual(job.state, .discarded)
        XCTAssertEqual(job.lastError, "segment 3 of 4 was discarded")
        let states = try store.segments(ofJob: id).map(\.state)
        XCTAssertEqual(states, [.completed, .running, .discarded, .cancelled])
        XCTAssertEqual(
            try store.heartbeat(running, progress: 0.5, stage: "rendering"), .renewed(cancelRequested: true))
        XCTAssertTrue(try store.acknowledgeCancel(running))
        XCTAssertEqual(try store.job(id: id)?.state, .discarded, "ended once, as the first end said")
        XCTAssertNil(try store.claim(as: .test("w1")))

        XCTAssertTrue(try store.retry(id: running.job.id), "a segment's id retries its job")
        XCTAssertEqual(try store.job(id: id)?.state, .scheduled)
        XCTAssertEqual(
            try store.segments(ofJob: id).map(\.state), [.completed, .available, .available, .available])
        var claimed: [Int?] = []
        while let claim = try store.claim(as: .test("w1")) {
            claimed.append(claim.job.segmentIndex)
            XCTAssertTrue(try store.complete(claim))
        }
        XCTAssertEqual(claimed, [1, 2, 3, nil], "the three unfinished segments, then the assembly")
        XCTAssertEqual(try store.job(id: id)?.state, .completed)
    }

    /// Cancelling a split job (by its id or a segment's) stops all of it; an exhausted segment
    /// reaped from a dead worker ends its job too; pruning takes a job with its segments.
    static func cancelReapAndPruneSplitJobs(_ fixture: StoreFixture) throws {
        let store = try fixture.store()
        var later = split("b", segments: 2)
        later.runAt = fixture.clock.wall() + 10_000_000
        let ids = try store.enqueue([split("a"), later])
        let running = try XCTUnwrap(try store.claim(as: .test("w")))
        XCTAssertEqual(running.job.parentID, ids[0])
        XCTAssertTrue(try store.cancel(id: try store.segments(ofJob: ids[0])[2].id))
        XCTAssertEqual(try store.job(id: ids[0])?.state, .cancelled)
        XCTAssertEqual(
            try store.segments(ofJob: ids[0]).map(\.state), [.running, .cancelled, .cancelled])
        XCTAssertEqual(
            try store.heartbeat(running, progress: 0.1, stage: "rendering"), .renewed(cancelRequested: true))
        XCTAssertTrue(try store.acknowledgeCancel(running))

        var request = split("c", segments: 2)
        request.maxAttempts = 1
        let c = try store.enqueue([request])[0]
        let gone = WorkerIdentity(
            name: "gone", host: ProcessInfo.processInfo.hostName, pid: Int32.max - 1, processStart: 1)
        var claim = try XCTUnwrap(try store.claim(as: gone))
        while claim.job.parentID != c {
            XCTAssertTrue(try store.complete(claim))
            claim = try XCTUnwrap(try store.claim(as: gone))
        }
        XCTAssertGreaterThanOrEqual(try store.reap(), 1)
        XCTAssertEqual(try store.job(id: c)?.state, .discarded, "its segment had no attempts left")
        XCTAssertEqual(try store.job(id: c)?.lastError, "segment 1 of 2 was discarded")

        fixture.clock.advance(86_400)
        XCTAssertEqual(try store.prune(endedBefore: fixture.clock.wall() - 3600), 2, "jobs a and c")
        XCTAssertNil(try store.job(id: running.job.id), "segments go with their job")
        XCTAssertTrue(try store.segments(ofJob: ids[0]).isEmpty)
        XCTAssertEqual(try store.segments(ofJob: ids[1]).count, 2, "b has not run and stays")
    }

    static func backoffFormula() {
        let policy = RetryPolicy()
        XCTAssertEqual(policy.backoff(afterAttempt: 1, unit: 0.5), 15)
        XCTAssertEqual(policy.backoff(afterAttempt: 3, unit: 0.5), 60)
        XCTAssertEqual(policy.backoff(afterAttempt: 20, unit: 0.5), 3600, "capped at an hour")
        XCTAssertEqual(policy.backoff(afterAttempt: 1, unit: 0), 13.5, accuracy: 1e-9)
        XCTAssertEqual(policy.backoff(afterAttempt: 1, unit: 1), 16.5, accuracy: 1e-9)
    }
}
