import Foundation
import KilnCommandLine
import KilnScene

/// `kiln schema`: the JSON Schema of the job format (`JobSchema`), printed, written or checked
/// against the committed docs/kiln-job.schema.json.
enum SchemaCommand: KilnSubcommand {
    static let write = OptionSpec.flag("--write", help: "write FILE (only when it differs)")
    static let check = OptionSpec.flag("--check", help: "change nothing; exit 1 when FILE is stale")
    static let file = PositionalSpec(
        "FILE", kind: .path, count: .optional,
        help: "with --write or --check: the schema file (default docs/kiln-job.schema.json)")
    static let spec = CommandSpec(
        "schema", summary: "print the JSON Schema of the job format (for editors and validators)",
        description: """
            Prints a JSON Schema (draft 2020-12) of job files, generated from the parameter tables
            Kiln validates jobs with: every layer kind, effect, transition and parameter, with its
            range, choices, default and help. Point an editor at it to complete and check jobs as you
            type (a job may name it in "$schema"; see the README). kiln validate still checks what a
            schema cannot: files on disk, increasing times, counts that depend on other keys, limits.
            --write writes FILE, --check exits 1 when FILE differs from what this Kiln generates.
            """,
        options: [write, check], positionals: [file])

    static func run(_ args: ParsedArguments) throws -> Int32 {
        if args.flag(write), args.flag(check) {
            throw args.usageError("--write and --check cannot be combined")
        }
        let text = JobSchema.text
        guard args.flag(write) || args.flag(check) else {
            if !args.positionals.isEmpty {
                throw args.usageError("FILE goes with --write or --check; without them the schema is printed")
            }
            print(text, terminator: "")
            return ExitCode.ok
        }
        return update(args.positionals.first ?? JobSchema.file, to: text, checkOnly: args.flag(check))
    }

    /// Writes `text` to `file` when it differs, or with `checkOnly` reports that it does (1).
    static func update(_ file: String, to text: String, checkOnly: Bool) -> Int32 {
        let current = try? String(contentsOfFile: file, encoding: .utf8)
        guard current != text else { return ExitCode.ok }
        if checkOnly, current == nil {
            // Missing is not stale: most likely kiln runs outside the repository.
            Output.error(
                "cannot read \(file): no such file (run from the repository's root, or name the file)")
            return ExitCode.noInput
        }
        if checkOnly {
            Output.error(
                "\(file) is stale: it differs from the schema this Kiln generates; run 'kiln schema --write \(file)'"
            )
            return 1
        }
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: file), options: .atomic)
        } catch {
            Output.error("cannot write \(file): \(error.localizedDescription)")
            return ExitCode.cannotCreate
        }
        Output.stderr("updated \(file)")
        return ExitCode.ok
    }
}
