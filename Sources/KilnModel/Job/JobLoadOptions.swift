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
    /// Asked before each layer is decoded (text is laid out and pictures decoded then): the
    /// signal that interrupted the load, or nil to go on. A signal during a job of many text
    /// layers then stops at the next layer, not after all of them.
    public var interruption: (@Sendable () -> Int32?)?

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
