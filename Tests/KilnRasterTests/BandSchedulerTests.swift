import KilnRaster
import XCTest

final class BandSchedulerTests: XCTestCase {
    func testEveryRowVisitedOnceForAnyThreadCount() {
        for threads in [1, 2, 3, 8] {
            let scheduler = BandScheduler(height: 1080, bandHeight: 8, threads: threads)
            let visits = UnsafeMutablePointer<Int32>.allocate(capacity: 1080)
            visits.initialize(repeating: 0, count: 1080)
            defer { visits.deallocate() }
            let address = Int(bitPattern: visits)
            scheduler.run { worker, first, rows in
                precondition(worker < threads)
                let v = UnsafeMutablePointer<Int32>(bitPattern: address)!
                for r in first..<(first + rows) { v[r] += 1 }
            }
            XCTAssertTrue((0..<1080).allSatisfy { visits[$0] == 1 }, "threads \(threads)")
        }
    }
}
