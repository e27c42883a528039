/// How a symbol layer moves from one artwork to the next at a replacement (SF Symbols' Replace,
/// `"contentTransition"` of a symbol layer): `replace[.downUp|.upUp|.offUp][.byLayer|.wholeSymbol]`.
/// The first word says what the old artwork does (shrinks away, grows away, vanishes at once),
/// the second what the new one does (grows in).
public struct SymbolContentTransition: Sendable, Hashable, CustomStringConvertible {
    public enum Style: String, Sendable, Hashable, CaseIterable { case downUp, upUp, offUp }

    public var style: Style
    public var scope: SymbolEffectName.Scope

    /// SF Symbols' default replace: `replace.downUp.byLayer`.
    public static let `default` = SymbolContentTransition(style: .downUp, scope: .byLayer)

    /// Every spelling `init(parsing:)` accepts: `replace`, then at most one style and one scope
    /// in either order.
    public static var names: [String] {
        let styles = Style.allCases.map(\.rawValue), scopes = SymbolEffectName.Scope.allCases.map(\.rawValue)
        var options: [[String]] = [[]] + styles.map { [$0] } + scopes.map { [$0] }
        for style in styles {
            for scope in scopes { options += [[style, scope], [scope, style]] }
        }
        return options.map { (["replace"] + $0).joined(separator: ".") }
    }

    public init(style: Style = .downUp, scope: SymbolEffectName.Scope = .byLayer) {
        self.style = style
        self.scope = scope
    }

    /// Reads a dot name such as `"replace.offUp"`; the error lists the accepted spellings.
    public init(parsing text: String) throws(SymbolEffectNameError) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let accepted =
            "replace, optionally followed by one of \(Style.allCases.map(\.rawValue).joined(separator: ", ")) "
            + "and one of \(SymbolEffectName.Scope.allCases.map(\.rawValue).joined(separator: ", "))"
        guard parts[0] == "replace" else {
            throw SymbolEffectNameError(
                "unknown content transition '\(text)'\(Suggestion.hint(for: parts[0], among: ["replace"])) "
                    + "(expected \(accepted))")
        }
        var style: Style?
        var scope: SymbolEffectName.Scope?
        for option in parts.dropFirst() {
            if let value = Style(rawValue: option), style == nil {
                style = value
            } else if let value = SymbolEffectName.Scope(rawValue: option), scope == nil {
                scope = value
            } else {
                let all = Style.allCases.map(\.rawValue) + SymbolEffectName.Scope.allCases.map(\.rawValue)
                let problem =
                    all.contains(option)
                    ? "'\(option)' repeats an option of its group" : "'\(option)' is not an option of replace"
                throw SymbolEffectNameError(
                    "\(problem)\(Suggestion.hint(for: option, among: all)) (expected \(accepted))")
            }
        }
        self.init(style: style ?? .downUp, scope: scope ?? .byLayer)
    }

    /// The content transition at `path` of a job (a string), or nil after reporting why not.
    public static func decode(_ node: JSONNode, path: JSONPath, context: DecodeContext)
        -> SymbolContentTransition?
    {
        guard let text = ValueDecoding.decodeString(node, path: path, context: context) else { return nil }
        do {
            return try SymbolContentTransition(parsing: text)
        } catch {
            context.error(error.message, at: node, path: path)
            return nil
        }
    }

    public var description: String { "replace.\(style.rawValue).\(scope.rawValue)" }

    // MARK: Timing

    private func stagger(_ layerCount: Int) -> Double {
        scope == .byLayer ? SymbolEffectTiming.replaceStagger * Double(max(layerCount - 1, 0)) : 0
    }

    /// Seconds after the replacement during which the old artwork is still drawn (0 for `offUp`).
    public func exitDuration(layerCount: Int) -> Double {
        style == .offUp ? 0 : SymbolEffectTiming.replaceExit + stagger(layerCount)
    }

    /// Seconds after the replacement until the new artwork is exactly at rest.
    public func entryDuration(layerCount: Int) -> Double {
        SymbolEffectTiming.presenceSpring.settleTime + stagger(layerCount)
    }

    /// The old artwork's deviation `elapsed` seconds after the replacement, for layer `layer` (nil:
    /// the whole symbol).
    func exitPose(elapsed: Double, layer: Int?) -> SymbolPose {
        let q = Easing.easeIn((elapsed - delay(layer)) / SymbolEffectTiming.replaceExit)
        let target =
            style == .upUp ? SymbolEffectTiming.replaceExitUpScale : SymbolEffectTiming.replaceExitDownScale
        let scale = SymbolEffectTiming.mix(1, target, q)
        return SymbolPose(scale: SIMD2(repeating: scale), opacity: SymbolEffectTiming.mix(1, 0, q))
    }

    /// The new artwork's deviation `elapsed` seconds after the replacement.
    func entryPose(elapsed: Double, layer: Int?) -> SymbolPose {
        let p = SymbolEffectTiming.presenceSpring.progress(at: elapsed - delay(layer))
        let scale = SymbolEffectTiming.mix(SymbolEffectTiming.replaceEntryScale, 1, p)
        return SymbolPose(
            scale: SIMD2(repeating: scale), opacity: min(max(SymbolEffectTiming.mix(0, 1, p), 0), 1))
    }

    private func delay(_ layer: Int?) -> Double {
        layer.map { SymbolEffectTiming.replaceStagger * Double($0) } ?? 0
    }
}
