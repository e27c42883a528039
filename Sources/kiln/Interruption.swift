import Foundation
import KilnExport

#if canImport(Glibc)
    import Glibc
#endif

/// Set by SIGINT/SIGTERM; the pipeline polls it once per frame, cleans up and exits 128+signal.
let interruption = CancellationFlag()

func installInterruptHandlers() {
    _ = interruption.cancelledBySignal  // initialise the global before a handler can touch it
    for sig in [SIGINT, SIGTERM] {
        signal(sig) { number in
            interruption.cancel(signal: number)
            // A second signal ends the process at once.
            signal(number, SIG_DFL)
        }
    }
}
