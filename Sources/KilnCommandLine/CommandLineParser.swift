/// Parses a command's words against its description: `--name value`, `--name=value`, `-s value`,
/// flags, `--` before positionals that start with a dash, and `-h`/`--help` anywhere. Anything
/// unknown or malformed is a `UsageError` naming the command and the option.
public enum CommandLineParser {
    /// `command` is the command's words so far (`schedule` when parsing what follows it).
    public static func parse(_ args: [String], spec: CommandSpec, command: String) throws -> ParsedArguments {
        if !spec.subcommands.isEmpty {
            return try parseSubcommand(args, spec: spec, command: command)
        }
        var values: [String: [OptionValue]] = [:]
        var positionalTexts: [String] = []
        var helpRequested = false
        var remaining = args[...]
        var onlyPositionals = false
        while let arg = remaining.popFirst() {
            if onlyPositionals || !arg.hasPrefix("-") || arg == "-" {
                positionalTexts.append(arg)
                continue
            }
            if arg == "--" {
                onlyPositionals = true
                continue
            }
            let (name, inline) = split(arg)
            if name == "-h" || name == "--help" {
                helpRequested = true
                continue
            }
            guard let option = find(name, in: spec) else {
                let names = spec.options.map(\.long) + ["--help"]
                throw UsageError(
                    "unknown option '\(name)' for \(command)"
                        + NameSuggestion.hint(for: name, among: names), command: command)
            }
            if option.kind == .flag {
                guard inline == nil else {
                    throw UsageError("\(option.long) takes no value", command: command)
                }
                values[option.long, default: []].append(.flag)
                continue
            }
            guard let text = inline ?? remaining.popFirst() else {
                throw UsageError("\(option.long) needs a value (\(option.placeholder))", command: command)
            }
            let value = try convert(text, kind: option.kind, name: option.long, command: command)
            if option.repeatable {
                values[option.long, default: []].append(value)
            } else {
                values[option.long] = [value]
            }
        }
        let positionals =
            helpRequested ? [] : try checkPositionals(positionalTexts, spec: spec, command: command)
        return ParsedArguments(
            spec: spec, command: command, helpRequested: helpRequested, positionals: positionals,
            values: values)
    }

    private static func parseSubcommand(_ args: [String], spec: CommandSpec, command: String) throws
        -> ParsedArguments
    {
        guard let word = args.first, !word.hasPrefix("-") else {
            if args.contains("--help") || args.contains("-h") {
                return ParsedArguments(
                    spec: spec, command: command, helpRequested: true, positionals: [], values: [:])
            }
            let words = spec.subcommands.map(\.name)
            throw UsageError("\(command) needs one of: \(words.joined(separator: ", "))", command: command)
        }
        guard let sub = spec.subcommand(named: word) else {
            throw UsageError(
                "unknown \(command) action '\(word)'"
                    + NameSuggestion.hint(for: word, among: spec.subcommands.map(\.name)), command: command)
        }
        return try parse(Array(args.dropFirst()), spec: sub, command: "\(command) \(word)")
    }

    private static func split(_ arg: String) -> (name: String, inline: String?) {
        guard arg.hasPrefix("--"), let eq = arg.firstIndex(of: "=") else { return (arg, nil) }
        return (String(arg[..<eq]), String(arg[arg.index(after: eq)...]))
    }

    private static func find(_ name: String, in spec: CommandSpec) -> OptionSpec? {
        if name.hasPrefix("--") { return spec.option(named: name) }
        guard name.count == 2, let letter = name.last else { return nil }
        return spec.options.first { $0.short == letter }
    }

    private static func convert(_ text: String, kind: ValueKind, name: String, command: String) throws
        -> OptionValue
    {
        switch kind.convert(text) {
        case .success(let value):
            return value
        case .failure(let problem):
            var message = "\(name) expects \(problem.expected), got '\(text)'"
            if case .choice(let words) = kind { message += NameSuggestion.hint(for: text, among: words) }
            throw UsageError(message, command: command)
        }
    }

    private static func checkPositionals(_ texts: [String], spec: CommandSpec, command: String) throws
        -> [OptionValue]
    {
        var values: [OptionValue] = []
        var rest = texts[...]
        for positional in spec.positionals {
            let taken: [String]
            switch positional.count {
            case .one, .oneOrMore:
                guard let first = rest.popFirst() else {
                    throw UsageError("\(command) needs \(positional.synopsis)", command: command)
                }
                taken = [first] + (positional.count == .oneOrMore ? Array(rest) : [])
                if positional.count == .oneOrMore { rest = [] }
            case .optional:
                taken = rest.popFirst().map { [$0] } ?? []
            case .zeroOrMore:
                taken = Array(rest)
                rest = []
            }
            for text in taken {
                values.append(
                    try convert(text, kind: positional.kind, name: positional.name, command: command))
            }
        }
        if let extra = rest.first {
            let expected = spec.positionals.map(\.synopsis).joined(separator: " ")
            throw UsageError(
                "\(command) takes \(expected.isEmpty ? "no arguments" : expected), got an extra '\(extra)'",
                command: command)
        }
        return values
    }
}
