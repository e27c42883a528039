// Test-only: compiled into the test build alone (`KILN_TEST_HOOKS`, which scripts/test.sh sets),
// so no clock moved by hand exists in the binary users run.
#if KILN_TEST_HOOKS
    import Synchronization

    /// A clock moved by hand, for tests and simulations of the queue and its cron tick: wall and
    /// monotonic time advance together unless a jump moves the wall clock alone.
    public final class ManualClock: QueueClock, @unchecked Sendable {
        private let state: Mutex<(wall: Double, monotonic: Double, boot: String)>

        public init(wall: Double = 1_800_000_000) {
            state = Mutex((wall: wall, monotonic: 1000, boot: "boot-a"))
        }

        public func wall() -> Double { state.withLock { $0.wall } }
        public func monotonic() -> Double { state.withLock { $0.monotonic } }
        public var bootID: String { state.withLock { $0.boot } }

        public func advance(_ seconds: Double) {
            state.withLock {
                $0.wall += seconds
                $0.monotonic += seconds
            }
        }

        /// The wall clock alone, as when an administrator or NTP sets it.
        public func jumpWall(_ seconds: Double) { state.withLock { $0.wall += seconds } }

        public func reboot() {
            state.withLock {
                $0.boot = "boot-b"
                $0.monotonic = 5
            }
        }
    }
#endif
