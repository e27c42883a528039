import Foundation

/// A value bound to or read from a statement.
public enum SQLiteValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)

    /// Integers and reals as stored by SQLite, or as the text PostgreSQL sends.
    public var int: Int64? {
        switch self {
        case .integer(let v): v
        case .text(let v): Int64(v)
        default: nil
        }
    }
    public var double: Double? {
        switch self {
        case .real(let v): v
        case .integer(let v): Double(v)
        case .text(let v): Double(v)
        default: nil
        }
    }
    public var string: String? { if case .text(let v) = self { v } else { nil } }
}
