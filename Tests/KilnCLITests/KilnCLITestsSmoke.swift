import XCTest

final class KilnCLITestsSmoke: XCTestCase {
    func testBuilds() { XCTAssertTrue(true) }
}
