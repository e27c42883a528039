/// Checks a program's descriptions: every command, option and argument has help, no two options
/// of a command share a name, defaults fit their kinds, and every option round-trips — a sample
/// value given on a command line (as `--long V`, `--long=V` and `-s V`) parses back into that
/// typed value, and a malformed one is refused.
public enum DescriptionCheck {
    /// One line per problem; empty when all is well.
    public static func problems(_ program: CommandLineProgram) -> [String] {
        program.commands.flatMap { spec in
            [(spec.name, spec)] + spec.subcommands.map { ("\(spec.name) \($0.name)", $0) }
        }.flatMap { words, spec in problems(spec, words: words) }
    }

    static func problems(_ spec: CommandSpec, words: String) -> [String] {
        var found: [String] = []
        if spec.summary.isEmpty { found.append("\(words): no summary") }
        for positional in spec.positionals where positional.help.isEmpty {
            found.append("\(words) \(positional.name): no help")
        }
        let longs = spec.options.map(\.long), shorts = spec.options.compactMap(\.short)
        if Set(longs).count != longs.count { found.append("\(words): two options share a long name") }
        if Set(shorts).count != shorts.count { found.append("\(words): two options share a short name") }
        let help = HelpText.command(spec, path: words, program: "")
        for option in spec.options {
            found += problems(option, in: spec, words: words).map { "\(words) \(option.long): \($0)" }
            if !help.contains(option.signature) {
                found.append("\(words) \(option.long): missing from --help")
            }
        }
        return found
    }

    static func problems(_ option: OptionSpec, in spec: CommandSpec, words: String) -> [String] {
        var found: [String] = []
        if option.help.isEmpty { found.append("no help") }
        if let value = option.defaultValue, (try? option.kind.convert(value.text).get()) != value {
            found.append("default \(value.text) does not parse back to itself")
        }
        let spellings = [option.long] + (option.short.map { ["-\($0)"] } ?? [])
        for sample in samples(option.kind) {
            let forms =
                option.kind == .flag
                ? spellings.map { [$0] }
                : spellings.map { [$0, sample.text] } + [["\(option.long)=\(sample.text)"]]
            for form in forms {
                do {
                    let parsed = try CommandLineParser.parse(
                        requiredPositionals(spec) + form, spec: spec, command: words)
                    if parsed.value(option) != sample {
                        found.append(
                            "\(form.joined(separator: " ")) parsed as \(String(describing: parsed.value(option)))"
                        )
                    }
                } catch {
                    found.append("\(form.joined(separator: " ")) refused: \(error)")
                }
            }
        }
        if let malformed = malformed(option.kind),
            (try? CommandLineParser.parse(
                requiredPositionals(spec) + [option.long, malformed], spec: spec, command: words)) != nil
        {
            found.append("accepts the malformed value '\(malformed)'")
        }
        return found
    }

    /// Values an option of this kind must accept: its bounds, each choice.
    static func samples(_ kind: ValueKind) -> [OptionValue] {
        switch kind {
        case .flag: return [.flag]
        case .string: return [.string("sample text")]
        case .path: return [.string("/tmp/sample path.json")]
        case .int(let range): return [.int(range.lowerBound), .int(range.upperBound)]
        case .double(let minimum): return [.double(minimum), .double(minimum + 2.5)]
        case .choice(let choices): return choices.map { .string($0) }
        }
    }

    static func malformed(_ kind: ValueKind) -> String? {
        switch kind {
        case .int, .double: return "abc"
        case .choice: return "no-such-choice"
        case .flag, .string, .path: return nil
        }
    }

    static func requiredPositionals(_ spec: CommandSpec) -> [String] {
        spec.positionals.filter { $0.count == .one || $0.count == .oneOrMore }.map { positional in
            samples(positional.kind).first?.text ?? "x"
        }
    }
}
