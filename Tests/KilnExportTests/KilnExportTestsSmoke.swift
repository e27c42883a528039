import XCTest

final class KilnExportTestsSmoke: XCTestCase {
    func testBuilds() { XCTAssertTrue(true) }
}
