import Foundation
import KilnScene

/// `kiln docs`: the parameter tables of docs/job-format.md, generated from the registry
/// (`JobFormatDocs`). Parsing is kept to the few lines of `run` so the command's body does not
/// depend on how arguments are read.
enum DocsCommand {
    enum Mode {
        /// The document with fresh tables on stdout.
        case print
        /// The document rewritten in place when its tables differ.
        case write
        /// Exit 1, changing nothing, when the tables differ.
        case check
    }

    static let help = """
        usage: kiln docs [--write | --check] [FILE]

        Regenerates the marked regions (<!-- BEGIN GENERATED: ID --> … <!-- END GENERATED -->) of
        FILE (default docs/job-format.md) from the parameter tables Kiln decodes jobs with: the
        output and audio settings, the transform keys, every layer kind and every effect. The text
        outside the regions is left as written.

          --write   rewrite FILE in place (only when a table changed)
          --check   change nothing; exit 1 when FILE is stale
          (neither) print FILE with its tables regenerated
        """

    static func run(_ raw: [String]) throws -> Int32 {
        let args = try Arguments(raw, command: "docs", valued: [], boolean: ["--write", "--check"])
        if args.flags.contains("--help") {
            print(help)
            return ExitCode.ok
        }
        guard args.positionals.count <= 1 else {
            throw UsageError(
                message: "expected at most one FILE, got \(args.positionals.count)", command: "docs")
        }
        if args.flags.contains("--write"), args.flags.contains("--check") {
            throw UsageError(message: "--write and --check cannot be combined", command: "docs")
        }
        let mode: Mode =
            args.flags.contains("--write") ? .write : args.flags.contains("--check") ? .check : .print
        return run(mode, file: args.positionals.first ?? JobFormatDocs.file)
    }

    static func run(_ mode: Mode, file: String) -> Int32 {
        let document: String
        do {
            document = String(decoding: try Data(contentsOf: URL(fileURLWithPath: file)), as: UTF8.self)
        } catch {
            Output.error("cannot read \(file): \(error.localizedDescription)")
            return ExitCode.noInput
        }
        let fresh: String
        do {
            fresh = try JobFormatDocs.rewrite(document, file: file)
        } catch {
            Output.error("\(error)")
            return ExitCode.dataError
        }
        switch mode {
        case .print:
            print(fresh, terminator: "")
            return ExitCode.ok
        case .check:
            guard fresh != document else { return ExitCode.ok }
            Output.error(
                "\(file) is stale: its generated tables differ from the code; run 'kiln docs --write \(file)'"
            )
            return 1
        case .write:
            guard fresh != document else { return ExitCode.ok }
            do {
                try Data(fresh.utf8).write(to: URL(fileURLWithPath: file), options: .atomic)
            } catch {
                Output.error("cannot write \(file): \(error.localizedDescription)")
                return ExitCode.cannotCreate
            }
            Output.stderr("updated \(file)")
            return ExitCode.ok
        }
    }
}
