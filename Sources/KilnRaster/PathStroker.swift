/// Turns polylines into the outline of their stroke: one polygon per segment (a quad), per
/// join and per cap, which filled together by the non-zero rule make the stroke. Works in the
/// path's own space, so a non-uniform transform applied afterwards stretches the stroke as SVG
/// does; `tolerance` (in those units) sets how finely round joins and caps are drawn.
///
/// The pieces go to a `StrokeSink` as they are made rather than into one list: a painter keeps
/// only those that reach the frame, so a hostile stroke (thousands of huge arcs, each vertex a
/// 256-point round join) costs what it shows, not what it outlines.
struct PathStroker {
    let style: StrokeStyle
    let tolerance: Double
    let halfWidth: Double
    /// A circle of radius `halfWidth` as a unit polygon, shared by round joins and caps.
    let circle: [SIMD2<Double>]

    init(style: StrokeStyle, tolerance: Double) {
        self.style = style
        self.tolerance = max(tolerance, 1e-9)
        halfWidth = style.width / 2
        // The chord of an arc of angle α sits r (1 − cos α/2) ≈ r α² / 8 inside it.
        var count = 16
        if halfWidth > 0 {
            let alpha = (8 * self.tolerance / halfWidth).squareRoot()
            let n = (2 * ScalarTrig.pi / alpha).rounded(.up)
            count = n.isFinite ? min(max(Int(n), 16), 256) : 256
        }
        // Vertices pushed out so the polygon's area is the circle's: its sides cross the circle
        // instead of all lying inside it, halving the error and keeping dots and caps their weight.
        let step = ScalarTrig.sinCos(2 * ScalarTrig.pi / Double(count)).sin
        let radius = halfWidth * (2 * ScalarTrig.pi / (Double(count) * step)).squareRoot()
        var points: [SIMD2<Double>] = []
        points.reserveCapacity(count)
        for i in 0..<count {
            let (s, c) = ScalarTrig.sinCos(2 * ScalarTrig.pi * Double(i) / Double(count))
            points.append(SIMD2(c, s) * radius)
        }
        circle = points
    }

    static func length(_ v: SIMD2<Double>) -> Double { (v * v).sum().squareRoot() }

    func add(_ line: Polyline, into sink: inout some StrokeSink) {
        guard halfWidth > 0, halfWidth.isFinite, !sink.isComplete else { return }
        // Zero-length segments have no direction: drop repeated points.
        var points: [SIMD2<Double>] = []
        points.reserveCapacity(line.points.count)
        let epsilon = halfWidth * 1e-9
        for p in line.points where points.last.map({ Self.length(p - $0) > epsilon }) ?? true {
            points.append(p)
        }
        var closed = line.closed
        if closed, points.count > 1, Self.length(points[points.count - 1] - points[0]) <= epsilon {
            points.removeLast()
        }
        if points.count == 1 {
            // A dot: SVG draws round and square caps around it, butt caps nothing.
            dot(at: points[0], into: &sink)
            return
        }
        if points.count == 2 { closed = false }
        let count = points.count
        let segmentCount = closed ? count : count - 1
        var directions: [SIMD2<Double>] = []
        directions.reserveCapacity(segmentCount)
        for i in 0..<segmentCount {
            let a = points[i], b = points[(i + 1) % count]
            let u = (b - a) / Self.length(b - a)
            directions.append(u)
            let n = SIMD2(-u.y, u.x) * halfWidth
            sink.take([a + n, b + n, b - n, a - n])
            if sink.isComplete { return }
        }
        if closed {
            for i in 0..<count where !sink.isComplete {
                join(
                    at: points[i], from: directions[(i + segmentCount - 1) % segmentCount], to: directions[i],
                    into: &sink)
            }
        } else {
            for i in 1..<(count - 1) where !sink.isComplete {
                join(at: points[i], from: directions[i - 1], to: directions[i], into: &sink)
            }
            cap(at: points[0], direction: -directions[0], into: &sink)
            cap(at: points[count - 1], direction: directions[segmentCount - 1], into: &sink)
        }
    }

    /// A round piece: asked of the sink first, so one that misses the frame (or covers it) is
    /// never built point by point.
    private func round(at p: SIMD2<Double>, into sink: inout some StrokeSink) {
        if sink.wantsCircle(at: p, radius: circleRadius) { sink.take(circle.map { $0 + p }) }
    }

    /// The circle polygon's vertex radius (a little over `halfWidth`).
    var circleRadius: Double { circle.first.map { Self.length($0) } ?? halfWidth }

    private func dot(at p: SIMD2<Double>, into sink: inout some StrokeSink) {
        switch style.cap {
        case .butt: return
        case .round: round(at: p, into: &sink)
        case .square:
            let h = halfWidth
            sink.take([p + SIMD2(-h, -h), p + SIMD2(h, -h), p + SIMD2(h, h), p + SIMD2(-h, h)])
        }
    }

    /// The cap at end point `p`, `direction` pointing out of the line.
    private func cap(at p: SIMD2<Double>, direction u: SIMD2<Double>, into sink: inout some StrokeSink) {
        switch style.cap {
        case .butt: return
        case .round: round(at: p, into: &sink)
        case .square:
            let n = SIMD2(-u.y, u.x) * halfWidth, out = u * halfWidth
            sink.take([p + n, p + n + out, p - n + out, p - n])
        }
    }

    private func join(
        at p: SIMD2<Double>, from u0: SIMD2<Double>, to u1: SIMD2<Double>, into sink: inout some StrokeSink
    ) {
        let cross = u0.x * u1.y - u0.y * u1.x
        let dot = (u0 * u1).sum()
        // Straight on: the quads already meet.
        if abs(cross) < 1e-12 && dot > 0 { return }
        // A turn so slight that the round's arc strays from the bevel's chord by no more than
        // the flattening (sagitta h (1 − cos φ/2) ≈ h (1 − cos φ) / 4) takes the bevel: no
        // circle at every point of a finely flattened curve.
        if style.join == .round, halfWidth * (1 - dot) / 4 > tolerance {
            round(at: p, into: &sink)
            return
        }
        // The outer side is opposite the turn.
        let side: Double = cross > 0 ? -1 : 1
        let o0 = SIMD2(-u0.y, u0.x) * (halfWidth * side), o1 = SIMD2(-u1.y, u1.x) * (halfWidth * side)
        if style.join == .miter {
            // Miter length / width = 1 / sin(θ/2), θ the angle between the segments, which is
            // 1 / cos(φ/2) for the turn φ between the directions.
            let cosHalf = max(0, (1 + dot) / 2).squareRoot()
            if cosHalf > 0, 1 / cosHalf <= style.miterLimit {
                let bisector = o0 + o1
                let length = Self.length(bisector)
                if length > 0 {
                    let tip = p + bisector * (halfWidth / (cosHalf * length))
                    sink.take([p, p + o0, tip, p + o1])
                    return
                }
            }
        }
        sink.take([p, p + o0, p + o1])
    }
}

/// Where a `PathStroker` puts the convex pieces of a stroke's outline.
protocol StrokeSink {
    /// Takes one piece (a convex polygon in the path's space).
    mutating func take(_ polygon: [SIMD2<Double>])
    /// Whether a circle of `radius` around `p` is worth building (false: it cannot change what
    /// is shown, or the sink is complete).
    mutating func wantsCircle(at p: SIMD2<Double>, radius: Double) -> Bool
    /// Nothing more can change the result (a piece covered everything the sink shows).
    var isComplete: Bool { get }
}

/// Every piece, as `strokeOutline` hands them to another rasterizer.
struct StrokePolygons: StrokeSink {
    var polygons: [[SIMD2<Double>]] = []
    mutating func take(_ polygon: [SIMD2<Double>]) { polygons.append(polygon) }
    func wantsCircle(at p: SIMD2<Double>, radius: Double) -> Bool { true }
    var isComplete: Bool { false }
}
