import Foundation

/// The job's memory, estimated while it loads and charged against one budget (the limit
/// memory-megabytes): every per-item limit can hold while their sum does not (40 text layers
/// each just under text-pixels), so each thing that allocates in proportion to what the job asks
/// for is charged here **before** it is allocated, from what headers and layouts say it will
/// take. Once the total is over the budget, nothing more is allocated: the load goes on only
/// to name the other contributors, and ends with one error naming the largest.
///
/// The figures are estimates of the peak (what is held, plus what is briefly needed to make it),
/// not measurements; the render process's address-space limit (docs/security.md) backs them up.
public final class MemoryBudget {
    /// What a contribution is, for messages and for the test hook that under-reports one kind.
    public enum Kind: String, Sendable, CaseIterable {
        case image, video, text, transcript, path, noise, offscreen, frame, encoder, grid
    }

    public struct Contribution: Sendable, Equatable {
        public let kind: Kind
        public let path: JSONPath
        /// What it is, as a message names it ("text picture 4096×4096").
        public let what: String
        public let bytes: Double
    }

    /// The budget in bytes.
    public let limit: Double
    public private(set) var contributions: [Contribution] = []
    /// The sum of what is held from load to the end of the render.
    public private(set) var held = 0.0
    /// The largest held + briefly needed seen so far.
    public private(set) var peak = 0.0

    public init(limits: ResourceLimits) {
        limit = limits[.memoryMegabytes] * Self.megabyte
    }

    public static let megabyte = 1024.0 * 1024.0

    /// Whether the estimate is over the budget.
    public var isOver: Bool { peak > limit }

    /// A first pass over the job that only estimates: every charge is refused, so nothing
    /// charged is allocated, and the real load runs only once the whole job is known to fit.
    /// Without it the first layers would be allocated before the later ones are counted.
    public var estimatesOnly = false

    /// Charges `bytes` held until the render ends, plus `briefly` needed only while it is made
    /// (a decoder's full-size picture before it is shrunk). Returns whether it may be allocated:
    /// false once the estimate is over the budget, and then the caller must not allocate it.
    @discardableResult
    public func charge(
        _ kind: Kind, _ bytes: Double, briefly: Double = 0, _ what: String, at path: JSONPath
    ) -> Bool {
        let bytes = Self.reported(kind, bytes), briefly = Self.reported(kind, briefly)
        contributions.append(Contribution(kind: kind, path: path, what: what, bytes: bytes + briefly))
        peak = max(peak, held + bytes + briefly)
        held += bytes
        peak = max(peak, held)
        return !isOver && !estimatesOnly
    }

    /// Charges what one moment of the render needs on top of everything held (frames in flight,
    /// offscreens, the encoder): counted in the peak, never in what is held.
    public func chargeWorkingSet(_ kind: Kind, _ bytes: Double, _ what: String, at path: JSONPath) {
        let bytes = Self.reported(kind, bytes)
        contributions.append(Contribution(kind: kind, path: path, what: what, bytes: bytes))
        workingSet += bytes
        peak = max(peak, held + workingSet)
    }

    private var workingSet = 0.0

    /// The contributions, largest first, those at one JSON path and of one kind summed.
    public var largest: [Contribution] {
        var sums: [String: Contribution] = [:]
        var order: [String] = []
        for c in contributions {
            let key = "\(c.path) \(c.kind)"
            if let known = sums[key] {
                let what = known.what == c.what ? known.what : "\(known.kind.rawValue)s"
                sums[key] = Contribution(kind: c.kind, path: c.path, what: what, bytes: known.bytes + c.bytes)
            } else {
                sums[key] = c
                order.append(key)
            }
        }
        return order.compactMap { sums[$0] }.filter { $0.bytes > 0 }.sorted { $0.bytes > $1.bytes }
    }

    /// The refusal: the estimate, the limit and the largest contributors with their JSON paths.
    public var message: String {
        let top = largest.prefix(5).map { "\($0.path) \($0.what) \(Self.megabytes($0.bytes)) MB" }
        return
            "the job needs about \(Self.megabytes(peak)) MB of memory at its peak, over its memory budget: "
            + ResourceLimits.message(
                .memoryMegabytes, value: (peak / Self.megabyte).rounded(.up),
                maximum: limit / Self.megabyte, what: "the estimate in MB")
            + "; the largest: " + top.joined(separator: ", ")
    }

    public static func megabytes(_ bytes: Double) -> String {
        NumberText.format((bytes / megabyte).rounded(.up))
    }

    /// The bytes charged for `kind`: as given, except that a test build can be told to count one
    /// kind as free (KILN_TEST_MEMORY_UNDERCOUNT=text), so a test can make a job slip past the
    /// estimate and meet the address-space limit behind it.
    static func reported(_ kind: Kind, _ bytes: Double) -> Double {
        let bytes = bytes.isFinite ? max(bytes, 0) : Double.greatestFiniteMagnitude
        #if KILN_TEST_HOOKS
            if ProcessInfo.processInfo.environment["KILN_TEST_MEMORY_UNDERCOUNT"] == kind.rawValue {
                return 0
            }
        #endif
        return bytes
    }
}
