/// A violation of RFC 8259 at a precise place; the job loader turns it into a diagnostic.
public struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    public let location: SourceLocation
    public let message: String

    public init(location: SourceLocation, message: String) {
        self.location = location
        self.message = message
    }

    public var description: String { "\(location): \(message)" }
}
