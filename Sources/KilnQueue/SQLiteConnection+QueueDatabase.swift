import Foundation

extension SQLiteConnection: QueueDatabase {
    var dialect: SQLDialect { .sqlite }

    /// `BEGIN IMMEDIATE` takes the write lock up front (a deferred transaction that reads then
    /// writes fails with SQLITE_BUSY at once, whatever the timeout); when even the busy timeout
    /// is not enough it is retried with jitter.
    func write<T>(_ body: () throws -> T) throws -> T {
        try beginImmediate()
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    private func beginImmediate() throws {
        var attempt = 0
        while true {
            do {
                try execute("BEGIN IMMEDIATE")
                return
            } catch {
                guard error.isBusy, attempt < 20 else { throw error }
                attempt += 1
                usleep(UInt32.random(in: 5_000...(20_000 * UInt32(min(attempt, 10)))))
            }
        }
    }
}
