/// A command line checked against its command's description: every option's values already
/// converted to their kind, absent options at their defaults. Reading an option the command does
/// not declare is a programming error and stops the program.
public struct ParsedArguments: Sendable {
    public let spec: CommandSpec
    /// The command's words: `render`, `schedule add`.
    public let command: String
    /// `-h` or `--help` was given: print help, check nothing else.
    public let helpRequested: Bool
    public let positionalValues: [OptionValue]
    let values: [String: [OptionValue]]

    init(
        spec: CommandSpec, command: String, helpRequested: Bool, positionals: [OptionValue],
        values: [String: [OptionValue]]
    ) {
        self.spec = spec
        self.command = command
        self.helpRequested = helpRequested
        self.positionalValues = positionals
        self.values = values
    }

    public var positionals: [String] { positionalValues.map(\.text) }

    /// Whether this command takes the option at all (shared code reads `--config` only where
    /// it is declared).
    public func declares(_ option: OptionSpec) -> Bool {
        spec.option(named: option.long) != nil
    }

    public func isGiven(_ option: OptionSpec) -> Bool {
        !(values[declared(option).long] ?? []).isEmpty
    }

    /// Every value given, in order (a repeatable option), else the default alone.
    public func all(_ option: OptionSpec) -> [OptionValue] {
        let spec = declared(option)
        let given = values[spec.long] ?? []
        return given.isEmpty ? spec.defaultValue.map { [$0] } ?? [] : given
    }

    public func value(_ option: OptionSpec) -> OptionValue? { all(option).last }

    public func flag(_ option: OptionSpec) -> Bool { isGiven(option) }

    public func string(_ option: OptionSpec) -> String? { value(option)?.text }

    public func strings(_ option: OptionSpec) -> [String] { all(option).map(\.text) }

    public func int(_ option: OptionSpec) -> Int? {
        guard case .int(let number)? = value(option) else { return nil }
        return number
    }

    public func double(_ option: OptionSpec) -> Double? {
        guard case .double(let number)? = value(option) else { return nil }
        return number
    }

    /// A usage error against this command (`kiln: error: …`, then a pointer to its help).
    public func usageError(_ message: String) -> UsageError {
        UsageError(message, command: command)
    }

    private func declared(_ option: OptionSpec) -> OptionSpec {
        guard let found = spec.option(named: option.long) else {
            preconditionFailure("\(command) does not declare \(option.long)")
        }
        return found
    }
}
