/// A symbol effect's dot name as SF Symbols spells it (`variableColor.iterative.reversing`): the
/// base effect and at most one option from each of its option groups, in any order after the base.
public struct SymbolEffectName: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case bounce, pulse, variableColor, scale, appear, disappear
    }

    public enum Direction: String, Sendable, Hashable, CaseIterable { case up, down }

    /// Whether the layers of the symbol move one after another or the symbol moves as one.
    public enum Scope: String, Sendable, Hashable, CaseIterable { case byLayer, wholeSymbol }

    /// Variable colour: one layer lit at a time, or the lit layers piling up.
    public enum Fill: String, Sendable, Hashable, CaseIterable { case iterative, cumulative }

    /// Variable colour: whether each cycle runs back down after running up.
    public enum Reversal: String, Sendable, Hashable, CaseIterable { case reversing, nonReversing }

    /// Variable colour: how the layers that are not lit are drawn.
    public enum InactiveLayers: String, Sendable, Hashable, CaseIterable {
        case dimInactiveLayers, hideInactiveLayers
    }

    public var kind: Kind
    public var direction: Direction?
    public var scope: Scope?
    public var fill: Fill?
    public var reversal: Reversal?
    public var inactiveLayers: InactiveLayers?

    public init(
        kind: Kind, direction: Direction? = nil, scope: Scope? = nil, fill: Fill? = nil,
        reversal: Reversal? = nil, inactiveLayers: InactiveLayers? = nil
    ) {
        self.kind = kind
        self.direction = direction
        self.scope = scope
        self.fill = fill
        self.reversal = reversal
        self.inactiveLayers = inactiveLayers
    }

    /// The option groups a base effect accepts, each a list of alternatives.
    public static func optionGroups(of kind: Kind) -> [[String]] {
        let direction = Direction.allCases.map(\.rawValue)
        let scope = Scope.allCases.map(\.rawValue)
        switch kind {
        case .bounce, .scale, .appear, .disappear: return [direction, scope]
        case .pulse: return [scope]
        case .variableColor:
            return [
                Fill.allCases.map(\.rawValue), Reversal.allCases.map(\.rawValue),
                InactiveLayers.allCases.map(\.rawValue),
            ]
        }
    }

    /// Every dot name of `kind` that `parse` accepts: the base, then at most one option of each
    /// group, the groups in any order.
    public static func spellings(of kind: Kind) -> [String] {
        func options(_ groups: [[String]]) -> [[String]] {
            var result: [[String]] = [[]]
            for (index, group) in groups.enumerated() {
                var rest = groups
                rest.remove(at: index)
                for option in group { result += options(rest).map { [option] + $0 } }
            }
            return result
        }
        return options(optionGroups(of: kind)).map { ([kind.rawValue] + $0).joined(separator: ".") }
    }

    /// Reads `text`, reporting the first problem with the accepted spellings.
    public static func parse(_ text: String) throws(SymbolEffectNameError) -> SymbolEffectName {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let base = parts[0]
        let known = Kind.allCases.map(\.rawValue)
        guard let kind = Kind(rawValue: base) else {
            if base == "replace" {
                throw SymbolEffectNameError(
                    "'replace' is not a symbol effect: it is a symbol layer's 'contentTransition' "
                        + "(e.g. \"replace.downUp\")")
            }
            throw SymbolEffectNameError(
                "unknown symbol effect '\(base)'\(Suggestion.hint(for: base, among: known)) "
                    + "(known: \(known.joined(separator: ", ")))")
        }
        var name = SymbolEffectName(kind: kind)
        let groups = optionGroups(of: kind)
        var chosen: [Int: String] = [:]
        for option in parts.dropFirst() {
            guard let group = groups.firstIndex(where: { $0.contains(option) }) else {
                let all = groups.flatMap { $0 }
                let accepted = groups.map { $0.joined(separator: "|") }.joined(separator: ", ")
                let what =
                    option.isEmpty ? "an empty option (two dots in a row, or a trailing dot)" : "'\(option)'"
                throw SymbolEffectNameError(
                    "\(what) is not an option of \(base)\(Suggestion.hint(for: option, among: all)) "
                        + "(\(base) takes at most one of each: \(accepted))")
            }
            if let previous = chosen[group] {
                throw SymbolEffectNameError(
                    previous == option
                        ? "option '\(option)' is given twice"
                        : "options '\(previous)' and '\(option)' exclude each other: give at most one of "
                            + groups[group].joined(separator: ", "))
            }
            chosen[group] = option
            name.set(option)
        }
        return name
    }

    private mutating func set(_ option: String) {
        if let value = Direction(rawValue: option) { direction = value }
        if let value = Scope(rawValue: option) { scope = value }
        if let value = Fill(rawValue: option) { fill = value }
        if let value = Reversal(rawValue: option) { reversal = value }
        if let value = InactiveLayers(rawValue: option) { inactiveLayers = value }
    }

    /// The dot name, options in their groups' order.
    public var description: String {
        let options: [String?] = [
            direction?.rawValue, scope?.rawValue, fill?.rawValue, reversal?.rawValue,
            inactiveLayers?.rawValue,
        ]
        return ([kind.rawValue] + options.compactMap { $0 }).joined(separator: ".")
    }
}
