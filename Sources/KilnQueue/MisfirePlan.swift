import Foundation

/// Which of a schedule's due fires become jobs, and where the schedule goes next. The next fire
/// is computed from the last due fire, never from the clock, so a clock set back cannot fire
/// the same time twice, and one set forward meets the misfire policy.
public struct MisfirePlan: Sendable, Equatable {
    public static let runOnceGrace = 3600.0
    public static let onTimeTolerance = 60.0
    public static let runAllCap = 100

    public var fires: [Double]
    public var missed: Int
    public var nextFire: Double?

    public static func plan(_ cron: CronExpression, nextFire: Double, now: Double, policy: MisfirePolicy)
        -> MisfirePlan
    {
        var due: [Double] = []
        var fire: Double? = nextFire
        var skippedBeyondList = 0
        while let f = fire, f <= now {
            if due.count == 10_000 {
                due.removeFirst()
                skippedBeyondList += 1
            }
            due.append(f)
            fire = cron.next(after: f)
        }
        let chosen: [Double]
        switch policy {
        case .runOnce: chosen = due.last.map { now - $0 <= runOnceGrace ? [$0] : [] } ?? []
        case .skip: chosen = due.filter { now - $0 <= onTimeTolerance }.suffix(1)
        case .runAll: chosen = Array(due.suffix(runAllCap))
        }
        return MisfirePlan(
            fires: chosen, missed: due.count + skippedBeyondList - chosen.count, nextFire: fire)
    }
}
