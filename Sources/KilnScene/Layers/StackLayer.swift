import KilnModel
import KilnRaster

/// SwiftUI's HStack / VStack: children laid out one after another along an axis, `spacing` apart,
/// aligned on the other axis; the stack's box is just large enough to hold them.
///
/// Each child gets a slot the size of its own content (a shape's size, a group's or stack's box,
/// the frame for frame-sized content); its transform then applies within that slot, so a child
/// with no `position` sits in its slot and rotation or scale do not move its neighbours (as
/// SwiftUI's visual effects do not change layout).
public struct StackLayer: LayerContent {
    public enum Axis: String, Sendable, CaseIterable { case horizontal, vertical }
    public enum Alignment: String, Sendable, CaseIterable {
        case leading, center, trailing

        /// Where a `length` starts when aligned within `space` along the cross axis.
        func offset(of length: Double, in space: Double) -> Double {
            switch self {
            case .leading: 0
            case .center: (space - length) / 2
            case .trailing: space - length
            }
        }
    }

    public let axis: Axis
    public let alignment: Alignment
    public let spacing: Animated<Double>

    public static let parameters = ParameterTable([
        Parameter(
            "axis", .choice(Axis.allCases.map(\.rawValue)), default: .string("horizontal"),
            help: "horizontal (HStack, left to right) or vertical (VStack, top to bottom)"),
        Parameter(
            "alignment", .choice(Alignment.allCases.map(\.rawValue)), default: .string("center"),
            help: "cross-axis alignment: leading (top / left), center, trailing (bottom / right)"),
        Parameter(
            "spacing", .number(-4_096...4_096), default: .number(8),
            help: "pixels between neighbouring children"),
    ])

    public static let kind = LayerKind(
        name: "stack", summary: "children laid out in a row or a column with spacing and alignment",
        parameters: parameters, containsLayers: true
    ) { params, _, _ in
        StackLayer(
            axis: Axis(rawValue: params.string("axis")) ?? .horizontal,
            alignment: Alignment(rawValue: params.string("alignment")) ?? .center,
            spacing: params.number("spacing"))
    }

    public init(axis: Axis, alignment: Alignment = .center, spacing: Animated<Double> = .constant(8)) {
        self.axis = axis
        self.alignment = alignment
        self.spacing = spacing
    }

    /// The stack's box and each child's slot origin within it.
    public func layout(_ sizes: [SIMD2<Double>], at time: Double) -> (
        box: SIMD2<Double>, origins: [SIMD2<Double>]
    ) {
        let gap = spacing.value(at: time)
        let main = axis == .horizontal ? 0 : 1, cross = 1 - main
        let crossExtent = sizes.map { $0[cross] }.max() ?? 0
        var origins: [SIMD2<Double>] = []
        var cursor = 0.0
        for size in sizes {
            var origin = SIMD2<Double>()
            origin[main] = cursor
            origin[cross] = alignment.offset(of: size[cross], in: crossExtent)
            origins.append(origin)
            cursor += size[main] + gap
        }
        var box = SIMD2<Double>()
        box[main] = sizes.isEmpty ? 0 : cursor - gap
        box[cross] = crossExtent
        return (box, origins)
    }
}
