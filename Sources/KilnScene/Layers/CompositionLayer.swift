import Foundation
import KilnModel
import KilnRaster

/// Another job (a file, or one of the job's inline `compositions`) played as a layer: its layers
/// in a box of its own size, at the time `CompositionTiming` maps the timeline to, with the
/// variables the layer passes in. It prepares as a group of those layers would (`LayerNode`
/// recognises it), so every transform, effect, transition and blend mode applies to the whole.
public struct CompositionLayer: NestedLayers {
    public let size: SIMD2<Double>
    public let timing: CompositionTiming
    /// The composition's own camera over its layers.
    public let camera: Camera?
    public let nestedLayers: [LayerNode]

    enum TrimKey {
        static let start = ParameterKey<Animated<Double>>("start")
        static let end = ParameterKey<Animated<Double>>("end")
    }

    static let trimTable = ParameterTable([
        Parameter(
            TrimKey.start, .constantNumber(0...86_400), default: .number(0),
            help: "seconds into the composition where the used part begins"),
        Parameter(
            TrimKey.end, .constantNumber(0...86_400), default: .number(0), defaultDescription: "its end",
            help: "seconds into the composition where the used part ends; after start, at most its duration"),
    ])

    enum Key {
        static let file = ParameterKey<URL?>("file")
        static let composition = ParameterKey<String>("composition")
        static let variables = ParameterKey<JSONNode?>("variables")
        static let trim = ParameterKey<JSONNode?>("trim")
        static let offset = ParameterKey<Animated<Double>>("offset")
        static let speed = ParameterKey<Animated<Double>>("speed")
        static let loop = ParameterKey<Bool>("loop")
    }

    public static let parameters = ParameterTable([
        Parameter(
            Key.file, .assetPath, default: .string(""), defaultDescription: "none: `composition` names it",
            help:
                "a job file to play, relative to this job's file; its output's width, height and duration "
                + "are the composition's box and length"),
        Parameter(
            Key.composition, .string, default: .string(""), defaultDescription: "none: `file` names it",
            help: "the name of a composition under the job's `compositions`"),
        Parameter(
            Key.variables, .structured("object of values", schema: variablesSchema), default: .string("none"),
            defaultDescription: "the composition's defaults",
            help: "values for the composition's variables: {\"title\": \"…\"}"),
        Parameter(
            Key.trim, .structured("object {\"start\": s, \"end\": e}", schema: ValueSchema.object(trimTable)),
            default: .string("none"), defaultDescription: "the whole composition",
            help: "the part played, in seconds of the composition"),
        Parameter(
            Key.offset, .constantNumber(0...86_400), default: .number(0),
            help: "timeline seconds at which the trimmed composition starts playing"),
        Parameter(
            Key.speed, .constantNumber(0.25...4), default: .number(1),
            help: "playback rate: 0.5 is half speed, 2 double"),
        Parameter(
            Key.loop, .boolean, default: .boolean(false),
            help: "repeat the trimmed composition; otherwise nothing shows once it has played"),
    ])

    static let variablesSchema = JSONSchema.type("object")
        .with("additionalProperties", JSONSchema.anyOf([.type("string"), .type("number")]))

    static let namingOneComposition: [JSONSchema] = [.requiring(["file"]), .requiring(["composition"])]

    public static let kind = LayerKind(
        name: "composition",
        summary: "another job (a file or an inline composition) played as a layer: offset, trim, speed, loop",
        parameters: parameters, schemaRules: [JSONSchema().with("oneOf", namingOneComposition)]
    ) { params, path, context in
        let named = (params.isPresent(Key.file), params.isPresent(Key.composition))
        guard named.0 != named.1 else {
            context.error(
                named.0
                    ? "give either 'file' or 'composition', not both"
                    : "missing 'file' (a job file) or 'composition' (a name under 'compositions')",
                at: params.node(Key.composition) ?? params.node(Key.file), path: path)
            return nil
        }
        let source: CompositionSource
        let at: JSONPath
        if named.0 {
            guard let url = params[Key.file] else { return nil }
            source = .file(url, written: params.writtenPath(Key.file))
            at = params.path(Key.file)
        } else {
            source = .inline(params[Key.composition])
            at = params.path(Key.composition)
        }
        let before = context.diagnostics.count
        guard
            let composition = context.decodeComposition(
                source, variables: params.node(Key.variables), variablesPath: params.path(Key.variables),
                at: named.0 ? params.node(Key.file) : params.node(Key.composition), path: at),
            context.diagnostics.count == before,
            let timing = decodeTiming(params, duration: composition.duration, context)
        else { return nil }
        return CompositionLayer(
            size: composition.size, timing: timing, camera: composition.camera,
            nestedLayers: composition.layers)
    }

    private static func decodeTiming(
        _ params: DecodedParameters, duration: Double, _ context: DecodeContext
    ) -> CompositionTiming? {
        var start = 0.0, end = duration
        if let node = params.node(Key.trim) {
            let errors = context.diagnostics.count
            let trim = trimTable.decode(node, path: params.path(Key.trim), context: context)
            guard context.diagnostics.count == errors else { return nil }
            start = trim[TrimKey.start].value(at: 0)
            if trim.isPresent(TrimKey.end) {
                end = trim[TrimKey.end].value(at: 0)
                if end > duration {
                    context.error(
                        "trim end \(ResourceLimits.text(end)) s is past the composition's end "
                            + "(\(ResourceLimits.text(duration)) s)", at: trim.node(TrimKey.end),
                        path: trim.path(TrimKey.end))
                    return nil
                }
            }
            guard start < end else {
                context.error(
                    "trim start \(ResourceLimits.text(start)) s must be before its end (\(ResourceLimits.text(end)) s)",
                    at: trim.node(TrimKey.start), path: trim.path(TrimKey.start))
                return nil
            }
        }
        return CompositionTiming(
            trimStart: start, trimEnd: end, offset: params[Key.offset].value(at: 0),
            speed: params[Key.speed].value(at: 0), loop: params[Key.loop])
    }

    public init(size: SIMD2<Double>, timing: CompositionTiming, camera: Camera?, nestedLayers: [LayerNode]) {
        self.size = size
        self.timing = timing
        self.camera = camera
        self.nestedLayers = nestedLayers
    }
}
