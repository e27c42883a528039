import KilnModel

/// The generated parts of docs/job-format.md: every parameter table the decoder uses, rendered
/// into the document's `<!-- BEGIN GENERATED: id -->` regions (see `GeneratedRegions`). `kiln docs`
/// writes and checks them, and a test fails when the file in the repository is stale.
public enum JobFormatDocs {
    /// The document the regions belong to, relative to the repository root.
    public static let file = "docs/job-format.md"

    /// Registry lists documented as one table each; a new list is one line here.
    static let catalogues: [(id: String, heading: String, kinds: [any DocumentedKind])] = [
        ("effects", "Effect", LayerRegistry.effects),
        ("transitions", "Transition", LayerRegistry.transitions),
    ]

    /// Tables of single objects: the model's own, every layer kind's (`layer.NAME`), and the nested
    /// objects some kinds decode by hand.
    static var tables: [(id: String, table: ParameterTable)] {
        [
            ("output", JobFormatTables.output), ("audio", JobFormatTables.audio),
            ("audio.mix", JobFormatTables.audioMix), ("audio.duck", JobFormatTables.audioDuck),
            ("audio.driven", JobFormatTables.audioDriven),
            ("transform", JobFormatTables.transform), ("modifiers", JobFormatTables.modifiers),
            ("camera", JobFormatTables.camera),
        ]
            + LayerRegistry.kinds.map { ("layer.\($0.name)", documentedParameters($0)) }
            + [
                ("text.reveal", TextLayer.revealTable),
                ("text.stroke", TextLayer.strokeTable),
                ("text.background", TextLayer.backgroundTable),
                ("captions.highlight", CaptionsLayer.highlightTable),
                ("captions.background", CaptionsLayer.backgroundTable),
                ("video.trim", PlaybackTiming.trimTable(VideoLayer.wording)),
                ("ripple.triggers", RippleEffect.triggerTable),
                ("backgroundWarp.noise", BackgroundWarpEffect.noiseTable),
                ("backgroundWarp.noise.generate", BackgroundWarpEffect.generateTable),
            ]
    }

    /// A container's `layers` key is decoded by the loader, not by its table, but belongs in its docs.
    static func documentedParameters(_ kind: LayerKind) -> ParameterTable {
        guard kind.containsLayers else { return kind.parameters }
        return ParameterTable(LayerKind.containerParameters + kind.parameters.parameters)
    }

    public static var regions: GeneratedRegions {
        GeneratedRegions(
            tables.map { .init(id: $0.id, markdown: ParameterTableMarkdown.table($0.table)) }
                + catalogues.map {
                    .init(
                        id: $0.id, markdown: ParameterTableMarkdown.catalogue($0.kinds, heading: $0.heading))
                })
    }

    /// `document` (the text of `file`) with every generated region brought up to date.
    public static func rewrite(_ document: String, file: String = file) throws(GeneratedRegions.Problem)
        -> String
    {
        try regions.rewrite(document, file: file)
    }
}
