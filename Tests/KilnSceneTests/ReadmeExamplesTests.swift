import Foundation
import KilnModel
import XCTest

@testable import KilnScene

/// The README's JSON examples are real jobs: they decode and draw what the text says.
final class ReadmeExamplesTests: XCTestCase {
    /// The fenced ```json blocks of README.md, in order.
    static func jsonBlocks() throws -> [String] {
        let readme = try String(
            contentsOf: Fixture.repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        return readme.components(separatedBy: "```json\n").dropFirst().compactMap {
            $0.components(separatedBy: "```").first
        }
    }

    /// The text layer, put in the minimal job as the README says, titles the video: by 2.5 s
    /// every glyph is in, white, in the middle of the frame.
    func testTheTextExampleTitlesTheMinimalJob() throws {
        let blocks = try Self.jsonBlocks()
        XCTAssertGreaterThanOrEqual(blocks.count, 2)
        let minimal = blocks[0], text = blocks[1].trimmingCharacters(in: .whitespacesAndNewlines)
        let closing = try XCTUnwrap(minimal.range(of: "\n  ]\n}", options: .backwards))
        let titled = minimal.replacingCharacters(in: closing, with: ",\n    \(text)\n  ]\n}")
        let job = try Fixture.job(titled)
        XCTAssertEqual(job.layers.map(\.kind), ["solid", "meshGradient", "text"])
        let frame = Fixture.render(job, at: 2.5)
        var white = 0
        for y in 330..<390 {
            for x in 200..<1080 {
                let p = frame.pixel(x: x, y: y)
                if p[0] > 240 && p[1] > 240 && p[2] > 240 { white += 1 }
            }
        }
        XCTAssertGreaterThan(white, 2000, "the title's white glyphs across the middle")
    }
}
