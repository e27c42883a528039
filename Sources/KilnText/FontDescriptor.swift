/// Which font a text asks for: a family name, a weight (OpenType 100…900) and a slant.
public struct FontDescriptor: Sendable, Hashable, CustomStringConvertible {
    public var family: String
    public var weight: Int
    public var italic: Bool

    public init(family: String, weight: Int = 400, italic: Bool = false) {
        self.family = family
        self.weight = min(max(weight, 1), 1000)
        self.italic = italic
    }

    public var description: String {
        "\(family) \(weight)\(italic ? " italic" : "")"
    }

    /// CSS-style names: thin 100 … black 900.
    public static let weightNames: [String: Int] = [
        "thin": 100, "extraLight": 200, "light": 300, "regular": 400, "medium": 500, "semibold": 600,
        "bold": 700, "extraBold": 800, "black": 900,
    ]
}
