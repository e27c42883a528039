import KilnCommandLine
import KilnExport
import KilnModel
import KilnWorker

/// The limits, with this process put under the job's memory budget (`MemoryGuard`): what every
/// command that loads or renders a job uses.
func guardedLimitSettings(_ args: ParsedArguments) throws -> ResourceLimits {
    let limits = try limitSettings(args)
    MemoryGuard.install(limits: limits)
    return limits
}

/// The limits: the defaults, then the configuration file's `"limits"`, then every
/// `--limit name=value` (repeatable).
func limitSettings(_ args: ParsedArguments) throws -> ResourceLimits {
    let configuration = args.declares(.config) ? args.string(.config) : nil
    var overrides = try KilnConfiguration.load(explicit: configuration).limitOverrides
    do {
        for setting in args.strings(.limit) {
            let (name, value) = try ResourceLimits.parseOverride(setting)
            overrides[name] = value
        }
        return try ResourceLimits(overrides: overrides)
    } catch {
        throw args.usageError("--limit: \(error)")
    }
}

/// Variables from `--set name=value` (repeatable).
func variableSettings(_ args: ParsedArguments) throws -> [String: String] {
    var variables: [String: String] = [:]
    for setting in args.strings(.set) {
        guard let eq = setting.firstIndex(of: "="), eq != setting.startIndex else {
            throw args.usageError("--set expects name=value, got '\(TerminalText.excerpt(setting))'")
        }
        variables[String(setting[..<eq])] = String(setting[setting.index(after: eq)...])
    }
    return variables
}

/// The job id argument of `logs`, `cancel` and `retry`.
func jobID(_ args: ParsedArguments) throws -> Int64 {
    guard let text = args.positionals.first, let id = Int64(text) else {
        throw args.usageError("\(args.command) takes one job id")
    }
    return id
}
