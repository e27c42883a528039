/// Sine, cosine and arctangent in Double for path geometry (arcs, rotations, round joins). The
/// raster core has no libm; these are series after range reduction, accurate to a few units in
/// the last place, which geometry in pixels never notices, and the same bits on every machine.
enum ScalarTrig {
    static let pi = 3.141_592_653_589_793
    static let halfPi = 1.570_796_326_794_896_6

    /// sin x and cos x; (0, 1) for arguments that are not finite.
    static func sinCos(_ angle: Double) -> (sin: Double, cos: Double) {
        guard angle.isFinite else { return (0, 1) }
        // fmod is exact; it keeps the quadrant count below small integers.
        let x = angle.truncatingRemainder(dividingBy: 2 * pi)
        let k = (x / halfPi).rounded()
        // π/2 in two parts, so r keeps its precision.
        let r = (x - k * 1.570_796_326_794_896_6) - k * 6.123_233_995_736_766e-17
        let r2 = r * r
        // |r| ≤ π/4: terms to r¹⁷ / r¹⁶ leave less than 1e-17.
        var s = 1.0 / 355_687_428_096_000
        s = s * r2 - 1.0 / 1_307_674_368_000
        s = s * r2 + 1.0 / 6_227_020_800
        s = s * r2 - 1.0 / 39_916_800
        s = s * r2 + 1.0 / 362_880
        s = s * r2 - 1.0 / 5_040
        s = s * r2 + 1.0 / 120
        s = s * r2 - 1.0 / 6
        let sine = r + r * r2 * s
        var c = 1.0 / 20_922_789_888_000
        c = c * r2 - 1.0 / 87_178_291_200
        c = c * r2 + 1.0 / 479_001_600
        c = c * r2 - 1.0 / 3_628_800
        c = c * r2 + 1.0 / 40_320
        c = c * r2 - 1.0 / 720
        c = c * r2 + 1.0 / 24
        c = c * r2 - 0.5
        let cosine = 1 + r2 * c
        switch Int(k) & 3 {
        case 0: return (sine, cosine)
        case 1: return (cosine, -sine)
        case 2: return (-sine, -cosine)
        default: return (-cosine, sine)
        }
    }

    /// The angle of (x, y) in −π…π; 0 for the origin or non-finite input.
    static func atan2(_ y: Double, _ x: Double) -> Double {
        guard x.isFinite, y.isFinite, x != 0 || y != 0 else { return 0 }
        let ax = abs(x), ay = abs(y)
        var t = min(ax, ay) / max(ax, ay)
        // atan t = 2·atan(t / (1 + √(1 + t²))), twice: the argument drops below 0.2.
        t = t / (1 + (1 + t * t).squareRoot())
        t = t / (1 + (1 + t * t).squareRoot())
        let t2 = t * t
        var p = 1.0 / 23
        for n in stride(from: 21, through: 3, by: -2) {
            p = 1.0 / Double(n) - t2 * p
        }
        var angle = 4 * (t - t * t2 * p)
        if ay > ax { angle = halfPi - angle }
        if x < 0 { angle = pi - angle }
        return y < 0 ? -angle : angle
    }
}
