import Foundation
import KilnModel
import KilnScene
import XCTest

/// docs/job-format.md's parameter tables are generated from the registry; this fails when someone
/// changes a table in the code (or adds a layer kind or effect) without `kiln docs --write`.
final class JobFormatDocsTests: XCTestCase {
    func testJobFormatTablesAreUpToDate() throws {
        let url = Fixture.repositoryRoot.appendingPathComponent(JobFormatDocs.file)
        let document = try String(contentsOf: url, encoding: .utf8)
        let fresh = try JobFormatDocs.rewrite(document)
        guard fresh != document else { return }
        let old = document.split(separator: "\n", omittingEmptySubsequences: false)
        let new = fresh.split(separator: "\n", omittingEmptySubsequences: false)
        let first =
            zip(old, new).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(old.count, new.count)
        XCTFail(
            "\(JobFormatDocs.file) is stale from line \(first + 1) (now: \(old.indices.contains(first) ? old[first] : "end of file"); "
                + "generated: \(new.indices.contains(first) ? new[first] : "end of file")); run `kiln docs --write`"
        )
    }

    func testEveryRegisteredKindIsDocumented() {
        let ids = Set(JobFormatDocs.regions.regions.map(\.id))
        for kind in LayerRegistry.kinds { XCTAssertTrue(ids.contains("layer.\(kind.name)"), kind.name) }
        let effects = JobFormatDocs.regions.regions.first { $0.id == "effects" }?.markdown ?? ""
        for effect in LayerRegistry.effects {
            XCTAssertTrue(effects.contains("| `\(effect.name)`: \(effect.summary)"), effect.name)
            for parameter in effect.parameters.parameters {
                XCTAssertTrue(
                    effects.contains("| `\(parameter.name)` | \(parameter.kind.description) |"),
                    parameter.name)
            }
        }
    }
}
