/// A layer's mask (`"mask"`): another layer, laid out in the masked layer's box and moving with
/// it, whose coverage multiplies the masked layer's pixels (SwiftUI's `.mask`, After Effects'
/// track mattes). A class because a mask holds a whole layer, which may itself be masked.
public final class LayerMask: Sendable {
    /// What of the mask layer's pixels is its coverage.
    public enum Mode: String, Sendable, CaseIterable {
        /// Its alpha (an alpha matte).
        case alpha
        /// The Rec. 709 luma of its straight colour times its alpha (a luma matte).
        case luminance
    }

    public let layer: LayerNode
    public let mode: Mode
    /// Coverage becomes 1 − coverage: the mask cuts the layer out instead of letting it through.
    public let inverted: Bool

    public init(layer: LayerNode, mode: Mode = .alpha, inverted: Bool = false) {
        self.layer = layer
        self.mode = mode
        self.inverted = inverted
    }

    /// What the loader reads under `"mask"`, for the schema.
    public static let schema = JSONSchema.object(
        [
            ("layer", JSONSchema.reference(.layer)),
            (
                "mode",
                ValueSchema.choice(Mode.allCases.map(\.rawValue)).describing(
                    "alpha (default) or luminance: what of the mask layer lets the layer through")
            ),
            ("inverted", JSONSchema.type("boolean").describing("1 − coverage (default false)")),
        ], required: ["layer"])
}
