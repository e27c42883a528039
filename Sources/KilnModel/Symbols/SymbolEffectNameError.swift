/// Why a symbol effect or content transition name was refused, phrased for the job's author.
public struct SymbolEffectNameError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
