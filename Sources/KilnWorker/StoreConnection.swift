import Foundation
import KilnModel
import KilnQueue

/// A worker slot's own connection to the queue, reopened when it is lost (a PostgreSQL server
/// restarted, a network blip): the statement is retried on a new connection a few times, well
/// within the lease the heartbeat keeps alive on its own connection.
final class StoreConnection {
    private let open: @Sendable () throws -> any JobStore & ScheduleStore
    private let log: @Sendable (String) -> Void
    private var store: any JobStore & ScheduleStore

    init(
        open: @escaping @Sendable () throws -> any JobStore & ScheduleStore,
        log: @escaping @Sendable (String) -> Void
    )
        throws
    {
        self.open = open
        self.log = log
        store = try open()
    }

    func run<T>(_ body: (any JobStore & ScheduleStore) throws -> T) throws -> T {
        var attempt = 0
        while true {
            do {
                return try body(store)
            } catch let error as PostgresError where error.isConnectionFailure && attempt < 3 {
                attempt += 1
                log("lost the queue connection (\(error)); reconnecting (try \(attempt) of 3)")
                Thread.sleep(forTimeInterval: 0.5 * Double(attempt))
                if let fresh = try? open() { store = fresh }
            }
        }
    }
}
