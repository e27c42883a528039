import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Cuts connections that hold a slot without using it. MHD's own timeout counts only silence, so a
/// client sending a header byte every few seconds would keep its connection (and thread) forever;
/// here the clock runs from when a connection opens or finishes a response until its next request
/// is complete, whatever trickles in meanwhile. Only while the handler works on a request is a
/// connection exempt.
final class ConnectionWatch: @unchecked Sendable {
    // @unchecked: `sockets`, `waitingSince` and `stopped` are read and written under `lock`.
    private let lock = NSLock()
    private var sockets: [UInt: Int32] = [:]
    private var waitingSince: [UInt: ContinuousClock.Instant] = [:]
    private var stopped = false
    let deadline: Duration
    /// How often overdue connections are looked for: a small part of the deadline.
    let interval: Duration

    init(deadline: Duration) {
        self.deadline = deadline
        interval = min(.milliseconds(250), deadline / 4)
    }

    func opened(_ connection: UInt, socket: Int32) {
        lock.withLock {
            guard socket >= 0 else { return }
            sockets[connection] = socket
            waitingSince[connection] = .now
        }
    }

    /// MHD calls this before it closes the socket, so a socket still listed here is the
    /// connection's own and not a number the kernel has since handed to another.
    func closed(_ connection: UInt) {
        lock.withLock {
            sockets[connection] = nil
            waitingSince[connection] = nil
        }
    }

    func answering(_ connection: UInt) {
        lock.withLock { _ = waitingSince.removeValue(forKey: connection) }
    }

    func waiting(_ connection: UInt) {
        lock.withLock {
            guard sockets[connection] != nil else { return }
            waitingSince[connection] = .now
        }
    }

    func start() {
        let seconds = Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18
        let thread = Thread { [self] in
            while lock.withLock({ !stopped }) {
                Thread.sleep(forTimeInterval: seconds)
                cutOverdue()
            }
        }
        thread.name = "kiln-studio-connection-watch"
        thread.start()
    }

    func stop() {
        lock.withLock { stopped = true }
    }

    /// Shuts down (not closes: the descriptor stays MHD's) every socket past its deadline; its
    /// thread then reads end-of-file and MHD closes the connection as if the client had.
    func cutOverdue() {
        let now = ContinuousClock.now
        lock.withLock {
            for (connection, since) in waitingSince where now - since > deadline {
                if let socket = sockets[connection] { _ = shutdown(socket, Int32(SHUT_RDWR)) }
                waitingSince[connection] = nil
            }
        }
    }
}
