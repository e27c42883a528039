import Foundation

/// `SegmentedExport.renderAudio` on a thread of its own.
final class SoundtrackThread: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var failure: ExportError?

    init(_ export: SegmentedExport, cancellation: CancellationFlag) {
        let thread = Thread { [self] in
            do throws(ExportError) {
                try export.renderAudio(cancellation: cancellation)
            } catch {
                failure = error
            }
            done.signal()
        }
        thread.name = "kiln-soundtrack"
        thread.start()
    }

    /// Waits for the encode; its error, if any.
    func wait() -> ExportError? {
        done.wait()
        return failure
    }
}
