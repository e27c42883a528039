import Foundation

/// Environment switches for the fault-injection tests, which need to act in the middle of a
/// render however fast the machine is. They exist only in the test build (`KILN_TEST_HOOKS`,
/// which scripts/test.sh sets): in the binary users run, a variable in the environment of a
/// worker cannot make a render trap or stall.
public enum FaultInjection {
    #if KILN_TEST_HOOKS
        /// KILN_FAULT_PAUSE_AFTER_RENAME: seconds a worker waits between renaming an output into
        /// place and marking the job completed.
        public static var pauseAfterRename: Double? {
            ProcessInfo.processInfo.environment["KILN_FAULT_PAUSE_AFTER_RENAME"].flatMap(Double.init)
        }

        /// KILN_FAULT_FRAME_DELAY: seconds added after every rendered frame (read once).
        public static let frameDelay: Double? = ProcessInfo.processInfo.environment["KILN_FAULT_FRAME_DELAY"]
            .flatMap(Double.init).flatMap { $0 > 0 && $0 < 10 ? $0 : nil }

        /// KILN_FAULT_TRAP_ON_JOB: a worker's render attempt whose job text contains this marker
        /// traps after its first frame, as a job that crashes the render would (crash-isolation tests).
        public static let trapMarker: String? = ProcessInfo.processInfo.environment["KILN_FAULT_TRAP_ON_JOB"]
            .flatMap { $0.isEmpty ? nil : $0 }

        /// KILN_FAULT_LOAD_DELAY: seconds a job load waits before decoding (polling its cancellation
        /// flag), so a test can signal a process in the middle of loading.
        public static let loadDelay: Double? = ProcessInfo.processInfo.environment["KILN_FAULT_LOAD_DELAY"]
            .flatMap(Double.init).flatMap { $0 > 0 && $0 < 600 ? $0 : nil }
    #else
        public static let pauseAfterRename: Double? = nil
        public static let frameDelay: Double? = nil
        public static let trapMarker: String? = nil
        public static let loadDelay: Double? = nil
    #endif
}
