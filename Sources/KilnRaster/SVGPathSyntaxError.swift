/// Why SVG path data could not be read, and where: `offset` counts Unicode scalars from 0.
public struct SVGPathSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    public let offset: Int
    public let message: String

    public init(offset: Int, message: String) {
        self.offset = offset
        self.message = message
    }

    public var description: String { "\(message) at offset \(offset)" }
}
