import Foundation
import XCTest

/// The contract against the embedded SQLite store.
final class SQLiteQueueStoreTests: XCTestCase {
    private func fixture() throws -> StoreFixture { try StoreFixture() }

    func testEnqueueClaimHeartbeatComplete() throws {
        try StoreContract.enqueueClaimHeartbeatComplete(try fixture())
    }
    func testPriorityAndRunAtOrderClaims() throws {
        try StoreContract.priorityAndRunAtOrderClaims(try fixture())
    }
    func testIdempotencyKeyMakesOneJob() throws { try StoreContract.idempotencyKeyMakesOneJob(try fixture()) }
    func testTransientFailuresBackOffThenDiscard() throws {
        try StoreContract.transientFailuresBackOffThenDiscard(try fixture())
    }
    func testPermanentErrorDiscardsAfterOneAttempt() throws {
        try StoreContract.permanentErrorDiscardsAfterOneAttempt(try fixture())
    }
    func testReleaseDoesNotChargeTheAttempt() throws {
        try StoreContract.releaseDoesNotChargeTheAttempt(try fixture())
    }
    func testCancelWaitingAndRunningJobs() throws {
        try StoreContract.cancelWaitingAndRunningJobs(try fixture())
    }
    func testProgressReportsAreFencedAndSeeACancel() throws {
        try StoreContract.progressReportsAreFencedAndSeeACancel(try fixture())
    }
    func testStateChangesResetProgressAndStage() throws {
        try StoreContract.stateChangesResetProgressAndStage(try fixture())
    }
    func testAWaitingSplitJobShowsItsSegments() throws {
        try StoreContract.aWaitingSplitJobShowsItsSegments(try fixture())
    }
    func testExpiredLeaseIsReapedAndTheOldOwnerFencedOff() throws {
        try StoreContract.expiredLeaseIsReapedAndTheOldOwnerFencedOff(try fixture())
    }
    func testWallClockJumpsDoNotExpireLeases() throws {
        try StoreContract.wallClockJumpsDoNotExpireLeases(try fixture())
    }
    func testALeaseFromBeforeARebootIsStale() throws {
        try StoreContract.aLeaseFromBeforeARebootIsStale(try fixture())
    }
    func testDeadOwnerIsReclaimedAtOnce() throws {
        try StoreContract.deadOwnerIsReclaimedAtOnce(try fixture())
    }
    func testPruneDeletesOnlyOldTerminalJobs() throws {
        try StoreContract.pruneDeletesOnlyOldTerminalJobs(try fixture())
    }
    func testBatchEnqueueIsAllOrNothing() throws {
        try StoreContract.batchEnqueueIsAllOrNothing(try fixture())
    }

    func testAReapedJobWithAPendingCancelEndsCancelled() throws {
        try StoreContract.aReapedJobWithAPendingCancelEndsCancelled(try fixture())
    }

    func testOneEnqueueIsOneBatch() throws {
        try StoreContract.oneEnqueueIsOneBatch(try fixture())
    }

    func testEachEndIsAnnouncedOnce() throws {
        try StoreContract.eachEndIsAnnouncedOnce(try fixture())
    }
    func testReopeningKeepsTheSchemaAndData() throws {
        try StoreContract.reopeningKeepsTheSchemaAndData(try fixture())
    }
    func testSplitJobAssemblesAfterItsSegments() throws {
        try StoreContract.splitJobAssemblesAfterItsSegments(try fixture())
    }
    func testADiscardedSegmentEndsItsJob() throws {
        try StoreContract.aDiscardedSegmentEndsItsJob(try fixture())
    }
    func testCancelReapAndPruneSplitJobs() throws {
        try StoreContract.cancelReapAndPruneSplitJobs(try fixture())
    }
    func testATakenScheduleNameIsOneError() throws {
        try ScheduleContract.aTakenNameIsOneErrorOnEveryBackend(try fixture())
    }
    func testUpdateScheduleChangesOnlyWhatIsGiven() throws {
        try ScheduleContract.updateChangesOnlyWhatIsGiven(try fixture())
    }

    func testTheDatabaseStaysSound() throws {
        let fixture = try fixture()
        let store = try fixture.store()
        try StoreContract.enqueueClaimHeartbeatComplete(fixture)
        XCTAssertEqual(try store.integrityCheck(), "ok")
    }
}
