import Foundation

/// A recurring render.
public struct Schedule: Sendable, Equatable {
    public var id: Int64
    public var name: String
    public var cron: String
    public var timeZone: String
    public var misfire: MisfirePolicy
    public var overlap: OverlapPolicy
    public var jobFile: String
    public var variables: [String: String]
    public var priority: Int
    public var paused: Bool
    /// Wall seconds; nil when the expression never fires again.
    public var nextFire: Double?
    public var lastFire: Double?
    /// What the last tick did that a user should know (skipped fires, an invalid job).
    public var lastNote: String?
    /// The roots and limits its fires are checked under.
    public var confinement = ScheduleConfinement()

    public func expression() throws(CronExpression.ParseError) -> CronExpression {
        guard let zone = TimeZone(identifier: timeZone) else {
            throw CronExpression.ParseError(message: "unknown time zone '\(timeZone)'")
        }
        return try CronExpression(cron, timeZone: zone)
    }
}
