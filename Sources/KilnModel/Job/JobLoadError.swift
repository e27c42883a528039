/// Why a job could not be loaded; exit codes follow sysexits.h.
public enum JobLoadError: Error, Sendable, CustomStringConvertible {
    /// EX_NOINPUT (66).
    case fileMissing(file: String, reason: String)
    /// EX_DATAERR (65). Every problem found, in document order; a syntax error is a single
    /// diagnostic with path `$`. When every problem is a missing file the job names (an image),
    /// the exit code is EX_NOINPUT (66) instead.
    case invalid([Diagnostic])

    public var exitCode: Int32 {
        switch self {
        case .fileMissing: 66
        case .invalid(let diagnostics): diagnostics.allSatisfy(\.isMissingInput) ? 66 : 65
        }
    }

    /// One line per problem, ready to print to stderr.
    public var description: String {
        switch self {
        case .fileMissing(let file, let reason): "\(file): \(reason)"
        case .invalid(let diagnostics): diagnostics.map(\.description).joined(separator: "\n")
        }
    }
}
