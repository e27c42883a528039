import Foundation
import KilnExport
import KilnMedia
import KilnModel
import KilnRaster
import KilnScene

#if canImport(Glibc)
    import Glibc
#endif

/// The seed mesh gradient (3×3, black/blue/green rows) with its centre point moving.
func benchLayer() -> LayerNode {
    let fixed: [Point2] = [
        .init(x: 0, y: 0), .init(x: 0.5, y: 0), .init(x: 1, y: 0),
        .init(x: 0, y: 0.5), .init(x: 0.9, y: 0.3), .init(x: 1, y: 0.5),
        .init(x: 0, y: 1), .init(x: 0.5, y: 1), .init(x: 1, y: 1),
    ]
    var points = fixed.map { Animated<Point2>.constant($0) }
    points[4] = .keyframes([
        Keyframe(time: 0, value: Point2(x: 0.5, y: 0.5), easing: .linear),
        Keyframe(time: 2, value: Point2(x: 0.9, y: 0.3), easing: .easeInOut),
    ])
    let black = RGBA(r: 0, g: 0, b: 0, a: 1), blue = RGBA(r: 0, g: 0, b: 1, a: 1)
    let green = RGBA(r: 0, g: 1, b: 0, a: 1)
    let colors = [black, black, black, blue, blue, blue, green, green, green].map {
        Animated<RGBA>.constant($0)
    }
    let mesh = MeshGradientLayer(
        columns: 3, rows: 3, points: points, colors: colors, background: .constant(black), smoothsColors: true
    )
    return LayerNode(kind: "meshGradient", name: nil, opacity: .constant(1), content: mesh, path: .root)
}
