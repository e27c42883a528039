/// A fully validated job: everything needed to render, with no errors left to find.
public struct Job: Sendable {
    /// The job file as the user named it.
    public let file: String
    public let output: OutputSettings
    public let layers: [LayerNode]

    public init(file: String, output: OutputSettings, layers: [LayerNode]) {
        self.file = file
        self.output = output
        self.layers = layers
    }

    /// The job format version this Kiln reads.
    public static let formatVersion = 1
}
