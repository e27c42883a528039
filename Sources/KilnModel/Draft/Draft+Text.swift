import Foundation

/// A draft as one line of text, for what stores it (a queued job renders its draft on whichever
/// worker claims it): `scale=0.5 range=2-5`, the same words `kiln render` takes as options.
extension Draft {
    /// Times are written with `NumberText.seconds`: digits and a point, never an exponent,
    /// whose minus a range would split on.
    public var text: String {
        var words: [String] = []
        switch size {
        case .scale(let factor)?: words.append("scale=\(factor)")
        case .pixels(let width, let height)?:
            words.append("size=\(width.map(String.init) ?? "")x\(height.map(String.init) ?? "")")
        case nil: break
        }
        switch span {
        case .range(let from, let to)?:
            words.append("range=\(from.map(NumberText.seconds) ?? "")-\(to.map(NumberText.seconds) ?? "")")
        case .duration(let seconds)?: words.append("duration=\(NumberText.seconds(seconds))")
        case nil: break
        }
        return words.joined(separator: " ")
    }

    /// Reads `text` back; "" is no draft.
    public init(text: String) throws(DraftError) {
        self.init()
        for word in text.split(separator: " ") {
            let parts = word.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { throw DraftError("a stored draft has '\(word)', not NAME=VALUE") }
            switch parts[0] {
            case "scale":
                guard let factor = Double(parts[1]) else {
                    throw DraftError("a stored draft's scale is '\(parts[1])'")
                }
                size = .scale(factor)
            case "size": size = try DraftSize(sizeText: parts[1])
            case "range": span = try DraftSpan(rangeText: parts[1])
            case "duration":
                guard let seconds = Double(parts[1]) else {
                    throw DraftError("a stored draft's duration is '\(parts[1])'")
                }
                span = .duration(seconds)
            default: throw DraftError("a stored draft has an unknown part '\(parts[0])'")
            }
        }
    }
}
