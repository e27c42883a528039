/// Where a layer of a symbol sits in its hierarchy (SF Symbols' hierarchical rendering): the
/// primary layer carries the symbol's meaning at full strength, the secondary and tertiary ones
/// recede. The symbol file names it per layer; rendering modes and some effects read it.
public enum SymbolLayerLevel: String, Sendable, Hashable, CaseIterable {
    case primary, secondary, tertiary

    /// The opacity hierarchical rendering gives the layer's colour.
    public var hierarchicalOpacity: Double {
        switch self {
        case .primary: 1
        case .secondary: 0.5
        case .tertiary: 0.25
        }
    }
}

/// What the animation of a symbol needs to know about one of its layers, in drawing order.
public struct SymbolLayerInfo: Sendable, Hashable {
    public let name: String
    public let level: SymbolLayerLevel
    /// The variable value (0…1) at and above which the layer is lit; nil for layers that take no
    /// part in variable value and variable colour (always drawn at full strength).
    public let variableThreshold: Double?

    public init(name: String, level: SymbolLayerLevel = .primary, variableThreshold: Double? = nil) {
        self.name = name
        self.level = level
        self.variableThreshold = variableThreshold
    }
}
