/// Values tuned outside the job file (the studio's variable sliders and pinned numbers), written
/// back into the file's text: a variable's value becomes its declared default, a pinned number
/// replaces the number at its path. Only the text of values that change is replaced
/// (`JSONTextSplice`), so the file keeps its layout, key order and the spelling of everything else.
public struct TunedValues: Sendable {
    /// Variable name → value as text (as `--set` takes it).
    public var variables: [String: String]
    /// JSON path text (`layers[1].cornerRadius`) → number.
    public var pins: [String: Double]

    public init(variables: [String: String] = [:], pins: [String: Double] = [:]) {
        self.variables = variables
        self.pins = pins
    }

    /// One value the edit replaces: where (as errors print paths) and its text before and after.
    public struct Change: Sendable, Equatable {
        public let path: String
        public let old: String
        public let new: String
        public let line: Int
    }

    public struct Problem: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    public struct Edited: Sendable {
        public let bytes: [UInt8]
        /// In the file's order.
        public let changes: [Change]
    }

    /// `document` with these values written in; a value already written that way is left alone,
    /// so its spelling (`20.0`, `"\u00e9"`) stays. Refused when a variable is not declared in the
    /// file or a pinned path holds no number there: the studio can pin a parameter the file
    /// leaves out, but saving it would mean choosing where in the text to add it.
    public func edit(_ document: [UInt8], limits: ResourceLimits = ResourceLimits()) throws(Problem) -> Edited
    {
        let root: JSONNode
        do {
            root = try JSONParser.parse(document, limits: limits)
        } catch {
            throw Problem(description: "the job file is not valid JSON (\(error.description))")
        }
        var planned: [(path: JSONPath, node: JSONNode, text: String)] = []
        for name in variables.keys.sorted() {
            if let edit = try variableEdit(name, variables[name] ?? "", in: root) { planned.append(edit) }
        }
        for pathText in pins.keys.sorted() {
            if let edit = try pinEdit(pathText, pins[pathText] ?? 0, in: root) { planned.append(edit) }
        }
        var byStart: [Int: (path: JSONPath, node: JSONNode, text: String)] = [:]
        for edit in planned {
            if let other = byStart[edit.node.byteRange.lowerBound], other.text != edit.text {
                throw Problem(
                    description: "\(edit.path) is given two values (\(other.text) and \(edit.text)): "
                        + "a pinned path names a variable's default")
            }
            byStart[edit.node.byteRange.lowerBound] = edit
        }
        let ordered = byStart.values.sorted { $0.node.byteRange.lowerBound < $1.node.byteRange.lowerBound }
        let replacements = ordered.map { JSONTextSplice.Replacement(range: $0.node.byteRange, text: $0.text) }
        let changes = ordered.map {
            Change(
                path: $0.path.description, old: String(decoding: document[$0.node.byteRange], as: UTF8.self),
                new: $0.text, line: $0.node.location.line)
        }
        return Edited(bytes: JSONTextSplice.apply(replacements, to: document), changes: changes)
    }

    private func variableEdit(_ name: String, _ value: String, in root: JSONNode) throws(Problem)
        -> (path: JSONPath, node: JSONNode, text: String)?
    {
        let path = JSONPath.root.key("variables").key(name)
        guard let declaration = root["variables"]?[name] else {
            throw Problem(description: "\(path): the job file declares no variable '\(name)' to save")
        }
        let target: JSONNode
        let targetPath: JSONPath
        let isNumber: Bool
        switch declaration.value {
        case .string, .number:
            (target, targetPath) = (declaration, path)
            isNumber = declaration.number != nil
        case .object:
            guard let defaultNode = declaration["default"] else {
                throw Problem(
                    description: "\(path): the declaration has no 'default' to write the value into")
            }
            (target, targetPath) = (defaultNode, path.key("default"))
            isNumber = declaration["type"]?.string == VariableDeclaration.Kind.number.rawValue
        default:
            throw Problem(description: "\(path): expected a declaration object, a string or a number")
        }
        if isNumber {
            guard let number = Double(value), number.isFinite else {
                throw Problem(
                    description: "\(targetPath): expected a number, got '\(TerminalText.excerpt(value))'")
            }
            if target.number == number { return nil }
            return (targetPath, target, JSONTextSplice.literal(number))
        }
        if target.string == value { return nil }
        return (targetPath, target, JSONTextSplice.literal(value))
    }

    private func pinEdit(_ pathText: String, _ number: Double, in root: JSONNode) throws(Problem)
        -> (path: JSONPath, node: JSONNode, text: String)?
    {
        guard let path = JSONPath(parsing: pathText) else {
            throw Problem(description: "'\(TerminalText.excerpt(pathText))' is not a JSON path")
        }
        guard number.isFinite else {
            throw Problem(description: "\(path): a saved value must be a finite number")
        }
        guard let node = JSONTextSplice.node(at: path, in: root) else {
            throw Problem(
                description: "\(path) is not written in the job file, so there is no number to replace "
                    + "(add it to the file, then pin it)")
        }
        guard let current = node.number else {
            throw Problem(description: "\(path) is \(node.value.typeName) in the job file, not a number")
        }
        if current == number { return nil }
        return (path, node, JSONTextSplice.literal(number))
    }

    /// A unified diff of two versions of `file` whose lines correspond one to one (a value's text
    /// never holds a line break: JSON escapes it), one hunk per changed line with no context.
    public static func unifiedDiff(from old: [UInt8], to new: [UInt8], file: String) -> String {
        let before = lines(old)
        let after = lines(new)
        var text = "--- \(file)\n+++ \(file) (saved)\n"
        guard before.count == after.count else {
            text += "@@ -1,\(before.count) +1,\(after.count) @@\n"
            return text + before.map { "-\($0)\n" }.joined() + after.map { "+\($0)\n" }.joined()
        }
        for index in before.indices where before[index] != after[index] {
            text += "@@ -\(index + 1) +\(index + 1) @@\n-\(before[index])\n+\(after[index])\n"
        }
        return text
    }

    private static func lines(_ bytes: [UInt8]) -> [String] {
        bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
    }
}
