import Foundation
import KilnModel
import KilnRaster

/// Another job (a file, or one of the job's inline `compositions`) played as a layer: its layers
/// in a box of its own size, at the time `PlaybackTiming.localTime(at:)` maps the timeline to, with
/// variables the layer passes in. It prepares as a group of those layers would (`LayerNode`
/// recognises it), so every transform, effect, transition and blend mode applies to the whole.
public struct CompositionLayer: NestedLayers {
    public let size: SIMD2<Double>
    public let timing: PlaybackTiming
    /// The composition's own camera over its layers.
    public let camera: Camera?
    public let nestedLayers: [LayerNode]

    static let wording = PlaybackTiming.Wording(
        piece: "composition", end: "its end", duration: "its duration",
        trim: "the part played, in seconds of the composition",
        afterEnd: "nothing shows once it has played")

    enum Key {
        static let file = ParameterKey<URL?>("file")
        static let composition = ParameterKey<String>("composition")
        static let variables = ParameterKey<JSONNode?>("variables")
    }

    public static let parameters = ParameterTable(
        [
            Parameter(
                Key.file, .assetPath, default: .string(""),
                defaultDescription: "none: `composition` names it",
                help:
                    "a job file to play, relative to this job's file; its output's width, height and duration "
                    + "are the composition's box and length"),
            Parameter(
                Key.composition, .string, default: .string(""), defaultDescription: "none: `file` names it",
                help: "the name of a composition under the job's `compositions`"),
            Parameter(
                Key.variables, .structured("object of values", schema: variablesSchema),
                default: .string("none"),
                defaultDescription: "the composition's defaults",
                help: "values for the composition's variables: {\"title\": \"…\"}"),
        ] + PlaybackTiming.parameters(wording))

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
            let timing = PlaybackTiming.decode(
                params, wording: wording, duration: composition.duration, endName: "the composition's end",
                unknownDuration: "", at: params.node(Key.file), path: at, context)
        else { return nil }
        return CompositionLayer(
            size: composition.size, timing: timing, camera: composition.camera,
            nestedLayers: composition.layers)
    }

    public init(size: SIMD2<Double>, timing: PlaybackTiming, camera: Camera?, nestedLayers: [LayerNode]) {
        self.size = size
        self.timing = timing
        self.camera = camera
        self.nestedLayers = nestedLayers
    }
}
