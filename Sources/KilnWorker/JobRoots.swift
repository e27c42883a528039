import Foundation
import KilnExport
import KilnModel

/// The roots a queued job is confined to: those configured, else the job file's own directory
/// tree for both reading and writing; and the files no output may replace (the queue).
public struct JobRoots: Sendable, Codable {
    public var assetRoots: [String] = []
    public var outputRoots: [String] = []
    public var protectedFiles: [ProtectedFile] = []

    public init(assetRoots: [String] = [], outputRoots: [String] = [], protectedFiles: [ProtectedFile] = []) {
        self.assetRoots = assetRoots
        self.outputRoots = outputRoots
        self.protectedFiles = protectedFiles
    }

    /// False when both kinds default to the job file's own directory.
    public var hasExplicitRoots: Bool { !assetRoots.isEmpty || !outputRoots.isEmpty }

    public func rules(jobDirectory: String) -> PathRules {
        var rules = PathRules(
            assetRoots: assetRoots.isEmpty ? [jobDirectory] : assetRoots,
            outputRoots: outputRoots.isEmpty ? [jobDirectory] : outputRoots,
            protectedFiles: protectedFiles)
        rules.longestOutputName = SegmentedExport.longestOutputName
        return rules
    }
}
