import Foundation

/// What to do with fires missed while no scheduler ran (queue.md).
public enum MisfirePolicy: String, Sendable, CaseIterable {
    /// One run for the latest missed fire, if it is within the grace period.
    case runOnce = "run_once"
    /// Only fires that are on time (within a minute) run.
    case skip
    /// Every missed fire runs, the latest `MisfirePlan.runAllCap` of them.
    case runAll = "run_all"
}
