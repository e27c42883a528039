import Foundation
import KilnMedia
import XCTest

/// The image and audio seeds of `scripts/fuzz.sh` must stay readable: a seed the probe refuses
/// only exercises its first error path.
final class FuzzSeedTests: XCTestCase {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz/Corpus")

    func testImageSeedsProbeToTheirSize() throws {
        let expected: [String: (ImageFormat, Int, Int)] = [
            "alpha.webp": (.webp, 4, 4), "gray.png": (.png, 6, 4), "lossless.webp": (.webp, 4, 4),
            "lossy.webp": (.webp, 4, 4), "progressive.jpg": (.jpeg, 8, 8), "tiny.jpg": (.jpeg, 8, 8),
            "tiny.png": (.png, 2, 2),
        ]
        let seeds = try seeds("image-header")
        XCTAssertEqual(Set(seeds.map(\.lastPathComponent)), Set(expected.keys))
        for seed in seeds {
            let header = try ImageFile.probe(seed)
            let (format, width, height) = try XCTUnwrap(expected[seed.lastPathComponent])
            XCTAssertEqual(header.format, format, seed.lastPathComponent)
            XCTAssertEqual(header.width, width, seed.lastPathComponent)
            XCTAssertEqual(header.height, height, seed.lastPathComponent)
        }
    }

    func testAudioSeedsOpenWithTheirLength() throws {
        let seeds = try seeds("audio-header")
        XCTAssertEqual(seeds.count, 5)
        for seed in seeds {
            let reader = try AudioFileReader(path: seed.path)
            // 50–100 ms of tone; MP3's encoder delay and padding make it about 157 ms.
            XCTAssertEqual(reader.info.durationSeconds, 0.1, accuracy: 0.06, seed.lastPathComponent)
        }
    }

    private func seeds(_ target: String) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(
            at: Self.corpus.appendingPathComponent(target), includingPropertiesForKeys: nil)
    }
}
