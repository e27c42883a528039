import Foundation
import KilnMedia
import XCTest

/// Inputs on which `scripts/fuzz.sh` found a crash, kept under `Tests/Fuzz/Crashes/`.
final class FuzzFindingTests: XCTestCase {
    static let crashes = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz/Crashes")

    /// A mutated mono MP3 whose later frames decode as stereo: the resampler opened for the first
    /// frame was handed two planes' worth of input and libswresample read a plane that was not
    /// there (SIGSEGV in swr_convert, so `kiln validate` and a worker died on the job's audio).
    func testMP3WhoseFramesChangeChannelCountDecodes() throws {
        let file = Self.crashes.appendingPathComponent("audio-header/mp3-format-change.mp3")
        let reader = try AudioFileReader(path: file.path)
        let (left, right) = try reader.readAll()
        XCTAssertGreaterThan(left.count, 0)
        XCTAssertEqual(left.count, right.count)
        XCTAssertTrue(left.allSatisfy(\.isFinite) && right.allSatisfy(\.isFinite))
    }

    /// A mutated WAV whose header claims 1 074 724 864 Hz: libswresample spent minutes building
    /// a filter bank for that ratio (the fuzzer's timeout). The rate is refused before any
    /// resampler is made, naming what was expected.
    func testWAVClaimingAGigahertzSampleRateIsRefused() throws {
        let file = Self.crashes.appendingPathComponent("audio-header/sample-rate-1ghz.wav")
        XCTAssertThrowsError(try AudioFileReader(path: file.path).readAll()) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains("1074724864 Hz"), text)
            XCTAssertTrue(text.contains("expected 1000…768000 Hz"), text)
        }
    }
}
