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
        /// Horizontal stacks only: children's first text baselines on one line (SwiftUI's
        /// `.firstTextBaseline`); a child without text sits with its bottom edge on it.
        case firstTextBaseline

        /// Where a `length` starts when aligned within `space` along the cross axis.
        func offset(of length: Double, in space: Double) -> Double {
            switch self {
            case .leading, .firstTextBaseline: 0
            case .center: (space - length) / 2
            case .trailing: space - length
            }
        }
    }

    /// What the layout needs of one child.
    public struct Slot: Sendable, Equatable {
        public var size: SIMD2<Double>
        /// The child's first baseline, from the top of its box; nil: it has none (its bottom edge).
        public var baseline: Double?
        /// 0…1: how much of its slot the child takes along the axis (1 unless it is entering or
        /// leaving, `LayerLifetime.layoutPresence`).
        public var presence: Double

        public init(size: SIMD2<Double>, baseline: Double? = nil, presence: Double = 1) {
            self.size = size
            self.baseline = baseline
            self.presence = presence
        }
    }

    public let axis: Axis
    public let alignment: Alignment
    public let spacing: Animated<Double>

    enum Key {
        static let axis = ParameterKey<String>("axis")
        static let alignment = ParameterKey<String>("alignment")
        static let spacing = ParameterKey<Animated<Double>>("spacing")
    }

    public static let parameters = ParameterTable([
        Parameter(
            Key.axis, .choice(Axis.allCases.map(\.rawValue)), default: .string("horizontal"),
            help: "horizontal (HStack, left to right) or vertical (VStack, top to bottom)"),
        Parameter(
            Key.alignment, .choice(Alignment.allCases.map(\.rawValue)), default: .string("center"),
            help:
                "cross-axis alignment: leading (top / left), center, trailing (bottom / right), "
                + "firstTextBaseline (horizontal only: text and symbols share a baseline)"),
        Parameter(
            Key.spacing, .number(-4_096...4_096), default: .number(8),
            help: "pixels between neighbouring children"),
    ])

    public static let kind = LayerKind(
        name: "stack", summary: "children laid out in a row or a column with spacing and alignment",
        parameters: parameters, containsLayers: true
    ) { params, path, context in
        let axis = Axis(rawValue: params[Key.axis]) ?? .horizontal
        let alignment = Alignment(rawValue: params[Key.alignment]) ?? .center
        if alignment == .firstTextBaseline, axis == .vertical {
            context.error(
                "firstTextBaseline aligns the children of a horizontal stack; a vertical stack aligns "
                    + "leading, center or trailing",
                at: params.node(Key.alignment), path: params.path(Key.alignment))
            return nil
        }
        return StackLayer(axis: axis, alignment: alignment, spacing: params[Key.spacing])
    }

    public init(axis: Axis, alignment: Alignment = .center, spacing: Animated<Double> = .constant(8)) {
        self.axis = axis
        self.alignment = alignment
        self.spacing = spacing
    }

    /// The stack's box and each child's slot origin within it. A child that is only partly
    /// present takes that fraction of its length and of the spacing after it, so neighbours of an
    /// entering or leaving child move smoothly and a gone child leaves no gap.
    public func layout(_ slots: [Slot], at time: Double) -> (box: SIMD2<Double>, origins: [SIMD2<Double>]) {
        let gap = spacing.value(at: time)
        let main = axis == .horizontal ? 0 : 1, cross = 1 - main
        let presence = slots.map { min(max($0.presence, 0), 1) }
        // Baseline alignment puts every child's baseline (or bottom) at the deepest one's depth.
        let baselines = slots.map { $0.baseline ?? $0.size[cross] }
        let aboveBaseline = baselines.max() ?? 0
        let crossOrigins: [Double]
        let crossExtent: Double
        if alignment == .firstTextBaseline {
            crossOrigins = baselines.map { aboveBaseline - $0 }
            crossExtent = zip(crossOrigins, slots).map { $0 + $1.size[cross] }.max() ?? 0
        } else {
            // An entering or leaving child weighs in by its presence, so the box changes smoothly.
            crossExtent = zip(slots, presence).map { $0.size[cross] * $1 }.max() ?? 0
            crossOrigins = slots.map { alignment.offset(of: $0.size[cross], in: crossExtent) }
        }
        var origins: [SIMD2<Double>] = []
        var cursor = 0.0
        for (index, slot) in slots.enumerated() {
            var origin = SIMD2<Double>()
            origin[main] = cursor
            origin[cross] = crossOrigins[index]
            origins.append(origin)
            cursor += (slot.size[main] + gap) * presence[index]
        }
        var box = SIMD2<Double>()
        box[main] = max(cursor - gap * min(presence.reduce(0, +), 1), 0)
        box[cross] = crossExtent
        return (box, origins)
    }

    /// The stack's first baseline from the top of its box: a row's shared baseline (or its first
    /// child's), a column's first child's; nil when the children have none.
    public func firstBaseline(_ slots: [Slot], origins: [SIMD2<Double>]) -> Double? {
        guard let index = slots.firstIndex(where: { $0.baseline != nil }),
            let baseline = slots[index].baseline
        else { return nil }
        return origins[index].y + baseline
    }
}
