import Foundation
import KilnCommandLine
import KilnModel

/// `kiln limits`: every resource limit with its value (the defaults, or as `--limit` sets them).
enum LimitsCommand: KilnSubcommand {
    static let json = OptionSpec.flag("--json", help: "one JSON array of {name, value, default, summary}")
    static let spec = CommandSpec(
        "limits", summary: "list the resource limits, their defaults and what they bound",
        description: """
            Lists every resource limit: its name, its value (the default, or as the configuration
            file's "limits" object or --limit sets it) and what it bounds. Each is checked before the
            memory it bounds is allocated; a job over one is refused with exit 65 and a message naming
            the limit, its value and the maximum. render, preview, validate, enqueue and worker take
            --limit NAME=VALUE (repeatable). See docs/security.md.
            """,
        options: [json, .limit])

    static func run(_ args: ParsedArguments) throws -> Int32 {
        let limits = try limitSettings(args)
        if args.flag(json) {
            let entries: [[String: Any]] = ResourceLimits.Name.allCases.map { name in
                [
                    "name": name.rawValue, "value": limits[name], "default": name.defaultValue,
                    "summary": name.summary,
                ]
            }
            let data = try JSONSerialization.data(withJSONObject: entries, options: [.sortedKeys])
            print(String(decoding: data, as: UTF8.self))
            return ExitCode.ok
        }
        let names = ["LIMIT"] + ResourceLimits.Name.allCases.map(\.rawValue)
        let values = ["VALUE"] + ResourceLimits.Name.allCases.map { ResourceLimits.text(limits[$0]) }
        let summaries = ["BOUNDS"] + ResourceLimits.Name.allCases.map(\.summary)
        let width = names.map(\.count).max() ?? 0
        let valueWidth = values.map(\.count).max() ?? 0
        for ((name, value), summary) in zip(zip(names, values), summaries) {
            let padded = name.padding(toLength: width, withPad: " ", startingAt: 0)
            let shown = String(repeating: " ", count: valueWidth - value.count) + value
            print("\(padded)  \(shown)  \(summary)")
        }
        return ExitCode.ok
    }
}
