/// One option of a command: `--long` (and `-s`), what it takes, its default and its help.
/// Commands that share an option share one value of this type, so its help is written once.
public struct OptionSpec: Sendable, Equatable {
    /// With the dashes: `--threads`.
    public let long: String
    /// One letter, without the dash: `o` for `-o`.
    public let short: Character?
    public let kind: ValueKind
    /// How help and the synopsis name the value: `N`, `DIR`, `name=value`.
    public let placeholder: String
    /// Given more than once, every value is kept in order; otherwise the last one counts.
    public let repeatable: Bool
    /// Applied when the option is absent; shown in help.
    public let defaultValue: OptionValue?
    public let help: String

    public init(
        _ long: String, short: Character? = nil, kind: ValueKind, placeholder: String? = nil,
        repeatable: Bool = false, default defaultValue: OptionValue? = nil, help: String
    ) {
        precondition(long.hasPrefix("--"), "an option's long name starts with --: \(long)")
        self.long = long
        self.short = short
        self.kind = kind
        self.placeholder = placeholder ?? OptionSpec.placeholder(for: kind)
        self.repeatable = repeatable
        self.defaultValue = defaultValue
        self.help = help
    }

    public static func flag(_ long: String, short: Character? = nil, help: String) -> OptionSpec {
        OptionSpec(long, short: short, kind: .flag, help: help)
    }

    /// `-o, --output PATH` or `--json`: the option's names and value as help shows them.
    public var signature: String {
        let names = (short.map { "-\($0), " } ?? "") + long
        return kind == .flag ? names : "\(names) \(placeholder)"
    }

    /// `[--threads N]` or `[--set name=value]...` for a synopsis.
    public var synopsis: String {
        let value = kind == .flag ? "" : " \(placeholder)"
        return "[\(long)\(value)]" + (repeatable ? "..." : "")
    }

    /// The help line with its default, if any, and its choices for a choice.
    public var fullHelp: String {
        var text = help
        if let defaultValue, kind != .flag { text += " (default \(defaultValue.text))" }
        return text
    }

    static func placeholder(for kind: ValueKind) -> String {
        switch kind {
        case .flag: return ""
        case .string: return "TEXT"
        case .path: return "PATH"
        case .int: return "N"
        case .double: return "S"
        case .choice(let words): return words.joined(separator: "|")
        }
    }
}
