/// A text problem a user can fix: a font that is not installed, a file that is not a font.
public struct TextError: Error, CustomStringConvertible, Sendable {
    public let description: String

    init(_ description: String) { self.description = description }
}
