import KilnMedia
import XCTest

final class MediaLibrariesTests: XCTestCase {
    func testVersionSummaryNamesEachLibraryWithDottedVersion() {
        let summary = MediaLibraries.versionSummary
        for library in ["libavcodec", "libavformat", "libavutil", "libswscale"] {
            XCTAssertNotNil(
                summary.range(of: "\(library) [0-9]+\\.[0-9]+\\.[0-9]+", options: .regularExpression), summary
            )
        }
    }

    func testMediaErrorDescriptionNamesFunctionAndMessage() {
        let error = MediaError(function: "avcodec_open2", code: -22, message: "Invalid argument")
        XCTAssertEqual(error.description, "avcodec_open2 failed: Invalid argument (-22)")
    }
}
