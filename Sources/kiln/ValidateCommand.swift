import Foundation
import KilnCommandLine
import KilnModel

enum ValidateCommand: KilnSubcommand {
    static let json = OptionSpec.flag(
        "--json", help: "print one JSON array with {file, valid, errors: [{path, line, column, message}]}")
    static let spec = CommandSpec(
        "validate", summary: "check job files and report every problem",
        description: """
            Checks job files and reports every problem at once, each with the file, line:column and
            the JSON path. Exit 0 when all are valid, 65 when one is invalid, 66 when one is missing.
            """,
        options: [json, .limit] + OptionSpec.localRoots, positionals: [.jobs])

    static func run(_ args: ParsedArguments) throws -> Int32 {
        let limits = try guardedLimitSettings(args)
        var worst = ExitCode.ok
        var results: [[String: Any]] = []
        let rules = try PathOptions.localRules(args)
        for path in args.positionals {
            switch loadJob(path, limits: limits, rules: rules) {
            case .success(let job):
                if !args.flag(json) {
                    Output.line(
                        "\(path): ok (\(job.output.width)×\(job.output.height), \(job.output.frameRate) fps, "
                            + "\(job.output.frameCount) frame\(job.output.frameCount == 1 ? "" : "s"), "
                            + "\(job.layers.count) layer\(job.layers.count == 1 ? "" : "s")"
                            + (job.audio.map {
                                ", audio " + $0.tracks.map(\.path.lastPathComponent).joined(separator: " + ")
                            } ?? "") + ")")
                }
                results.append(["file": path, "valid": true, "errors": [Any]()])
            case .failure(let error):
                worst = max(worst, error.exitCode)
                if args.flag(json) {
                    results.append(["file": path, "valid": false, "errors": jsonErrors(error, file: path)])
                } else {
                    _ = report(error)
                }
            }
        }
        if args.flag(json) {
            let data = try JSONSerialization.data(withJSONObject: results, options: [.sortedKeys])
            print(String(decoding: data, as: UTF8.self))
        }
        return worst
    }

    static func jsonErrors(_ error: JobLoadError, file: String) -> [[String: Any]] {
        switch error {
        case .fileMissing(_, let reason):
            return [["path": "$", "message": reason]]
        case .invalid(let diagnostics):
            return diagnostics.map { d in
                var entry: [String: Any] = ["path": d.path.description, "message": d.message]
                if let loc = d.location {
                    entry["line"] = loc.line
                    entry["column"] = loc.column
                }
                return entry
            }
        }
    }
}
