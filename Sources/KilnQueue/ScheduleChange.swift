/// What `updateSchedule` changes; a nil field keeps the schedule's own.
public struct ScheduleChange: Sendable {
    /// The expression with its zone: a different text or zone moves the next fire to the first
    /// one after now (the same one again keeps a due fire due).
    public var cron: CronExpression?
    public var misfire: MisfirePolicy?
    public var overlap: OverlapPolicy?
    public var jobFile: String?
    /// The whole set, replacing the old one.
    public var variables: [String: String]?
    public var priority: Int?
    /// The whole confinement, replacing the old one.
    public var confinement: ScheduleConfinement?

    public init() {}
}
