/// `addSchedule` was given the name of an existing schedule. One error for both backends (SQLite
/// says SQLITE_CONSTRAINT_UNIQUE, PostgreSQL SQLSTATE 23505), so callers need know neither.
public struct ScheduleNameTaken: Error, CustomStringConvertible, Equatable, Sendable {
    public let name: String

    public init(name: String) {
        self.name = name
    }

    public var description: String { "a schedule named '\(name)' already exists" }
}
