import KilnModel
import KilnRaster

/// SwiftUI's MeshGradient: a `width`×`height` grid of control points, each with a colour.
///
/// The grid is a bicubic Hermite surface (Catmull-Rom tangents from neighbouring points, one-sided
/// at the border, zero twist), so patch edges curve smoothly through moved points as SwiftUI's do.
/// Colours follow the same surface when `smoothsColors` is true, or are bilinear inside each patch
/// when false; both pass exactly through each point's colour. Colours are interpolated
/// premultiplied in sRGB-encoded space. The surface is tessellated into small Gouraud triangles
/// (≈ 12 px), so per-pixel work is a linear colour step; `background` shows where the mesh does not
/// reach (e.g. when border points move inward).
public struct MeshGradientLayer: LayerRendering {
    public let columns: Int
    public let rows: Int
    public let points: [Animated<Point2>]
    public let colors: [Animated<RGBA>]
    public let background: Animated<RGBA>
    public let smoothsColors: Bool

    public static let parameters = ParameterTable([
        Parameter("width", .integer(2...32), help: "number of control points per row"),
        Parameter("height", .integer(2...32), help: "number of control points per column"),
        Parameter(
            "points", .pointList(0...1),
            help: "width×height points [x, y] in 0…1 of the frame, row by row; each animatable"),
        Parameter("colors", .colorList, help: "one colour per point, row by row; each animatable"),
        Parameter(
            "background", .color, default: .color(RGBA(r: 0, g: 0, b: 0, a: 0)),
            help: "colour where the mesh does not cover the frame"),
        Parameter(
            "smoothsColors", .boolean, default: .boolean(true),
            help: "true: smooth (bicubic) colour interpolation; false: bilinear within each patch"),
    ])

    public static let kind = LayerKind(
        name: "meshGradient",
        summary: "a grid of animatable points and colours, interpolated smoothly or bilinearly",
        parameters: parameters
    ) { params, path, context in
        let columns = params.integer("width"), rows = params.integer("height")
        let points = params.points("points"), colors = params.colors("colors")
        var ok = true
        if points.count != columns * rows {
            context.error(
                "expected \(columns * rows) points (width \(columns) × height \(rows)), got \(points.count)",
                at: params.node("points"), path: params.path("points"))
            ok = false
        }
        if colors.count != columns * rows {
            context.error(
                "expected \(columns * rows) colors (width \(columns) × height \(rows)), got \(colors.count)",
                at: params.node("colors"), path: params.path("colors"))
            ok = false
        }
        guard ok else { return nil }
        return MeshGradientLayer(
            columns: columns, rows: rows, points: points, colors: colors,
            background: params.color("background"), smoothsColors: params.boolean("smoothsColors"))
    }

    public init(
        columns: Int, rows: Int, points: [Animated<Point2>], colors: [Animated<RGBA>],
        background: Animated<RGBA>, smoothsColors: Bool
    ) {
        precondition(
            columns >= 2 && rows >= 2 && points.count == columns * rows && colors.count == points.count)
        self.columns = columns
        self.rows = rows
        self.points = points
        self.colors = colors
        self.background = background
        self.smoothsColors = smoothsColors
    }

    public func prepare(at time: Double, canvas: Canvas) -> any PreparedLayer {
        let scale = SIMD2(Double(canvas.width), Double(canvas.height))
        let grid = MeshGrid(
            columns: columns, rows: rows,
            positions: points.map {
                let p = $0.value(at: time); return SIMD2(p.x, p.y) * scale
            },
            colors: colors.map { c in
                let p = c.value(at: time).premultiplied
                return SIMD4(Double(p.r), Double(p.g), Double(p.b), Double(p.a))
            })
        var mesh = GouraudMesh()
        grid.tessellate(into: &mesh, smoothColors: smoothsColors, targetEdge: 12)
        mesh.bin(bandHeight: canvas.bandHeight, frameHeight: canvas.height)
        return PreparedMesh(mesh: mesh, background: background.value(at: time).premultiplied)
    }
}

struct PreparedMesh: PreparedLayer {
    let mesh: GouraudMesh
    let background: PremultipliedColor

    func paint(into band: PlanarBand, firstRow: Int, rows: Int) {
        band.fill(background, rows: rows)
        mesh.paint(into: band, firstRow: firstRow, rows: rows)
    }
}

/// Control points evaluated for one frame, in pixels, with premultiplied colours.
struct MeshGrid {
    let columns: Int
    let rows: Int
    let positions: [SIMD2<Double>]
    let colors: [SIMD4<Double>]

    /// Hermite basis: values at the ends (h0, h1) and tangent weights (h2, h3).
    @inline(__always)
    static func hermite(_ t: Double) -> (Double, Double, Double, Double) {
        let t2 = t * t, t3 = t2 * t
        return (2 * t3 - 3 * t2 + 1, -2 * t3 + 3 * t2, t3 - 2 * t2 + t, t3 - t2)
    }

    /// Catmull-Rom tangent along one grid direction, one-sided at the border.
    static func tangent<V: SIMD>(_ values: [V], _ index: (Int) -> Int, at i: Int, count: Int) -> V
    where V.Scalar == Double {
        if count < 2 { return V() }
        if i == 0 { return values[index(1)] - values[index(0)] }
        if i == count - 1 { return values[index(i)] - values[index(i - 1)] }
        return (values[index(i + 1)] - values[index(i - 1)]) * 0.5
    }

    func uTangent<V: SIMD>(_ values: [V], column c: Int, row r: Int) -> V where V.Scalar == Double {
        Self.tangent(values, { r * columns + $0 }, at: c, count: columns)
    }

    func vTangent<V: SIMD>(_ values: [V], column c: Int, row r: Int) -> V where V.Scalar == Double {
        Self.tangent(values, { $0 * columns + c }, at: r, count: rows)
    }

    /// Bicubic Hermite (Ferguson, zero twist) surface of patch (c, r) at local (u, v).
    func surface<V: SIMD>(_ values: [V], column c: Int, row r: Int, u: Double, v: Double) -> V
    where V.Scalar == Double {
        let hu = Self.hermite(u), hv = Self.hermite(v)
        var result = V()
        for (dc, wu, tu) in [(0, hu.0, hu.2), (1, hu.1, hu.3)] {
            for (dr, wv, tv) in [(0, hv.0, hv.2), (1, hv.1, hv.3)] {
                let i = (r + dr) * columns + c + dc
                result += values[i] * (wu * wv)
                result += uTangent(values, column: c + dc, row: r + dr) * (tu * wv)
                result += vTangent(values, column: c + dc, row: r + dr) * (wu * tv)
            }
        }
        return result
    }

    func bilinear<V: SIMD>(_ values: [V], column c: Int, row r: Int, u: Double, v: Double) -> V
    where V.Scalar == Double {
        let i = r * columns + c
        let top = values[i] * (1 - u) + values[i + 1] * u
        let bottom = values[i + columns] * (1 - u) + values[i + columns + 1] * u
        return top * (1 - v) + bottom * v
    }

    /// Splits every patch into a grid of quads (two triangles each) with edges of about
    /// `targetEdge` pixels. Subdivision counts are per patch column (along u) and per patch row
    /// (along v), so neighbouring patches place identical vertices on their shared edge: no
    /// T-junctions, so no cracks.
    func tessellate(into mesh: inout GouraudMesh, smoothColors: Bool, targetEdge: Double) {
        func count(_ length: Double) -> Int { min(64, max(2, Int((length / targetEdge).rounded(.up)))) }
        func distance(_ a: Int, _ b: Int) -> Double {
            let d = positions[a] - positions[b]
            return (d * d).sum().squareRoot()
        }
        // A patch edge's chord underestimates its curve a little; the cap and the 12 px target
        // leave ample margin for the colour error of linear shading.
        let uCounts = (0..<(columns - 1)).map { c in
            count((0..<rows).map { r in distance(r * columns + c, r * columns + c + 1) }.max()!)
        }
        let vCounts = (0..<(rows - 1)).map { r in
            count((0..<columns).map { c in distance(r * columns + c, (r + 1) * columns + c) }.max()!)
        }
        for r in 0..<(rows - 1) {
            for c in 0..<(columns - 1) {
                let nu = uCounts[c], nv = vCounts[r]
                var row = [GouraudMesh.Vertex]()
                var previous = [GouraudMesh.Vertex]()
                for j in 0...nv {
                    row.removeAll(keepingCapacity: true)
                    let v = Double(j) / Double(nv)
                    for i in 0...nu {
                        let u = Double(i) / Double(nu)
                        let p = surface(positions, column: c, row: r, u: u, v: v)
                        let color =
                            smoothColors
                            ? surface(colors, column: c, row: r, u: u, v: v)
                            : bilinear(colors, column: c, row: r, u: u, v: v)
                        let clamped = PremultipliedColor(
                            r: Float(color.x), g: Float(color.y), b: Float(color.z), a: Float(color.w)
                        ).clampedToPremultipliedRange
                        row.append(GouraudMesh.Vertex(x: Float(p.x), y: Float(p.y), color: clamped.simd))
                    }
                    if j > 0 {
                        for i in 0..<nu {
                            mesh.addTriangle(previous[i], previous[i + 1], row[i])
                            mesh.addTriangle(previous[i + 1], row[i + 1], row[i])
                        }
                    }
                    swap(&row, &previous)
                }
            }
        }
    }
}
