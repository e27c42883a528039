/// A premultiplied colour in Kiln's working space (sRGB-encoded components, 0…1).
public struct PremultipliedColor: Sendable, Hashable {
    public var r: Float
    public var g: Float
    public var b: Float
    public var a: Float

    public init(r: Float, g: Float, b: Float, a: Float) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }

    /// Premultiplies a straight-alpha colour, clamping to the valid range so every stored pixel
    /// keeps the invariant 0 ≤ colour ≤ alpha ≤ 1.
    public init(straightR r: Double, g: Double, b: Double, a: Double) {
        let alpha = Float(min(max(a, 0), 1))
        self.a = alpha
        self.r = Float(min(max(r, 0), 1)) * alpha
        self.g = Float(min(max(g, 0), 1)) * alpha
        self.b = Float(min(max(b, 0), 1)) * alpha
    }

    public static let transparent = PremultipliedColor(r: 0, g: 0, b: 0, a: 0)

    public var simd: SIMD4<Float> { SIMD4(r, g, b, a) }

    public init(_ v: SIMD4<Float>) {
        self.init(r: v.x, g: v.y, b: v.z, a: v.w)
    }

    /// Keeps 0 ≤ alpha ≤ 1 and 0 ≤ colour ≤ alpha after interpolation that may overshoot.
    public var clampedToPremultipliedRange: PremultipliedColor {
        let alpha = min(max(a, 0), 1)
        return PremultipliedColor(
            r: min(max(r, 0), alpha), g: min(max(g, 0), alpha), b: min(max(b, 0), alpha), a: alpha)
    }
}
