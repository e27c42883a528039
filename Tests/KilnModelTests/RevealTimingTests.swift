import KilnModel
import XCTest

/// The text reveal's timing: starts spread evenly, the first at 0 and the last ending at the total.
final class RevealTimingTests: XCTestCase {
    func testFirstStartsAtZeroAndLastEndsAtTheTotal() {
        for count in [1, 2, 3, 7, 40] {
            let timing = RevealTiming(count: count, elementDuration: 0.4, totalDuration: 0.9)
            XCTAssertEqual(timing.start(of: 0), 0)
            XCTAssertEqual(
                timing.start(of: count - 1) + timing.elementDuration, count == 1 ? 0.4 : 0.9, accuracy: 1e-12)
            for i in 1..<max(count, 1) {
                XCTAssertEqual(timing.start(of: i) - timing.start(of: i - 1), timing.delay, accuracy: 1e-12)
            }
        }
    }

    func testEachElementRunsForItsDurationClamped() {
        let timing = RevealTiming(count: 3, elementDuration: 0.4, totalDuration: 0.9)
        XCTAssertEqual(timing.delay, 0.25, accuracy: 1e-12)
        XCTAssertEqual(timing.time(of: 1, at: 0.2), 0)
        XCTAssertEqual(timing.time(of: 1, at: 0.35), 0.1, accuracy: 1e-12)
        XCTAssertEqual(timing.time(of: 1, at: 5), 0.4)
        XCTAssertEqual(timing.progress(of: 2, at: 0.9), 1)
        XCTAssertEqual(timing.progress(of: 2, at: 0.5), 0)
    }

    func testAnElementLongerThanTheTotalIsCutToIt() {
        let timing = RevealTiming(count: 4, elementDuration: 2, totalDuration: 0.9)
        XCTAssertEqual(timing.elementDuration, 0.9)
        XCTAssertEqual(timing.delay, 0)
    }
}
