/// One problem in a job file, phrased for the person who wrote it.
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    public let file: String
    public let path: JSONPath
    public let location: SourceLocation?
    public let message: String
    /// The problem is a file the job names that does not exist (EX_NOINPUT rather than EX_DATAERR).
    public let isMissingInput: Bool
    /// The problem is a file the job may not read (outside the asset roots, or not a regular
    /// file): a server that must not reveal which files exist can answer it as it answers a
    /// missing one.
    public let isRefusedInput: Bool

    public init(
        file: String, path: JSONPath, location: SourceLocation?, message: String,
        isMissingInput: Bool = false,
        isRefusedInput: Bool = false
    ) {
        self.file = file
        self.path = path
        self.location = location
        self.message = message
        self.isMissingInput = isMissingInput
        self.isRefusedInput = isRefusedInput
    }

    /// `jobs/x.json:12:5: layers[1].points[4]: expected a point [x, y], got a string`.
    /// The root path `$` is left out: it adds nothing for whole-document problems.
    public var description: String {
        // One line, whatever the job's text holds: diagnostics are joined by newlines.
        var text = TerminalText.escaped(file)
        if let location { text += ":\(location.line):\(location.column)" }
        text += ": "
        if !path.isRoot { text += "\(path): " }
        return text + TerminalText.escaped(message)
    }
}
