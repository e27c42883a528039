/// SwiftUI's `.move(edge:)`: slides in from an edge of the container and out towards it.
public struct MoveTransition: TransitionContent {
    public enum Edge: String, Sendable, CaseIterable {
        case leading, trailing, top, bottom
    }

    enum Key {
        static let edge = ParameterKey<String>("edge")
    }

    public static let kind = TransitionKind(
        name: "move", summary: "slides in from an edge of the container and out towards the same edge",
        parameters: ParameterTable([
            Parameter(
                Key.edge, .choice(Edge.allCases.map(\.rawValue)),
                help: "the edge it comes from and goes to, a whole container's width or height away")
        ]), shorthand: Key.edge.name, example: #"{"move": "bottom"}"#
    ) { parameters, _ in
        Edge(rawValue: parameters[Key.edge]).map(Self.init(edge:))
    }

    public let edge: Edge

    public func values(phase: Double, container: SIMD2<Double>, frame: SIMD4<Double>) -> ModifierValues {
        let far = min(abs(phase), 1)
        var values = ModifierValues()
        switch edge {
        case .leading: values.offsetX = -container.x * far
        case .trailing: values.offsetX = container.x * far
        case .top: values.offsetY = -container.y * far
        case .bottom: values.offsetY = container.y * far
        }
        return values
    }
}

extension Transition {
    public static func move(_ edge: MoveTransition.Edge) -> Transition {
        Transition(MoveTransition(edge: edge))
    }
}
