import Foundation

/// PostgreSQL's time, for stores on a shared server: read once at connect, then advanced by this
/// host's boot-time clock, so every lease and schedule time is on the server's clock (as all
/// hosts see it) and a jump of this host's wall clock changes nothing.
public final class ServerClock: QueueClock, @unchecked Sendable {
    private let serverAtConnect: Double
    private let localAtConnect: Double
    private let local = SystemClock()

    init(connection: PostgresConnection) throws {
        let rows = try connection.query("SELECT extract(epoch FROM clock_timestamp())", [])
        guard let text = rows.first?.first ?? nil, let seconds = Double(text) else {
            throw PostgresError(
                sqlState: nil, message: "could not read the server's clock", isConnectionFailure: false)
        }
        serverAtConnect = seconds
        localAtConnect = local.monotonic()
    }

    public func wall() -> Double { serverAtConnect + (local.monotonic() - localAtConnect) }
    /// The same timeline: leases are compared on the server's clock by every host.
    public func monotonic() -> Double { wall() }
    /// This host's boot, for telling whether a lease's process on this host is still alive.
    public var bootID: String { local.bootID }
}
