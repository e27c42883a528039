import KilnModel
import XCTest

/// Issue 41, item 2: one budget for the sum of what a job's layers allocate.
final class MemoryBudgetTests: XCTestCase {
    func testChargesAddUpAndStopAtTheBudget() throws {
        let limits = try ResourceLimits(overrides: ["memory-megabytes": 100])
        let budget = MemoryBudget(limits: limits)
        let mb = MemoryBudget.megabyte
        XCTAssertTrue(budget.charge(.image, 40 * mb, "image a.png 10×10", at: .root.key("layers").index(0)))
        XCTAssertTrue(budget.charge(.text, 40 * mb, "text picture 5×5", at: .root.key("layers").index(1)))
        XCTAssertFalse(budget.isOver)
        // Briefly needed memory counts in the peak, not in what is held.
        XCTAssertFalse(
            budget.charge(.image, 10 * mb, briefly: 30 * mb, "image b.png", at: .root.key("layers").index(2)))
        XCTAssertEqual(budget.held, 90 * mb)
        XCTAssertEqual(budget.peak, 120 * mb)
        XCTAssertTrue(budget.isOver)
        let message = budget.message
        XCTAssertTrue(message.contains("over its memory budget"), message)
        XCTAssertTrue(message.contains("memory-megabytes = 100"), message)
        XCTAssertTrue(message.contains("--limit memory-megabytes=N"), message)
        // Largest first, each with its JSON path.
        let first = try XCTUnwrap(message.range(of: "the largest: layers[0] image a.png 10×10 40 MB"))
        let last = try XCTUnwrap(message.range(of: "layers[2] image b.png 40 MB"))
        XCTAssertLessThan(first.lowerBound, last.lowerBound)
    }

    func testTheWorkingSetCountsOnTopOfWhatIsHeld() {
        let budget = MemoryBudget(limits: ResourceLimits())
        let mb = MemoryBudget.megabyte
        budget.charge(.image, 600 * mb, "image", at: .root)
        budget.chargeWorkingSet(.encoder, 300 * mb, "encoder", at: .root.key("output"))
        XCTAssertFalse(budget.isOver)
        budget.chargeWorkingSet(.offscreen, 200 * mb, "offscreens", at: .root.key("layers"))
        XCTAssertTrue(budget.isOver)
        XCTAssertEqual(budget.held, 600 * mb)
    }

    func testTheLimitHasANameAndADefault() throws {
        XCTAssertEqual(ResourceLimits()[.memoryMegabytes], 1024)
        XCTAssertEqual(ResourceLimits.Name(rawValue: "memory-megabytes"), .memoryMegabytes)
        XCTAssertThrowsError(try ResourceLimits(overrides: ["memory-megabytes": 1.5]))
    }
}
