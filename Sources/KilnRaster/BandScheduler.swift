import Dispatch
import Synchronization

/// Splits a frame into horizontal bands and renders them on `threads` workers.
///
/// Workers pull band indices from a shared counter, so a slow band never idles the others. The
/// decomposition only decides *who* computes a band, never *what* it computes: every kernel is a
/// pure function of the pixel position, so the bytes are the same for any thread count.
public struct BandScheduler: Sendable {
    public let height: Int
    public let bandHeight: Int
    public let threads: Int

    /// - Parameter bandHeight: rows per band; must be even so 4:2:0 chroma rows never straddle bands.
    public init(height: Int, bandHeight: Int = 8, threads: Int) {
        precondition(bandHeight > 0 && bandHeight % 2 == 0, "band height must be even")
        self.height = height
        self.bandHeight = bandHeight
        self.threads = max(1, threads)
    }

    public var bandCount: Int { (height + bandHeight - 1) / bandHeight }

    /// Calls `body(worker, firstRow, rowCount)` once per band. `worker` is in 0..<threads and no two
    /// concurrent calls share it, so it can index per-worker scratch buffers.
    public func run(_ body: @Sendable (_ worker: Int, _ firstRow: Int, _ rows: Int) -> Void) {
        run(leading: nil, body)
    }

    /// As `run(_:)`, but first hands `leading` to one worker as an extra work item, so a task that
    /// is independent of the bands (preparing the next frame) overlaps them instead of running
    /// alone before or after.
    public func run(
        leading: (@Sendable () -> Void)?,
        _ body: @Sendable (_ worker: Int, _ firstRow: Int, _ rows: Int) -> Void
    ) {
        let extra = leading == nil ? 0 : 1
        let items = bandCount + extra
        let bandHeight = self.bandHeight
        let height = self.height
        @Sendable @inline(__always) func perform(_ item: Int, _ worker: Int) {
            if item < extra {
                leading?()
                return
            }
            let first = (item - extra) * bandHeight
            body(worker, first, min(bandHeight, height - first))
        }
        let workers = min(threads, items)
        if workers <= 1 {
            for item in 0..<items { perform(item, 0) }
            return
        }
        let next = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            while true {
                let item = next.wrappingAdd(1, ordering: .relaxed).oldValue
                if item >= items { break }
                perform(item, worker)
            }
        }
    }

    /// Calls `body(worker, item)` for every item in 0..<count on up to `threads` workers, which
    /// pull items from a shared counter (the same rules as bands: `worker` indexes scratch).
    public static func forEach(
        _ count: Int, threads: Int, _ body: @Sendable (_ worker: Int, _ item: Int) -> Void
    ) {
        let workers = min(max(threads, 1), count)
        guard workers > 1 else {
            for item in 0..<count { body(0, item) }
            return
        }
        let next = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            while true {
                let item = next.wrappingAdd(1, ordering: .relaxed).oldValue
                if item >= count { break }
                body(worker, item)
            }
        }
    }
}
