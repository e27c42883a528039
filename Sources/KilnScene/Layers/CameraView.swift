import Foundation
import KilnModel
import KilnRaster

extension Camera {
    /// box ← translate(box / 2) · rotate(−rotation) · scale(zoom) · translate(−position): the
    /// scene's layout space as the camera shows it in a `box`-sized space (the frame's layout,
    /// a group's box).
    public func view(at time: Double, box: SIMD2<Double>) -> Affine2D {
        let centre = box / 2
        let target = position.map { p in
            let v = p.value(at: time); return SIMD2(v.x, v.y)
        }
        let look = target ?? centre
        let zoom = self.zoom(at: time)
        let radians = -rotation.value(at: time) * .pi / 180
        return Affine2D.translation(centre.x, centre.y)
            .concatenating(.rotation(sin: sin(radians), cos: cos(radians)))
            .concatenating(.scale(zoom, zoom))
            .concatenating(.translation(-look.x, -look.y))
    }
}

extension PlacementContext {
    /// The context of the layers under `camera` placed in a `box`-sized space that `parent` maps
    /// into the frame: the camera's view goes between, and its zoom reaches the canvas's
    /// lengths (blur radii grow as the picture does).
    static func scene(
        at time: Double, canvas: Canvas, box: SIMD2<Double>, parent: Affine2D, camera: Camera?,
        scrollPhase: Double?, symbolEffects: [SymbolEffect]
    ) -> PlacementContext {
        guard let camera else {
            return PlacementContext(
                time: time, canvas: canvas, container: box, parent: parent, scrollPhase: scrollPhase,
                symbolEffects: symbolEffects)
        }
        return PlacementContext(
            time: time, canvas: canvas.magnified(by: camera.zoom(at: time)), container: box,
            parent: parent.concatenating(camera.view(at: time, box: box)), scrollPhase: scrollPhase,
            symbolEffects: symbolEffects)
    }
}
