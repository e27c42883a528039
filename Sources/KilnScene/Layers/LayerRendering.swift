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
    /// frame coordinates (solids, mesh gradients) has the frame's size, so the default transform
    /// is the identity.
    func contentSize(at time: Double, canvas: Canvas) -> SIMD2<Double>
}

extension LayerRendering {
    public func contentSize(at time: Double, canvas: Canvas) -> SIMD2<Double> {
        SIMD2(Double(canvas.width), Double(canvas.height))
    }

    public func prepare(at time: Double, canvas: Canvas) -> any PreparedLayer {
        prepare(at: time, canvas: canvas, transform: .identity)
    }
}

extension LayerTransform {
    public func affine(at time: Double, contentSize size: SIMD2<Double>, canvas: Canvas) -> Affine2D {
        affine(at: time, contentSize: size, container: canvas.size)
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

public protocol PreparedLayer: Sendable {
    /// Paints frame rows `firstRow..<firstRow+rows` into `band` (band row 0 = `firstRow`), replacing
    /// its contents within `columns`: there, pixels the layer does not cover become transparent;
    /// outside `columns` the band may hold anything (a clipping group, which asks for fewer
    /// columns, masks the rest away). `pool` lends the worker's scratch bands to layers that
    /// composite others (groups).
    func paint(into band: PlanarBand, firstRow: Int, rows: Int, columns: Range<Int>, pool: BandPool)

    /// The frame pixels the layer can touch; nil when it may touch any (frame-sized content).
    var extent: PixelExtent? { get }

    /// Appends the offscreen (blurred) layers inside this one, innermost first: they are
    /// rendered before the frame's bands, in this order.
    func collectOffscreens(into list: inout [Offscreen])

    /// Composites the layer, faded by `opacity`, source-over onto what `band` holds within
    /// `columns`, in one pass. Returns false when the layer cannot, and the stack then paints it
    /// into a scratch band and composites that.
    func paintOver(
        into band: PlanarBand, firstRow: Int, rows: Int, columns: Range<Int>, opacity: Float, pool: BandPool
    ) -> Bool

    /// What alone determines the pixels `paint` gives, when the layer can say: two layers with
    /// equal keys paint the same pixels into any band (an offscreen of such a layer is kept from
    /// frame to frame, `OffscreenImages`). nil (the default): not known, never reused.
    var contentKey: LayerContentKey? { get }
}

/// What alone determines a prepared layer's pixels (`PreparedLayer.contentKey`).
public enum LayerContentKey: Equatable, Sendable {
    /// A picture: the painter's inputs and the tint it multiplies the texels by.
    case image(ImagePainter.Inputs, tint: SIMD4<Float>)
}

extension PreparedLayer {
    public var contentKey: LayerContentKey? { nil }
    public var extent: PixelExtent? { nil }
    public func collectOffscreens(into list: inout [Offscreen]) {}
    public func paintOver(
        into band: PlanarBand, firstRow: Int, rows: Int, columns: Range<Int>, opacity: Float, pool: BandPool
    ) -> Bool { false }
}

extension PreparedLayer {
    /// Paints every column.
    public func paint(into band: PlanarBand, firstRow: Int, rows: Int, pool: BandPool) {
        paint(into: band, firstRow: firstRow, rows: rows, columns: 0..<band.width, pool: pool)
    }

    /// Paints every column with a private pool (tests and one-off renders).
    public func paint(into band: PlanarBand, firstRow: Int, rows: Int) {
        paint(
            into: band, firstRow: firstRow, rows: rows,
            pool: BandPool(width: band.width, rows: band.capacityRows))
    }
}

/// The frame a scene is rendered into, and how it is cut into bands.
public struct Canvas: Sendable, Hashable {
    public let width: Int
    public let height: Int
    public let bandHeight: Int
    /// When pixel stages over a large blur run on a reduced grid (`ReducedPipelineLayer`).
    public let reducedEvaluation: ReducedEvaluation

    public init(
        width: Int, height: Int, bandHeight: Int = 8, reducedEvaluation: ReducedEvaluation = .whenSafe
    ) {
        self.width = width
        self.height = height
        self.bandHeight = bandHeight
        self.reducedEvaluation = reducedEvaluation
    }
}

/// Whether pixel stages over a large blur may be evaluated on a reduced grid. Renders always use
/// `whenSafe`; the others exist to measure against it (tests, kiln-bench).
public enum ReducedEvaluation: Sendable, Hashable {
    /// When `ReducedGrid.factor` allows it for the blur and the stages are smooth at the grid's
    /// scale; the grid is checked cell by cell and the cells it may miss evaluated per pixel.
    case whenSafe
    /// Never: every pixel through the stages.
    case off
    /// On a grid of this factor (2 or 4) wherever the structure allows it (a reduced-only blur,
    /// clamped edges, smooth stages), without the checks: to measure what they buy.
    case forced(Int)
}

extension RGBA {
    var premultiplied: PremultipliedColor { PremultipliedColor(straightR: r, g: g, b: b, a: a) }
}
