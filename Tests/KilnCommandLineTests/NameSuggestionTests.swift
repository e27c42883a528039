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

    /// A name cut short is suggested whole, with the close one first; too many starts say nothing.
    func testAWordCutShortSuggestsTheNamesItBegins() {
        let names = ["--threads", "--set", "--segments", "--segment-seconds"]
        XCTAssertEqual(NameSuggestion.suggestions(for: "--thr", among: names), ["--threads"])
        XCTAssertEqual(
            NameSuggestion.suggestions(for: "--seg", among: names),
            ["--set", "--segments", "--segment-seconds"])
        XCTAssertEqual(
            NameSuggestion.suggestions(for: "--segm", among: names), ["--segments", "--segment-seconds"])
        XCTAssertEqual(
            NameSuggestion.hint(for: "--segm", among: names),
            "; did you mean '--segments' or '--segment-seconds'?")
        XCTAssertEqual(
            NameSuggestion.hint(for: "sched", among: ["schedule", "status"]), "; did you mean 'schedule'?")
        XCTAssertEqual(
            NameSuggestion.suggestions(for: "re", among: ["render", "retry", "remove", "resume"]), [],
            "four names begin with re")
        XCTAssertEqual(NameSuggestion.suggestions(for: "-x", among: ["--xyz"]), [], "one letter is no start")
        XCTAssertEqual(NameSuggestion.suggestions(for: "--threads", among: names), ["--threads"])
    }

    func testDistantOrTinyWordsSuggestNothing() {
        XCTAssertNil(NameSuggestion.closest(to: "--colour", among: ["--threads", "--json"]))
        XCTAssertNil(NameSuggestion.closest(to: "x", among: ["t", "y"]))
        XCTAssertNil(NameSuggestion.closest(to: "anything", among: []))
        XCTAssertEqual(NameSuggestion.hint(for: "rendr", among: ["render"]), "; did you mean 'render'?")
        XCTAssertEqual(NameSuggestion.hint(for: "zzz", among: ["render"]), "")
    }
}
