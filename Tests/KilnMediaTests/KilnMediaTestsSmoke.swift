import XCTest

final class KilnMediaTestsSmoke: XCTestCase {
    func testBuilds() { XCTAssertTrue(true) }
}
