import KilnCommandLine
import KilnExport
import KilnMedia

/// `kiln version` (also `kiln --version`).
enum VersionCommand: KilnSubcommand {
    static let spec = CommandSpec("version", summary: "print the version and the FFmpeg libraries in use")

    static func run(_ args: ParsedArguments) throws -> Int32 {
        print("kiln \(KilnVersion.string) (\(MediaLibraries.versionSummary))")
        return ExitCode.ok
    }
}
