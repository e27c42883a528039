import Foundation
import KilnModel
import KilnRaster

/// What a layer kind's content does at render time: evaluate its animated values for one frame
/// (`prepare`), then paint any band of that frame (`PreparedLayer.paint`), possibly from many
/// threads at once. Preparing is the only place time enters, so a prepared layer is a pure
/// function of the pixel position.
public protocol LayerRendering: LayerContent {
    /// `transform` maps the content's own space ([0, w] × [0, h] of `contentSize`) into the frame.
    func prepare(at time: Double, canvas: Canvas, transform: Affine2D) -> any PreparedLayer

    /// The size of the content's own space, which anchors refer to. Content that is defined in
    /// frame coordinates (solids, mesh gradients) has the layout's size (the job's width and
    /// height), so its default transform is the canvas's `frameFromLayout`.
    func contentSize(at time: Double, canvas: Canvas) -> SIMD2<Double>

    /// Where the content's first baseline lies, from the top of its box, for stacks that align
    /// baselines; nil (the default) for content without text, which aligns its bottom edge.
    func firstBaseline(at time: Double, canvas: Canvas) -> Double?
}

extension LayerRendering {
    public func firstBaseline(at time: Double, canvas: Canvas) -> Double? { nil }

    public func contentSize(at time: Double, canvas: Canvas) -> SIMD2<Double> {
        canvas.sceneSize
    }

    public func prepare(at time: Double, canvas: Canvas) -> any PreparedLayer {
        prepare(at: time, canvas: canvas, transform: canvas.frameFromLayout)
    }
}

extension LayerTransform {
    public func affine(at time: Double, contentSize size: SIMD2<Double>, canvas: Canvas) -> Affine2D {
        affine(at: time, contentSize: size, container: canvas.layoutSize)
    }

    /// container ← translate(position) · rotate · skew · scale · translate(−anchor · size); without
    /// a position the content is centred in the container.
    public func affine(at time: Double, contentSize size: SIMD2<Double>, container: SIMD2<Double>) -> Affine2D
    {
        let anchor = self.anchor.value(at: time)
        let pivot = SIMD2(anchor.x * size.x, anchor.y * size.y)
        let place =
            position.map { p in
                let v = p.value(at: time); return SIMD2(v.x, v.y)
            }
            ?? container / 2 - size / 2 + pivot
        let uniform = scale.value(at: time)
        let radians = rotation.value(at: time) * .pi / 180
        let skew = (skewX.value(at: time) * .pi / 180, skewY.value(at: time) * .pi / 180)
        return Affine2D.translation(place.x, place.y)
            .concatenating(.rotation(sin: sin(radians), cos: cos(radians)))
            .concatenating(.skew(tanX: tan(skew.0), tanY: tan(skew.1)))
            .concatenating(.scale(uniform * scaleX.value(at: time), uniform * scaleY.value(at: time)))
            .concatenating(.translation(-pivot.x, -pivot.y))
    }
}

extension RGBA {
    var premultiplied: PremultipliedColor { PremultipliedColor(straightR: r, g: g, b: b, a: a) }
}
