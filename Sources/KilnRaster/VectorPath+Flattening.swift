/// One subpath as a polyline: its points in order, and whether it was closed.
struct Polyline {
    var points: [SIMD2<Double>]
    var closed: Bool
}

extension VectorPath {
    /// Most line segments one curve becomes: at that count even a quarter circle of a 16 K
    /// frame's radius deviates less than 1/256 pixel, and hostile control points cannot make
    /// millions.
    static let maximumSegmentsPerCurve = 2048

    /// The path with every curve replaced by lines that stay within `tolerance` of it.
    public func flattened(tolerance: Double) -> VectorPath {
        var result = VectorPath()
        for line in polylines(tolerance: tolerance) {
            guard let first = line.points.first else { continue }
            result.move(to: first)
            for p in line.points.dropFirst() { result.line(to: p) }
            if line.closed { result.close() }
        }
        return result
    }

    /// Segments for a curve whose control polygon has second differences of length up to
    /// `bend`: uniform steps of a Bézier deviate at most (max |B''|) / (8 n²) from it.
    static func segments(bend: Double, scale: Double, tolerance: Double) -> Int {
        let n = (bend * scale / (8 * tolerance)).squareRoot().rounded(.up)
        guard n.isFinite else { return maximumSegmentsPerCurve }
        return min(max(Int(n), 1), maximumSegmentsPerCurve)
    }

    /// The subpaths as polylines, curves subdivided uniformly with as many steps as keep them
    /// within `tolerance` (in this path's units).
    func polylines(tolerance: Double) -> [Polyline] {
        let tolerance = max(tolerance, 1e-6)
        var result: [Polyline] = []
        var current = Polyline(points: [], closed: false)
        func finish() {
            if !current.points.isEmpty { result.append(current) }
            current = Polyline(points: [], closed: false)
        }
        func length(_ v: SIMD2<Double>) -> Double { (v * v).sum().squareRoot() }
        var last = SIMD2<Double>.zero
        for element in elements {
            switch element {
            case .move(let p):
                finish()
                current.points.append(p)
                last = p
            case .line(let p):
                current.points.append(p)
                last = p
            case .quad(let c, let p):
                // |B''| = 2 |p0 − 2c + p|.
                let n = Self.segments(bend: length(last - 2 * c + p), scale: 2, tolerance: tolerance)
                let p0 = last
                for i in 1..<n {
                    let t = Double(i) / Double(n), u = 1 - t
                    current.points.append(u * u * p0 + 2 * u * t * c + t * t * p)
                }
                current.points.append(p)
                last = p
            case .cubic(let c1, let c2, let p):
                // |B''| ≤ 6 max(|p0 − 2c1 + c2|, |c1 − 2c2 + p|).
                let bend = max(length(last - 2 * c1 + c2), length(c1 - 2 * c2 + p))
                let n = Self.segments(bend: bend, scale: 6, tolerance: tolerance)
                let p0 = last
                for i in 1..<n {
                    let t = Double(i) / Double(n), u = 1 - t
                    let a = u * u * u, b = 3 * u * u * t, cc = 3 * u * t * t, d = t * t * t
                    current.points.append(a * p0 + b * c1 + cc * c2 + d * p)
                }
                current.points.append(p)
                last = p
            case .close:
                current.closed = true
                let start = current.points.first ?? last
                finish()
                last = start
            }
        }
        finish()
        return result
    }
}

extension VectorPath {
    /// How many points `polylines(tolerance:)` makes, counted without making them: what the
    /// memory estimate charges a path's flattening and stroking before any of it is allocated.
    public func flattenedPointCount(tolerance: Double) -> Int {
        let tolerance = max(tolerance, 1e-6)
        func length(_ v: SIMD2<Double>) -> Double { (v * v).sum().squareRoot() }
        var count = 0
        var last = SIMD2<Double>.zero, start = SIMD2<Double>.zero
        for element in elements {
            switch element {
            case .move(let p):
                count += 1
                (last, start) = (p, p)
            case .line(let p):
                count += 1
                last = p
            case .quad(let c, let p):
                count += Self.segments(bend: length(last - 2 * c + p), scale: 2, tolerance: tolerance)
                last = p
            case .cubic(let c1, let c2, let p):
                let bend = max(length(last - 2 * c1 + c2), length(c1 - 2 * c2 + p))
                count += Self.segments(bend: bend, scale: 6, tolerance: tolerance)
                last = p
            case .close:
                last = start
            }
        }
        return count
    }
}

extension StrokeStyle {
    /// The most points one piece of this stroke's outline has at `tolerance` (in the path's
    /// units): a round join's or cap's circle, else four.
    public func piecePoints(tolerance: Double) -> Int {
        guard join == .round || cap == .round else { return 4 }
        return max(PathStroker(style: self, tolerance: tolerance).circle.count, 4)
    }
}
