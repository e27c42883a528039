/// A vector outline: subpaths of lines, quadratic and cubic Béziers, each begun by a move and
/// optionally closed, in any coordinate space (a symbol's viewBox, a shape's box in pixels).
///
/// The builders keep SVG's notion of a current point: drawing after `close()` (or before any
/// move) starts a new subpath at the current point, recorded as an explicit `.move`, so every
/// subpath in `elements` begins with one.
public struct VectorPath: Sendable, Hashable {
    public enum Element: Sendable, Hashable {
        case move(SIMD2<Double>)
        case line(SIMD2<Double>)
        case quad(control: SIMD2<Double>, to: SIMD2<Double>)
        case cubic(control1: SIMD2<Double>, control2: SIMD2<Double>, to: SIMD2<Double>)
        case close
    }

    public private(set) var elements: [Element]
    /// Where the last drawing command ended (the subpath's start after a close).
    public private(set) var currentPoint: SIMD2<Double> = .zero
    private var subpathStart: SIMD2<Double> = .zero
    private var subpathOpen = false

    public init() { elements = [] }

    public var isEmpty: Bool { elements.isEmpty }

    public mutating func move(to p: SIMD2<Double>) {
        // Consecutive moves: only the last one starts anything.
        if case .move = elements.last { elements.removeLast() }
        elements.append(.move(p))
        currentPoint = p
        subpathStart = p
        subpathOpen = true
    }

    private mutating func beginIfNeeded() {
        if !subpathOpen { move(to: currentPoint) }
    }

    public mutating func line(to p: SIMD2<Double>) {
        beginIfNeeded()
        elements.append(.line(p))
        currentPoint = p
    }

    public mutating func quadCurve(to p: SIMD2<Double>, control c: SIMD2<Double>) {
        beginIfNeeded()
        elements.append(.quad(control: c, to: p))
        currentPoint = p
    }

    public mutating func curve(to p: SIMD2<Double>, control1 c1: SIMD2<Double>, control2 c2: SIMD2<Double>) {
        beginIfNeeded()
        elements.append(.cubic(control1: c1, control2: c2, to: p))
        currentPoint = p
    }

    public mutating func close() {
        guard subpathOpen else { return }
        elements.append(.close)
        currentPoint = subpathStart
        subpathOpen = false
    }

    public mutating func append(_ other: VectorPath) {
        guard !other.isEmpty else { return }
        elements.append(contentsOf: other.elements)
        currentPoint = other.currentPoint
        subpathStart = other.subpathStart
        subpathOpen = other.subpathOpen
    }

    public func transformed(by transform: Affine2D) -> VectorPath {
        var result = self
        result.elements = elements.map { element in
            switch element {
            case .move(let p): return .move(transform.apply(p))
            case .line(let p): return .line(transform.apply(p))
            case .quad(let c, let p): return .quad(control: transform.apply(c), to: transform.apply(p))
            case .cubic(let c1, let c2, let p):
                return .cubic(
                    control1: transform.apply(c1), control2: transform.apply(c2), to: transform.apply(p))
            case .close: return .close
            }
        }
        result.currentPoint = transform.apply(currentPoint)
        result.subpathStart = transform.apply(subpathStart)
        return result
    }

    /// Bounds of the points and control points; nil when empty.
    public var controlBounds: (min: SIMD2<Double>, max: SIMD2<Double>)? {
        var lo = SIMD2<Double>(repeating: .infinity), hi = SIMD2<Double>(repeating: -.infinity)
        func add(_ p: SIMD2<Double>) {
            lo = pointwiseMin(lo, p)
            hi = pointwiseMax(hi, p)
        }
        for element in elements {
            switch element {
            case .move(let p), .line(let p): add(p)
            case .quad(let c, let p):
                add(c)
                add(p)
            case .cubic(let c1, let c2, let p):
                add(c1)
                add(c2)
                add(p)
            case .close: break
            }
        }
        return lo.x <= hi.x && lo.y <= hi.y ? (lo, hi) : nil
    }

    /// Circle arcs as cubics: the control arm that makes a quarter circle's midpoint exact.
    static let kappa = 0.552_284_749_830_793_4

    /// The rectangle [origin, origin + size], clockwise on screen (y down) from the top-left,
    /// with elliptical corners of `cornerRadii` (each clamped to half the side).
    public static func rect(
        origin: SIMD2<Double>, size: SIMD2<Double>, cornerRadii: SIMD2<Double> = .zero
    ) -> VectorPath {
        var path = VectorPath()
        let w = abs(size.x), h = abs(size.y)
        let o = pointwiseMin(origin, origin + size)
        let rx = min(max(cornerRadii.x, 0), w / 2), ry = min(max(cornerRadii.y, 0), h / 2)
        guard rx > 0, ry > 0 else {
            path.move(to: o)
            path.line(to: o + SIMD2(w, 0))
            path.line(to: o + SIMD2(w, h))
            path.line(to: o + SIMD2(0, h))
            path.close()
            return path
        }
        let kx = rx * kappa, ky = ry * kappa
        let (x0, y0, x1, y1) = (o.x, o.y, o.x + w, o.y + h)
        path.move(to: SIMD2(x0 + rx, y0))
        path.line(to: SIMD2(x1 - rx, y0))
        path.curve(
            to: SIMD2(x1, y0 + ry), control1: SIMD2(x1 - rx + kx, y0), control2: SIMD2(x1, y0 + ry - ky))
        path.line(to: SIMD2(x1, y1 - ry))
        path.curve(
            to: SIMD2(x1 - rx, y1), control1: SIMD2(x1, y1 - ry + ky), control2: SIMD2(x1 - rx + kx, y1))
        path.line(to: SIMD2(x0 + rx, y1))
        path.curve(
            to: SIMD2(x0, y1 - ry), control1: SIMD2(x0 + rx - kx, y1), control2: SIMD2(x0, y1 - ry + ky))
        path.line(to: SIMD2(x0, y0 + ry))
        path.curve(
            to: SIMD2(x0 + rx, y0), control1: SIMD2(x0, y0 + ry - ky), control2: SIMD2(x0 + rx - kx, y0))
        path.close()
        return path
    }

    /// An axis-aligned ellipse as four cubics, clockwise on screen from its rightmost point.
    public static func ellipse(center: SIMD2<Double>, radii: SIMD2<Double>) -> VectorPath {
        var path = VectorPath()
        let r = SIMD2(abs(radii.x), abs(radii.y))
        let k = r * kappa
        let (cx, cy) = (center.x, center.y)
        path.move(to: SIMD2(cx + r.x, cy))
        path.curve(
            to: SIMD2(cx, cy + r.y), control1: SIMD2(cx + r.x, cy + k.y), control2: SIMD2(cx + k.x, cy + r.y))
        path.curve(
            to: SIMD2(cx - r.x, cy), control1: SIMD2(cx - k.x, cy + r.y), control2: SIMD2(cx - r.x, cy + k.y))
        path.curve(
            to: SIMD2(cx, cy - r.y), control1: SIMD2(cx - r.x, cy - k.y), control2: SIMD2(cx - k.x, cy - r.y))
        path.curve(
            to: SIMD2(cx + r.x, cy), control1: SIMD2(cx + k.x, cy - r.y), control2: SIMD2(cx + r.x, cy - k.y))
        path.close()
        return path
    }
}
