import Foundation

/// The roots and limit overrides a schedule was added under, stored with it so that each fire is
/// checked as `schedule add` checked the job: without them a schedule added with
/// `--output-root out` had every fire refused by a `schedule run` or a tick that gave no roots.
public struct ScheduleConfinement: Sendable, Equatable, Codable {
    public var assetRoots: [String]
    public var outputRoots: [String]
    /// Limit name → maximum, as `--limit` takes them.
    public var limits: [String: Double]

    public init(assetRoots: [String] = [], outputRoots: [String] = [], limits: [String: Double] = [:]) {
        self.assetRoots = assetRoots
        self.outputRoots = outputRoots
        self.limits = limits
    }

    public var isEmpty: Bool { assetRoots.isEmpty && outputRoots.isEmpty && limits.isEmpty }

    /// Sorted keys, so equal confinements store equal text.
    var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    /// A row from before the column existed, or text that does not decode, confines nothing more
    /// than the command's own roots do.
    init(json: String) {
        self = (try? JSONDecoder().decode(Self.self, from: Data(json.utf8))) ?? Self()
    }
}
