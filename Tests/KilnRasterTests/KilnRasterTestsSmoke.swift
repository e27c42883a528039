import XCTest

final class KilnRasterTestsSmoke: XCTestCase {
    func testBuilds() { XCTAssertTrue(true) }
}
