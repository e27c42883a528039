import Foundation
import KilnCommandLine
import KilnScene

/// `kiln docs`: the parameter tables of docs/job-format.md, generated from the registry
/// (`JobFormatDocs`), and with the default FILE the job schema beside it (`JobSchema`).
enum DocsCommand: KilnSubcommand {
    enum Mode {
        /// The document with fresh tables on stdout.
        case print
        /// The document rewritten in place when its tables differ.
        case write
        /// Exit 1, changing nothing, when the tables differ.
        case check
    }

    static let write = OptionSpec.flag("--write", help: "rewrite FILE in place (only when a table changed)")
    static let check = OptionSpec.flag("--check", help: "change nothing; exit 1 when FILE is stale")
    static let file = PositionalSpec(
        "FILE", kind: .path, count: .optional, help: "the document to regenerate (default docs/job-format.md)"
    )
    static let spec = CommandSpec(
        "docs", summary: "regenerate the parameter tables of docs/job-format.md and the job schema",
        description: """
            Regenerates the marked regions (<!-- BEGIN GENERATED: ID --> … <!-- END GENERATED -->) of
            FILE from the parameter tables Kiln decodes jobs with: the output and audio settings, the
            transform keys, every layer kind, every effect and every transition. The text outside the
            regions is left as written. With neither --write nor --check, prints FILE with its tables
            regenerated. Without FILE, --write and --check also cover docs/kiln-job.schema.json, the
            job schema generated from the same tables (kiln schema).
            """,
        options: [write, check], positionals: [file])

    static func run(_ args: ParsedArguments) throws -> Int32 {
        if args.flag(write), args.flag(check) {
            throw args.usageError("--write and --check cannot be combined")
        }
        let mode: Mode = args.flag(write) ? .write : args.flag(check) ? .check : .print
        let status = run(mode, file: args.positionals.first ?? JobFormatDocs.file)
        guard args.positionals.isEmpty, mode != .print, status != ExitCode.noInput else { return status }
        // The schema comes from the same tables: one command keeps both in step with the code.
        let schema = SchemaCommand.update(JobSchema.file, to: JobSchema.text, checkOnly: mode == .check)
        return status != ExitCode.ok ? status : schema
    }

    static func run(_ mode: Mode, file: String) -> Int32 {
        let document: String
        do {
            document = String(decoding: try Data(contentsOf: URL(fileURLWithPath: file)), as: UTF8.self)
        } catch {
            Output.error(
                FileManager.default.fileExists(atPath: file)
                    ? "cannot read \(file): \(error.localizedDescription)"
                    : "cannot read \(file): no such file (run from the repository's root, or name FILE)")
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
