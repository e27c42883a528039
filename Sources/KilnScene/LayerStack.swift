import KilnModel
import KilnRaster

/// Bands borrowed for intermediate results (a layer before compositing, a group's children, a
/// clip mask). One per worker; it grows to the deepest nesting on the first frame and is reused
/// after, so steady-state rendering allocates nothing.
public final class BandPool: @unchecked Sendable {
    public let width: Int
    public let rows: Int
    private var bands: [PlanarBand] = []
    private var depth = 0

    public init(width: Int, rows: Int) {
        self.width = width
        self.rows = rows
    }

    /// Lends a band for the duration of `body`.
    public func withBand<R>(_ body: (PlanarBand) -> R) -> R {
        if depth == bands.count { bands.append(PlanarBand(width: width, rows: rows)) }
        let band = bands[depth]
        depth += 1
        defer { depth -= 1 }
        return body(band)
    }
}

/// One layer prepared for a frame: how to paint it, its opacity and its composed colour effects.
public struct PreparedItem: Sendable {
    public let layer: any PreparedLayer
    public let opacity: Float
    /// The layer's colour effects composed into one matrix; nil when it has none.
    public let colors: ColorMatrix?
}

/// Layers composited bottom to top, source-over: the frame's layer list and a group's children.
public struct LayerStack: Sendable {
    public let items: [PreparedItem]

    /// Paints the stack into `band` (replacing its contents within `columns`, as
    /// `PreparedLayer.paint`). The bottom layer paints straight
    /// into the target when nothing needs to happen to it before compositing.
    public func paint(into band: PlanarBand, firstRow: Int, rows: Int, columns: Range<Int>, pool: BandPool) {
        if items.isEmpty { band.fill(.transparent, rows: rows, columns: columns) }
        for (index, item) in items.enumerated() {
            if index == 0 && item.opacity == 1 && item.colors == nil {
                item.layer.paint(into: band, firstRow: firstRow, rows: rows, columns: columns, pool: pool)
                continue
            }
            if index == 0 { band.fill(.transparent, rows: rows, columns: columns) }
            pool.withBand { layer in
                item.layer.paint(into: layer, firstRow: firstRow, rows: rows, columns: columns, pool: pool)
                item.colors?.apply(to: layer, rows: rows, columns: columns)
                Compositing.sourceOver(layer, onto: band, opacity: item.opacity, rows: rows, columns: columns)
            }
        }
    }
}

extension LayerNode {
    /// The layer prepared at `time`: `container` is the size of the space it is placed in (the
    /// frame, or its group's box) and `parent` maps that space into the frame.
    public func prepare(at time: Double, canvas: Canvas, container: SIMD2<Double>, parent: Affine2D)
        -> PreparedItem?
    {
        let opacity = Float(min(max(self.opacity.value(at: time), 0), 1))
        guard opacity > 0 else { return nil }
        let layer: any PreparedLayer
        if let group = content as? GroupLayer {
            let box = group.boxSize(at: time, canvas: canvas)
            let place = parent.concatenating(
                transform.affine(at: time, contentSize: box, container: container))
            let children = self.children.compactMap {
                $0.prepare(at: time, canvas: canvas, container: box, parent: place)
            }
            layer = group.prepare(
                at: time, canvas: canvas, box: box, transform: place, children: LayerStack(items: children))
        } else if let stack = content as? StackLayer {
            let sizes = children.map { $0.layoutSize(at: time, canvas: canvas) }
            let (box, origins) = stack.layout(sizes, at: time)
            let place = parent.concatenating(
                transform.affine(at: time, contentSize: box, container: container))
            let items = zip(children, zip(sizes, origins)).compactMap { child, slot in
                child.prepare(
                    at: time, canvas: canvas, container: slot.0,
                    parent: place.concatenating(.translation(slot.1.x, slot.1.y)))
            }
            layer = PreparedGroup(children: LayerStack(items: items), clip: nil)
        } else {
            guard let content = content as? any LayerRendering else {
                preconditionFailure("layer kind '\(kind)' is registered without a renderer")
            }
            let size = content.contentSize(at: time, canvas: canvas)
            let place = parent.concatenating(
                transform.affine(at: time, contentSize: size, container: container))
            layer = content.prepare(at: time, canvas: canvas, transform: place)
        }
        let colorEffects = effects.map { effect -> any ColorEffect in
            guard let color = effect.content as? any ColorEffect else {
                preconditionFailure("effect '\(effect.kind)' is registered without a colour matrix")
            }
            return color
        }
        let colors =
            colorEffects.isEmpty
            ? nil : colorEffects.reduce(ColorMatrix.identity) { $1.matrix(at: time).concatenating($0) }
        return PreparedItem(layer: layer, opacity: opacity, colors: colors)
    }

    /// The size a layout gives this layer: its content's own size (not changed by its transform).
    public func layoutSize(at time: Double, canvas: Canvas) -> SIMD2<Double> {
        if let group = content as? GroupLayer { return group.boxSize(at: time, canvas: canvas) }
        if let stack = content as? StackLayer {
            return stack.layout(children.map { $0.layoutSize(at: time, canvas: canvas) }, at: time).box
        }
        if let content = content as? any LayerRendering {
            return content.contentSize(at: time, canvas: canvas)
        }
        return canvas.size
    }

    /// A top-level layer prepared at `time`.
    public func prepare(at time: Double, canvas: Canvas) -> PreparedItem? {
        prepare(at: time, canvas: canvas, container: canvas.size, parent: .identity)
    }
}

extension Canvas {
    public var size: SIMD2<Double> { SIMD2(Double(width), Double(height)) }
}
