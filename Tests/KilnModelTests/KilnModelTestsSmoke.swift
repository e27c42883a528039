import XCTest

final class KilnModelTestsSmoke: XCTestCase {
    func testBuilds() { XCTAssertTrue(true) }
}
