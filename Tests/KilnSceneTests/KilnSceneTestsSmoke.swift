import XCTest

final class KilnSceneTestsSmoke: XCTestCase {
    func testBuilds() { XCTAssertTrue(true) }
}
