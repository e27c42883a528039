/// The parameter tables of the job format that the model owns (the layer kinds and effects belong
/// to the scene's registry), public so that the generated docs read the same tables the decoder does.
public enum JobFormatTables {
    /// The `output` object: the keys its table decodes, then those decoded by hand.
    public static let output = ParameterTable(
        OutputDecoding.table.parameters + OutputDecoding.handledParameters)
    public static let audio = AudioDecoding.parameters
    public static let audioMix = AudioDecoding.mixTable
    public static let audioDuck = AudioDecoding.duckTable
    public static let audioDriven = AudioDrivenDecoding.table
    /// The job's and a group's `camera` object.
    public static let camera = Camera.table
    /// The keys every layer takes for its placement.
    public static let transform = ParameterTable(LayerTransform.parameters)
    /// The properties transitions, scroll transitions and visual effects drive; the default of each
    /// is its identity, which a property without a mapping keeps.
    public static let modifiers = ParameterTable(
        ModifierProperty.allCases.map {
            Parameter(
                name: $0.rawValue, .constantNumber($0.range), default: .number($0.identity), help: $0.help)
        })
}
