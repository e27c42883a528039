import Foundation

/// A job's declared `variables`: named, typed values with defaults that `--set name=value` and
/// batch rows replace. A value anywhere in the job may be `{"var": "name"}` (replaced by the
/// variable's typed value), a string may contain `${name}` (replaced by its text), and the output
/// path may contain `{name}`.
public struct VariableDeclaration: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        case text, number, color, path
    }

    public let name: String
    public let kind: Kind
    public let defaultValue: String
    public let range: ClosedRange<Double>?
}
