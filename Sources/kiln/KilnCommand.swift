import Foundation
import KilnCommandLine
import KilnExport
import KilnModel
import KilnQueue
import KilnWorker

enum KilnCommand {
    static func run(_ args: [String]) -> Int32 {
        guard let first = args.first else {
            print(HelpText.program(CommandCatalog.program), terminator: "")
            return ExitCode.usage
        }
        do {
            switch first {
            case "-h", "--help":
                print(HelpText.program(CommandCatalog.program), terminator: "")
                return ExitCode.ok
            case "--version":
                return try VersionCommand.run(
                    try CommandLineParser.parse([], spec: VersionCommand.spec, command: first))
            default:
                let spec = try CommandCatalog.program.resolve(first)
                let parsed = try CommandLineParser.parse(Array(args.dropFirst()), spec: spec, command: first)
                if parsed.helpRequested {
                    print(
                        HelpText.command(parsed.spec, path: parsed.command, program: "kiln"), terminator: "")
                    return ExitCode.ok
                }
                guard let body = CommandCatalog.body(for: spec) else { return ExitCode.software }
                return try body.run(parsed)
            }
        } catch let error as PostgresError where error.isConnectionFailure {
            Output.error("\(error)")
            return ExitCode.unavailable
        } catch let error as QueueError {
            Output.error("\(error)")
            return ExitCode.unavailable
        } catch let error as SQLiteError {
            // Only the queue speaks SQLite: a file that is not a database, or a damaged, locked
            // or read-only one, makes the queue unusable, which no retry of the command mends.
            Output.error("the queue is unusable: \(error)")
            return ExitCode.unavailable
        } catch let error as KilnConfiguration.Failure {
            Output.error("configuration: \(error)")
            return ExitCode.configuration
        } catch let error as UsageError {
            Output.error(error.message)
            Output.stderr(error.helpHint(program: "kiln"))
            return ExitCode.usage
        } catch {
            Output.error("\(error)")
            return ExitCode.software
        }
    }
}

/// Loads a job with every registered layer kind, the `--set` variables, the `--limit`s and the
/// path rules.
func loadJob(
    _ path: String, variables: [String: String] = [:], limits: ResourceLimits = ResourceLimits(),
    rules: PathRules
) -> Result<Job, JobLoadError> {
    do {
        return .success(
            try JobFiles.load(
                file: path, options: JobLoadOptions(variables: variables, limits: limits, pathRules: rules)))
    } catch {
        return .failure(error)
    }
}

func report(_ error: JobLoadError) -> Int32 {
    switch error {
    case .invalid(let diagnostics):
        for d in diagnostics { Output.stderr("kiln: error: \(d)") }
    case .fileMissing:
        Output.error(error.description)
    }
    return error.exitCode
}
