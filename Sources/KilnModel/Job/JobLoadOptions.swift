import Foundation

/// What a caller adds to a job file: variable values (`--set`, batch rows) and the date and names
/// its output path template expands with.
public struct JobLoadOptions: Sendable {
    public var variables: [String: String]
    public var outputTemplate: OutputTemplate
    /// The sizes the job may ask for (`--limit`, the config file).
    public var limits: ResourceLimits
    /// Where the job may read and write (`PathRules`); by default anywhere but the queue.
    public var pathRules: PathRules

    public init(
        variables: [String: String] = [:], outputTemplate: OutputTemplate = OutputTemplate(),
        limits: ResourceLimits = ResourceLimits(), pathRules: PathRules = PathRules()
    ) {
        self.variables = variables
        self.outputTemplate = outputTemplate
        self.limits = limits
        self.pathRules = pathRules
    }
}
