import Foundation
import XCTest

final class PostgresSegmentedQueueTests: PostgresQueueTestCase {
    func testThreeWorkersOneKilledShareASplitJob() throws {
        try SplitJobScenario.run(self, checkDatabase: false)
    }
}
