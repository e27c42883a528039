import Foundation
import KilnSymbols
import XCTest

/// The symbol fuzz target's seeds must stay valid symbols, or fuzzing from them reaches only the
/// first error path.
final class SymbolFuzzSeedTests: XCTestCase {
    func testSeedsAreSymbolsWithLayers() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fuzz/Corpus/symbol")
        let seeds = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
        XCTAssertGreaterThanOrEqual(seeds.count, 4)
        for seed in seeds {
            let artwork = try SymbolCatalog.parse(Array(try Data(contentsOf: seed)), file: seed.path)
            XCTAssertFalse(artwork.layers.isEmpty, seed.lastPathComponent)
        }
    }
}
