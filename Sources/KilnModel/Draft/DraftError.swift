/// Why a draft cannot be made of a job: the option and what it expected, in one sentence for
/// the command line (a usage error, exit 64).
public struct DraftError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
