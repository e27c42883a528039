/// A 2D affine map p ↦ (a·x + c·y + tx, b·x + d·y + ty), in Double so that composing a layer's
/// transforms does not lose precision before the per-pixel kernels convert to Float.
public struct Affine2D: Sendable, Hashable {
    public var a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double

    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        (self.a, self.b, self.c, self.d, self.tx, self.ty) = (a, b, c, d, tx, ty)
    }

    public static let identity = Affine2D(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    public static func translation(_ x: Double, _ y: Double) -> Affine2D {
        Affine2D(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y)
    }

    public static func scale(_ x: Double, _ y: Double) -> Affine2D {
        Affine2D(a: x, b: 0, c: 0, d: y, tx: 0, ty: 0)
    }

    /// Rotation by the angle with this sine and cosine; positive angles turn clockwise on screen
    /// (y points down), as SwiftUI's rotationEffect. (The raster core has no libm: callers that
    /// hold degrees compute the trigonometry.)
    public static func rotation(sin s: Double, cos c: Double) -> Affine2D {
        Affine2D(a: c, b: s, c: -s, d: c, tx: 0, ty: 0)
    }

    /// Shear: x += tanX·y, y += tanY·x.
    public static func skew(tanX: Double, tanY: Double) -> Affine2D {
        Affine2D(a: 1, b: tanY, c: tanX, d: 1, tx: 0, ty: 0)
    }

    /// `self` after `other`: (self ∘ other)(p) = self(other(p)).
    public func concatenating(_ other: Affine2D) -> Affine2D {
        Affine2D(
            a: a * other.a + c * other.b, b: b * other.a + d * other.b,
            c: a * other.c + c * other.d, d: b * other.c + d * other.d,
            tx: a * other.tx + c * other.ty + tx, ty: b * other.tx + d * other.ty + ty)
    }

    public var determinant: Double { a * d - b * c }

    /// nil when the map collapses the plane (zero scale), or when it or its inverse is not
    /// finite (numbers that overflowed): such a layer covers nothing.
    public var inverted: Affine2D? {
        let det = determinant
        guard abs(det) > 1e-12, det.isFinite, isFinite else { return nil }
        let inverse = Affine2D(
            a: d / det, b: -b / det, c: -c / det, d: a / det,
            tx: (c * ty - d * tx) / det, ty: (b * tx - a * ty) / det)
        return inverse.isFinite ? inverse : nil
    }

    public var isFinite: Bool {
        a.isFinite && b.isFinite && c.isFinite && d.isFinite && tx.isFinite && ty.isFinite
    }

    public func apply(_ p: SIMD2<Double>) -> SIMD2<Double> {
        SIMD2(a * p.x + c * p.y + tx, b * p.x + d * p.y + ty)
    }

    /// Bounding box of the image of the rectangle [offset, offset + size].
    public func bounds(ofSize size: SIMD2<Double>, offset: SIMD2<Double> = .zero) -> (
        min: SIMD2<Double>, max: SIMD2<Double>
    ) {
        let corners = [SIMD2(0, 0), SIMD2(size.x, 0), SIMD2(0, size.y), size].map { apply($0 + offset) }
        var lo = corners[0], hi = corners[0]
        for p in corners {
            lo = SIMD2(Swift.min(lo.x, p.x), Swift.min(lo.y, p.y))
            hi = SIMD2(Swift.max(hi.x, p.x), Swift.max(hi.y, p.y))
        }
        return (lo, hi)
    }

    /// The frame pixels whose centres may lie within a pixel of the image of the rectangle
    /// [offset, offset + size] (the reach of anti-aliased edges), clamped to the frame; nil when
    /// none do.
    public func pixelBounds(
        ofSize size: SIMD2<Double>, offset: SIMD2<Double> = .zero, frameWidth: Int, frameHeight: Int
    ) -> (rows: Range<Int>, columns: Range<Int>)? {
        let box = bounds(ofSize: size, offset: offset)
        // A box that is NaN anywhere converts to an empty range: nothing is drawn.
        let x0 = max(0, SaturatingConversion.int(box.min.x - 1, .down)),
            x1 = min(frameWidth, SaturatingConversion.int(box.max.x + 1, .up))
        let y0 = max(0, SaturatingConversion.int(box.min.y - 1, .down)),
            y1 = min(frameHeight, SaturatingConversion.int(box.max.y + 1, .up))
        guard x0 < x1, y0 < y1 else { return nil }
        return (y0..<y1, x0..<x1)
    }
}
