/// How a stroke ends at the open ends of a subpath (SVG's `stroke-linecap`): flat at the end
/// point, a half disc around it, or a half square reaching half the width past it.
public enum LineCap: String, Sendable, Hashable, CaseIterable {
    case butt, round, square
}
