/// How a stroke turns a corner (SVG's `stroke-linejoin`): a sharp point (beveled when it would
/// reach past the miter limit), a circular arc, or a straight cut.
public enum LineJoin: String, Sendable, Hashable, CaseIterable {
    case miter, round, bevel
}
