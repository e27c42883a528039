/// Where a value sits inside a job document, printed the way users write it:
/// `layers[1].points[4]`, `output.width`, `comment["my key"]`; the document itself is `$`.
public struct JSONPath: Sendable, Hashable, CustomStringConvertible {
    public enum Component: Sendable, Hashable {
        case key(String)
        case index(Int)
    }

    public let components: [Component]

    public init(components: [Component] = []) {
        self.components = components
    }

    public static let root = JSONPath()

    public var isRoot: Bool { components.isEmpty }

    public func key(_ k: String) -> JSONPath {
        JSONPath(components: components + [.key(k)])
    }

    public func index(_ i: Int) -> JSONPath {
        JSONPath(components: components + [.index(i)])
    }

    public var description: String {
        if components.isEmpty { return "$" }
        var text = ""
        for component in components {
            switch component {
            case .key(let key) where Self.isIdentifier(key):
                if !text.isEmpty { text += "." }
                text += key
            case .key(let key):
                text += "[" + Self.quoted(key) + "]"
            case .index(let index):
                text += "[\(index)]"
            }
        }
        return text
    }

    private static func isIdentifier(_ key: String) -> Bool {
        guard let first = key.unicodeScalars.first else { return false }
        func isHead(_ s: Unicode.Scalar) -> Bool {
            (s >= "a" && s <= "z") || (s >= "A" && s <= "Z") || s == "_" || s == "$"
        }
        return isHead(first) && key.unicodeScalars.allSatisfy { isHead($0) || ($0 >= "0" && $0 <= "9") }
    }

    private static func quoted(_ key: String) -> String { JSONTextSplice.literal(key) }
}
