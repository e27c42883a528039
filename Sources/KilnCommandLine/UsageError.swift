/// A command line that cannot be run as written: exit 64, with the message and a pointer to the
/// command's help.
public struct UsageError: Error, Equatable, CustomStringConvertible {
    public let message: String
    /// The command's words (`render`, `schedule add`), or nil for the program as a whole.
    public let command: String?

    public init(_ message: String, command: String?) {
        self.message = message
        self.command = command
    }

    public var description: String { message }

    /// What to run for help: `kiln render --help` (a program of one command passes "" for
    /// `program` and its own name as the command).
    public func helpHint(program: String) -> String {
        let words = [program, command ?? "", "--help"].filter { !$0.isEmpty }
        return "run '\(words.joined(separator: " "))' for usage"
    }
}
