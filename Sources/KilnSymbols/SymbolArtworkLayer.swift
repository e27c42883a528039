import KilnModel
import KilnRaster

/// One named layer of a symbol (a direct child `<g>` of the file's root), in drawing order.
public struct SymbolArtworkLayer: Sendable {
    /// The group's `id`.
    public let name: String
    public let level: SymbolLayerLevel
    /// `data-variable`: lit when the variable value is at least this; nil when not variable.
    public let variableThreshold: Double?
    public let shapes: [SymbolShape]
    /// Of all shapes, strokes included, in normalised viewBox units.
    public let bounds: (min: SIMD2<Double>, max: SIMD2<Double>)

    public init(
        name: String, level: SymbolLayerLevel, variableThreshold: Double?, shapes: [SymbolShape],
        bounds: (min: SIMD2<Double>, max: SIMD2<Double>)
    ) {
        self.name = name
        self.level = level
        self.variableThreshold = variableThreshold
        self.shapes = shapes
        self.bounds = bounds
    }

    /// The threshold as people write it: `0.5`, or `1/3` for a step that has no short decimal.
    public var thresholdText: String? {
        guard let value = variableThreshold else { return nil }
        let decimal = NumberText.format(value)
        guard decimal.count > 6 else { return decimal }
        for n in 2...12 {
            let k = (value * Double(n)).rounded()
            if k / Double(n) == value { return "\(Int(k))/\(n)" }
        }
        return decimal
    }

    public var info: SymbolLayerInfo {
        SymbolLayerInfo(name: name, level: level, variableThreshold: variableThreshold)
    }
}
