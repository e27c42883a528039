import Foundation
import XCTest

/// The docs cite source files by path (`Sources/KilnScene/LayerRegistry.swift`) and by name
/// (`Offscreen.swift`); files move, so every citation is checked against the tree.
final class DocumentationPathsTests: XCTestCase {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// README.md and docs/*.md.
    private func documents() throws -> [(name: String, text: String)] {
        let docs = Self.root.appendingPathComponent("docs")
        let names = try FileManager.default.contentsOfDirectory(atPath: docs.path).filter {
            $0.hasSuffix(".md")
        }
        .sorted().map { "docs/\($0)" }
        XCTAssertFalse(names.isEmpty, "no docs/*.md under \(Self.root.path)")
        return try (["README.md"] + names).map { name in
            (name, try String(contentsOf: Self.root.appendingPathComponent(name), encoding: .utf8))
        }
    }

    private func matches(_ pattern: String, in text: String) throws -> [(match: String, line: Int)] {
        let expression = try NSRegularExpression(pattern: pattern)
        let range = NSRange(text.startIndex..., in: text)
        return expression.matches(in: text, range: range).compactMap { result in
            guard let found = Range(result.range, in: text) else { return nil }
            let line = text[..<found.lowerBound].reduce(1) { $1 == "\n" ? $0 + 1 : $0 }
            return (String(text[found]), line)
        }
    }

    func testEveryCitedRepositoryPathExists() throws {
        var missing: [String] = []
        for (name, text) in try documents() {
            // A path under one of the repository's folders, or under `shared/` (the design notes
            // the project started from, which are not part of it). `Sources/KilnScene/*Effect.swift`
            // and `{job}` templates are patterns, not files.
            let pattern =
                #"(?<![\w/.~-])(?:Sources|Tests|scripts|docs|shared|\.ci)/[A-Za-z0-9_./+-]*(?![*{…\w])"#
            for (path, line) in try matches(pattern, in: text) {
                let trimmed = String(path.reversed().drop { ".,:;/".contains($0) }.reversed())
                if !FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(trimmed).path) {
                    missing.append("\(name):\(line): \(trimmed)")
                }
            }
        }
        XCTAssertEqual(missing, [], "cited paths that are not in the repository")
    }

    func testEverySourceFileNamedExists() throws {
        var present: Set<String> = []
        for folder in ["Sources", "Tests", "scripts"] {
            let walker = FileManager.default.enumerator(atPath: Self.root.appendingPathComponent(folder).path)
            while let path = walker?.nextObject() as? String {
                present.insert((path as NSString).lastPathComponent)
            }
        }
        XCTAssertTrue(
            present.contains("JobLoader.swift"), "the source tree was not found under \(Self.root.path)")
        var missing: [String] = []
        for (name, text) in try documents() {
            for (file, line) in try matches(
                #"(?<![\w/*.+-])[A-Za-z][A-Za-z0-9+_-]*\.(?:swift|sh|py)\b"#, in: text)
            where !present.contains(file) {
                missing.append("\(name):\(line): \(file)")
            }
        }
        XCTAssertEqual(
            missing, [], "source files named in the docs that are not in Sources, Tests or scripts")
    }
}
