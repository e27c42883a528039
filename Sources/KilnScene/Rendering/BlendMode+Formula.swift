import KilnModel
import KilnRaster

extension BlendMode {
    /// The raster's kernel for this mode; nil for `normal`, which is plain source-over and
    /// keeps every fast path of `LayerStack`.
    var formula: BlendFormula? {
        switch self {
        case .normal: nil
        case .multiply: .multiply
        case .screen: .screen
        case .overlay: .overlay
        case .darken: .darken
        case .lighten: .lighten
        case .colorDodge: .colorDodge
        case .colorBurn: .colorBurn
        case .hardLight: .hardLight
        case .softLight: .softLight
        case .difference: .difference
        case .exclusion: .exclusion
        case .hue: .hue
        case .saturation: .saturation
        case .color: .color
        case .luminosity: .luminosity
        case .plusLighter: .plusLighter
        case .plusDarker: .plusDarker
        }
    }
}
