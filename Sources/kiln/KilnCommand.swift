import Foundation
import KilnExport
import KilnMedia
import KilnModel
import KilnQueue
import KilnScene
import KilnWorker

#if canImport(Glibc)
    import Glibc
#endif

/// sysexits(3) codes Kiln exits with.
enum ExitCode {
    static let ok: Int32 = 0
    static let usage: Int32 = 64
    static let dataError: Int32 = 65
    static let noInput: Int32 = 66
    static let software: Int32 = 70
    static let unavailable: Int32 = 69
    static let cannotCreate: Int32 = 73
    static let tempFailure: Int32 = 75
    static let configuration: Int32 = 78
}

struct UsageError: Error {
    let message: String
    let command: String?
}

enum KilnCommand {
    static func run(_ args: [String]) -> Int32 {
        guard let first = args.first else {
            print(Help.top)
            return ExitCode.usage
        }
        do {
            switch first {
            case "-h", "--help", "help":
                if let topic = args.dropFirst().first, let text = Help.command(topic) {
                    print(text)
                } else {
                    print(Help.top)
                }
                return ExitCode.ok
            case "--version", "version":
                print("kiln \(KilnVersion.string) (\(MediaLibraries.versionSummary))")
                return ExitCode.ok
            case "render": return try RenderCommand.run(Array(args.dropFirst()))
            case "preview": return try PreviewCommand.run(Array(args.dropFirst()))
            case "validate": return try ValidateCommand.run(Array(args.dropFirst()))
            case "layers": return try LayersCommand.run(Array(args.dropFirst()))
            case "limits": return try LimitsCommand.run(Array(args.dropFirst()))
            case "docs": return try DocsCommand.run(Array(args.dropFirst()))
            case "enqueue": return try EnqueueCommand.run(Array(args.dropFirst()))
            case "worker": return try WorkerCommand.run(Array(args.dropFirst()))
            case "status": return try StatusCommand.run(Array(args.dropFirst()))
            case "logs": return try LogsCommand.run(Array(args.dropFirst()))
            case "cancel", "retry": return try JobActionCommand.run(first, Array(args.dropFirst()))
            case "prune": return try PruneCommand.run(Array(args.dropFirst()))
            case "run": return try RunCommand.run(Array(args.dropFirst()))
            case "schedule": return try ScheduleCommand.run(Array(args.dropFirst()))
            case "__render-attempt":
                // A worker's render process (QueueWorker, AttemptProcess): not for direct use.
                installInterruptHandlers()
                return RenderAttemptProcess.serve(flag: interruption)
            default:
                throw UsageError(message: "unknown command '\(first)'", command: nil)
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
            Output.stderr("run 'kiln \(error.command.map { "\($0) " } ?? "")--help' for usage")
            return ExitCode.usage
        } catch {
            Output.error("\(error)")
            return ExitCode.software
        }
    }
}

/// Everything Kiln prints goes through here, escaped (`TerminalText`): messages quote job
/// content, and job content must not reach a terminal raw.
enum Output {
    static func stderr(_ text: String) {
        FileHandle.standardError.write(Data((TerminalText.escaped(text, keepingNewlines: true) + "\n").utf8))
    }

    /// One line of a listing on stdout (a status row, a log event): a newline inside is escaped
    /// too, so a job's text cannot pass for another row.
    static func line(_ text: String) {
        print(TerminalText.escaped(text))
    }

    static func error(_ text: String) {
        stderr("kiln: error: \(text)")
    }

    static var stderrIsTerminal: Bool { isatty(2) == 1 }
}

/// A tiny argument parser: flags with values, boolean flags, positionals, `--help` everywhere.
struct Arguments {
    var positionals: [String] = []
    var values: [String: String] = [:]
    /// Every value of a flag given more than once (`--set a=1 --set b=2`), in order.
    var repeated: [String: [String]] = [:]
    var flags: Set<String> = []

    init(_ args: [String], command: String, valued: Set<String>, boolean: Set<String> = []) throws {
        var i = 0
        var onlyPositionals = false
        while i < args.count {
            let arg = args[i]
            i += 1
            if onlyPositionals || !arg.hasPrefix("-") || arg == "-" {
                positionals.append(arg)
                continue
            }
            if arg == "--" {
                onlyPositionals = true
                continue
            }
            var name = arg
            var inline: String?
            if let eq = arg.firstIndex(of: "="), arg.hasPrefix("--") {
                name = String(arg[..<eq])
                inline = String(arg[arg.index(after: eq)...])
            }
            if name == "-h" || name == "--help" {
                flags.insert("--help")
            } else if valued.contains(name) {
                let value: String
                if let inline {
                    value = inline
                } else {
                    guard i < args.count else {
                        throw UsageError(message: "\(name) needs a value", command: command)
                    }
                    value = args[i]
                    i += 1
                }
                values[name] = value
                repeated[name, default: []].append(value)
            } else if boolean.contains(name) {
                flags.insert(name)
            } else {
                throw UsageError(message: "unknown option '\(arg)'", command: command)
            }
        }
    }

    func int(_ name: String, command: String, range: ClosedRange<Int>) throws -> Int? {
        guard let text = values[name] else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw UsageError(
                message:
                    "\(name) expects an integer in \(range.lowerBound)…\(range.upperBound), got '\(text)'",
                command: command)
        }
        return value
    }

    func double(_ name: String, command: String) throws -> Double? {
        guard let text = values[name] else { return nil }
        guard let value = Double(text), value.isFinite, value >= 0 else {
            throw UsageError(
                message: "\(name) expects a number of seconds ≥ 0, got '\(text)'", command: command)
        }
        return value
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
