/// The marked regions of a hand-written document that a program owns:
///
///     <!-- BEGIN GENERATED: effects -->
///     …replaced on every run…
///     <!-- END GENERATED -->
///
/// Everything outside the markers is kept byte for byte. Every region the program generates must
/// be marked in the document and every marked region must be one it generates, so a new registry
/// entry without a place in the docs, or a stale marker, is an error rather than silence.
public struct GeneratedRegions: Sendable {
    public struct Region: Sendable {
        public let id: String
        public let markdown: String

        public init(id: String, markdown: String) {
            self.id = id
            self.markdown = markdown
        }
    }

    public struct Problem: Error, CustomStringConvertible {
        public let description: String
    }

    public let regions: [Region]

    public init(_ regions: [Region]) {
        precondition(Set(regions.map(\.id)).count == regions.count, "duplicate generated region ids")
        self.regions = regions
    }

    static let beginPrefix = "<!-- BEGIN GENERATED: "
    static let end = "<!-- END GENERATED -->"

    /// The document with every marked region replaced by its generated text.
    /// `file` names the document in problems, which give the line of the marker at fault.
    public func rewrite(_ document: String, file: String) throws(Problem) -> String {
        let markdown = Dictionary(uniqueKeysWithValues: regions.map { ($0.id, $0.markdown) })
        var output: [Substring] = []
        var open: (id: String, line: Int)?
        var seen: Set<String> = []
        let lines = document.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated() {
            let trimmed = line.trimmingSpaces
            if let id = Self.beginID(trimmed) {
                if let open { throw problem(file, index, "region '\(id)' begins inside region '\(open.id)'") }
                guard let text = markdown[id] else {
                    let known = regions.map(\.id).joined(separator: ", ")
                    throw problem(file, index, "unknown generated region '\(id)' (known: \(known))")
                }
                guard seen.insert(id).inserted else {
                    throw problem(file, index, "region '\(id)' appears twice")
                }
                open = (id, index)
                output.append(line)
                output.append(Substring(text))
            } else if trimmed == Self.end {
                guard open != nil else { throw problem(file, index, "END GENERATED without a BEGIN") }
                open = nil
                output.append(line)
            } else if open == nil {
                output.append(line)
            }
        }
        if let open { throw problem(file, open.line, "region '\(open.id)' has no END GENERATED line") }
        let missing = regions.map(\.id).filter { !seen.contains($0) }
        if !missing.isEmpty {
            throw Problem(
                description: "\(file): no place for generated region(s) \(missing.joined(separator: ", ")); "
                    + "add '\(Self.beginPrefix)ID -->' and '\(Self.end)' lines where each belongs")
        }
        return output.joined(separator: "\n")
    }

    private static func beginID(_ line: Substring) -> String? {
        guard line.hasPrefix(beginPrefix), line.hasSuffix(" -->") else { return nil }
        return String(line.dropFirst(beginPrefix.count).dropLast(4))
    }

    private func problem(_ file: String, _ index: Int, _ message: String) -> Problem {
        Problem(description: "\(file):\(index + 1): \(message)")
    }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        var text = self
        while text.first == " " { text = text.dropFirst() }
        while text.last == " " || text.last == "\r" { text = text.dropLast() }
        return text
    }
}
