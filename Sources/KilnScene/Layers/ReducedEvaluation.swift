import KilnRaster

/// Whether pixel stages over a large blur may be evaluated on a reduced grid. Renders always use
/// `whenSafe`; the others exist to measure against it (tests, kiln-bench).
public enum ReducedEvaluation: Sendable, Hashable {
    /// When `ReducedGrid.factor` allows it for the blur and the stages are smooth at the grid's
    /// scale; the grid is checked cell by cell and the cells it may miss evaluated per pixel.
    case whenSafe
    /// Never: every pixel through the stages.
    case off
    /// On a grid of this factor (2 or 4) wherever the structure allows it (a reduced-only blur,
    /// clamped edges, smooth stages), without the checks: to measure what they buy.
    case forced(Int)
}
