import KilnCommandLine
import XCTest

final class NameSuggestionTests: XCTestCase {
    func testCloseWordsAreSuggested() {
        let names = ["--threads", "--progress", "--segments", "--segment-seconds"]
        XCTAssertEqual(NameSuggestion.closest(to: "--thread", among: names), "--threads")
        XCTAssertEqual(
            NameSuggestion.closest(to: "--thraeds", among: names), "--threads", "a swap is one edit")
        XCTAssertEqual(NameSuggestion.closest(to: "--PROGRESS", among: names), "--progress")
        XCTAssertEqual(NameSuggestion.closest(to: "--segment-second", among: names), "--segment-seconds")
    }

    func testDistantOrTinyWordsSuggestNothing() {
        XCTAssertNil(NameSuggestion.closest(to: "--colour", among: ["--threads", "--json"]))
        XCTAssertNil(NameSuggestion.closest(to: "x", among: ["t", "y"]))
        XCTAssertNil(NameSuggestion.closest(to: "anything", among: []))
        XCTAssertEqual(NameSuggestion.hint(for: "rendr", among: ["render"]), "; did you mean 'render'?")
        XCTAssertEqual(NameSuggestion.hint(for: "zzz", among: ["render"]), "")
    }
}
