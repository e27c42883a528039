import KilnRaster

/// The exact bounding box of a path's outline (curve extrema, not control points), so a layer's
/// bounds, which effects scale about, hug what is drawn.
enum PathExtent {
    static func of(_ path: VectorPath) -> (min: SIMD2<Double>, max: SIMD2<Double>)? {
        var box: (min: SIMD2<Double>, max: SIMD2<Double>)?
        func include(_ p: SIMD2<Double>) {
            if let b = box {
                box = (pointwiseMin(b.min, p), pointwiseMax(b.max, p))
            } else {
                box = (p, p)
            }
        }
        var current = SIMD2<Double>.zero
        var subpathStart = SIMD2<Double>.zero
        for element in path.elements {
            switch element {
            case .move(let p):
                include(p)
                current = p
                subpathStart = p
            case .line(let p):
                include(p)
                current = p
            case .quad(let c, let p):
                include(p)
                for axis in 0..<2 {
                    let denominator = current[axis] - 2 * c[axis] + p[axis]
                    guard denominator != 0 else { continue }
                    let t = (current[axis] - c[axis]) / denominator
                    if t > 0, t < 1 { include(quadPoint(current, c, p, t)) }
                }
                current = p
            case .cubic(let c1, let c2, let p):
                include(p)
                for axis in 0..<2 {
                    for t in cubicExtremaParameters(current[axis], c1[axis], c2[axis], p[axis]) {
                        include(cubicPoint(current, c1, c2, p, t))
                    }
                }
                current = p
            case .close:
                current = subpathStart
            }
        }
        return box
    }

    /// Parameters in (0, 1) where the cubic's derivative along one axis vanishes.
    private static func cubicExtremaParameters(_ p0: Double, _ p1: Double, _ p2: Double, _ p3: Double)
        -> [Double]
    {
        // B'(t)/3 = a·t² + b·t + c
        let a = -p0 + 3 * p1 - 3 * p2 + p3
        let b = 2 * (p0 - 2 * p1 + p2)
        let c = p1 - p0
        var roots: [Double] = []
        if abs(a) < 1e-12 {
            if b != 0 { roots.append(-c / b) }
        } else {
            let discriminant = b * b - 4 * a * c
            if discriminant >= 0 {
                let root = discriminant.squareRoot()
                roots.append((-b + root) / (2 * a))
                roots.append((-b - root) / (2 * a))
            }
        }
        return roots.filter { $0 > 0 && $0 < 1 }
    }

    private static func quadPoint(_ p0: SIMD2<Double>, _ c: SIMD2<Double>, _ p: SIMD2<Double>, _ t: Double)
        -> SIMD2<Double>
    {
        let u = 1 - t
        return u * u * p0 + 2 * u * t * c + t * t * p
    }

    private static func cubicPoint(
        _ p0: SIMD2<Double>, _ c1: SIMD2<Double>, _ c2: SIMD2<Double>, _ p: SIMD2<Double>, _ t: Double
    ) -> SIMD2<Double> {
        let u = 1 - t
        return u * u * u * p0 + 3 * u * u * t * c1 + 3 * u * t * t * c2 + t * t * t * p
    }
}
