extension VectorPath {
    /// SVG's elliptical arc (endpoint parametrisation, the `A` command), appended as cubics.
    ///
    /// Follows SVG 1.1 appendix F.6: an arc to the current point is omitted, a zero radius makes
    /// it a line, negative radii count by magnitude, and radii too small to span the endpoints
    /// are scaled up uniformly until they just do. Each cubic spans at most an eighth of a turn,
    /// which keeps it within 4·10⁻⁶ of the radius off the ellipse (a quarter turn would be 3·10⁻⁴:
    /// a quarter pixel on a 1000-pixel arc).
    public mutating func arc(
        to p: SIMD2<Double>, radii: SIMD2<Double>, rotation degrees: Double, largeArc: Bool, sweep: Bool
    ) {
        let p0 = currentPoint
        guard p != p0 else { return }
        var rx = abs(radii.x), ry = abs(radii.y)
        guard rx > 0, ry > 0, rx.isFinite, ry.isFinite, degrees.isFinite else { return line(to: p) }
        let (sinPhi, cosPhi) = ScalarTrig.sinCos(degrees * ScalarTrig.pi / 180)
        // F.6.5.1: the midpoint in the ellipse's axes.
        let half = (p0 - p) / 2
        let x1 = cosPhi * half.x + sinPhi * half.y
        let y1 = -sinPhi * half.x + cosPhi * half.y
        // F.6.6: scale radii up when no ellipse of these radii reaches both points.
        let lambda = (x1 * x1) / (rx * rx) + (y1 * y1) / (ry * ry)
        if lambda > 1 {
            let s = lambda.squareRoot()
            rx *= s
            ry *= s
        }
        // F.6.5.2: the centre in the ellipse's axes.
        let rx2 = rx * rx, ry2 = ry * ry
        let denominator = rx2 * y1 * y1 + ry2 * x1 * x1
        var factor = 0.0
        if denominator > 0 {
            factor = max(0, (rx2 * ry2 - denominator) / denominator).squareRoot()
        }
        if largeArc == sweep { factor = -factor }
        let cx1 = factor * rx * y1 / ry, cy1 = -factor * ry * x1 / rx
        // F.6.5.3 and 5.5–6: start angle and sweep.
        let mid = (p0 + p) / 2
        let center = SIMD2(cosPhi * cx1 - sinPhi * cy1 + mid.x, sinPhi * cx1 + cosPhi * cy1 + mid.y)
        let u = SIMD2((x1 - cx1) / rx, (y1 - cy1) / ry)
        let v = SIMD2((-x1 - cx1) / rx, (-y1 - cy1) / ry)
        let theta1 = ScalarTrig.atan2(u.y, u.x)
        var delta = ScalarTrig.atan2(u.x * v.y - u.y * v.x, u.x * v.x + u.y * v.y)
        if !sweep && delta > 0 { delta -= 2 * ScalarTrig.pi }
        if sweep && delta < 0 { delta += 2 * ScalarTrig.pi }
        guard center.x.isFinite, center.y.isFinite, delta.isFinite, delta != 0 else { return line(to: p) }
        let count = max(1, Int((abs(delta) / (ScalarTrig.pi / 4) - 1e-9).rounded(.up)))
        let step = delta / Double(count)
        // Control arm of a unit-circle arc of angle `step`: 4/3 · tan(step / 4).
        let quarter = ScalarTrig.sinCos(step / 4)
        let arm = 4.0 / 3.0 * quarter.sin / quarter.cos
        func place(_ unit: SIMD2<Double>) -> SIMD2<Double> {
            let e = SIMD2(unit.x * rx, unit.y * ry)
            return center + SIMD2(cosPhi * e.x - sinPhi * e.y, sinPhi * e.x + cosPhi * e.y)
        }
        var a = ScalarTrig.sinCos(theta1)
        for i in 1...count {
            let b = ScalarTrig.sinCos(theta1 + step * Double(i))
            let c1 = SIMD2(a.cos - arm * a.sin, a.sin + arm * a.cos)
            let c2 = SIMD2(b.cos + arm * b.sin, b.sin - arm * b.cos)
            // The last point is the one asked for, not its recomputation.
            curve(to: i == count ? p : place(SIMD2(b.cos, b.sin)), control1: place(c1), control2: place(c2))
            a = b
        }
    }
}
