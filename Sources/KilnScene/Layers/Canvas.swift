/// The frame a scene is rendered into, and how it is cut into bands.
public struct Canvas: Sendable, Hashable {
    public let width: Int
    public let height: Int
    public let bandHeight: Int
    /// When pixel stages over a large blur run on a reduced grid (`ReducedPipelineLayer`).
    public let reducedEvaluation: ReducedEvaluation

    public init(
        width: Int, height: Int, bandHeight: Int = 8, reducedEvaluation: ReducedEvaluation = .whenSafe
    ) {
        self.width = width
        self.height = height
        self.bandHeight = bandHeight
        self.reducedEvaluation = reducedEvaluation
    }
}
