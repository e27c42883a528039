/// Bounds on what a symbol file may ask for, checked before the work or allocation they would
/// cause: a symbol is a few dozen shapes, so these are far above any real one and far below
/// what could exhaust memory or time.
public enum SymbolLimits {
    /// Bytes of an SVG file, checked before reading it.
    public static let fileBytes = 4 << 20
    /// Elements in the document, of any kind.
    public static let elements = 20_000
    /// Nesting of elements below the root.
    public static let depth = 32
    /// Direct child groups of the root.
    public static let layers = 64
    /// Characters of one `d`, `points` or `transform` attribute.
    public static let attributeCharacters = 256 << 10
    /// Path segments of the whole symbol, after shapes become paths.
    public static let segments = 200_000
    /// Largest width of the viewBox in heights: what keeps a symbol's box (and so the layer
    /// drawing it) a sane size.
    public static let aspectRatio = 20.0
    /// Largest `stroke-miterlimit` (SVG allows any; a miter may reach out this many half widths).
    public static let miterLimit = 100.0
    /// Largest coordinate, in normalised viewBox units (height 100), after every transform.
    public static let coordinateMagnitude = 1e6
}
