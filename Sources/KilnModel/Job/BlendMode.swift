/// How a layer mixes with what lies below it in its parent's stack, named as SwiftUI's
/// `BlendMode` cases are: the blend modes of W3C Compositing and Blending Level 1 and the
/// plus-lighter and plus-darker operators (CSS `plus-lighter`, `plus-darker`).
public enum BlendMode: String, Sendable, CaseIterable {
    case normal, multiply, screen, overlay, darken, lighten, colorDodge, colorBurn, hardLight, softLight
    case difference, exclusion
    case hue, saturation, color, luminosity
    case plusLighter, plusDarker
}
