/// SwiftUI's `.offset(x:y:)`: comes in from an offset in pixels and leaves towards it.
public struct OffsetTransition: TransitionContent {
    static let limit = ModifierProperty.offsetX.range

    enum Key {
        static let offset = ParameterKey<JSONNode?>("offset")
    }

    public static let kind = TransitionKind(
        name: "offset", summary: "comes in from an offset in pixels and leaves towards it",
        parameters: ParameterTable([
            Parameter(
                Key.offset,
                .structured(
                    "point [x, y] with x, y in \(NumberText.format(limit))", schema: ValueSchema.point(limit)),
                help: "pixels right and down at the far phases")
        ]), shorthand: Key.offset.name, example: #"{"offset": [0, 120]}"#
    ) { parameters, decoder in
        parameters.node(Key.offset).flatMap {
            ValueDecoding.constantPoint(
                $0, path: parameters.objectPath, range: limit, context: decoder.context)
        }.map { Self(x: $0.x, y: $0.y) }
    }

    public let x: Double
    public let y: Double

    public func values(phase: Double, container: SIMD2<Double>, frame: SIMD4<Double>) -> ModifierValues {
        let far = min(abs(phase), 1)
        var values = ModifierValues()
        values.offsetX = x * far
        values.offsetY = y * far
        return values
    }
}

extension Transition {
    public static func offset(x: Double, y: Double) -> Transition { Transition(OffsetTransition(x: x, y: y)) }
}
