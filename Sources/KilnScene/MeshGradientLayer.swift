import KilnModel
import KilnRaster

/// SwiftUI's MeshGradient: a `width`×`height` grid of control points, each with a colour.
///
/// The grid is a bicubic Hermite surface (Catmull-Rom tangents from neighbouring points, one-sided
/// at the border, zero twist), so patch edges curve smoothly through moved points as SwiftUI's do.
/// Colours follow the same surface when `smoothsColors` is true, or are bilinear inside each patch
/// when false; both pass exactly through each point's colour. Colours are interpolated
/// premultiplied in sRGB-encoded space. The surface is tessellated into small Gouraud triangles
/// (≈ 24 px by default), so per-pixel work is a linear colour step; `background` shows where the mesh does not
/// reach (e.g. when border points move inward).
public struct MeshGradientLayer: LayerRendering {
    public let columns: Int
    public let rows: Int
    public let points: [Animated<Point2>]
    public let colors: [Animated<RGBA>]
    public let background: Animated<RGBA>
    public let smoothsColors: Bool
    /// Target triangle edge in pixels. 24 px keeps the linear-shading error of the bicubic colour
    /// surface well under one code value (tested against a 3 px tessellation) at a third of the
    /// cost of 12 px; see docs/performance.md.
    public let tessellationEdge: Double

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
        background: Animated<RGBA>, smoothsColors: Bool, tessellationEdge: Double = 24
    ) {
        precondition(
            columns >= 2 && rows >= 2 && points.count == columns * rows && colors.count == points.count)
        self.columns = columns
        self.rows = rows
        self.points = points
        self.colors = colors
        self.background = background
        self.smoothsColors = smoothsColors
        self.tessellationEdge = tessellationEdge
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
        grid.tessellate(into: &mesh, smoothColors: smoothsColors, targetEdge: tessellationEdge)
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

/// Control points evaluated for one frame, in pixels, with premultiplied colours, and their
/// Catmull-Rom tangents along the grid's u (columns) and v (rows) directions.
struct MeshGrid {
    let columns: Int
    let rows: Int
    let positions: [SIMD2<Double>]
    let colors: [SIMD4<Double>]
    let positionTangents: (u: [SIMD2<Double>], v: [SIMD2<Double>])
    let colorTangents: (u: [SIMD4<Double>], v: [SIMD4<Double>])

    init(columns: Int, rows: Int, positions: [SIMD2<Double>], colors: [SIMD4<Double>]) {
        self.columns = columns
        self.rows = rows
        self.positions = positions
        self.colors = colors
        positionTangents = Self.tangents(positions, columns: columns, rows: rows)
        colorTangents = Self.tangents(colors, columns: columns, rows: rows)
    }

    /// Central differences inside the grid, one-sided at its border.
    static func tangents<V: SIMD>(_ values: [V], columns: Int, rows: Int) -> (u: [V], v: [V])
    where V.Scalar == Double {
        func derivative(_ i: Int, _ count: Int, _ at: (Int) -> V) -> V {
            if i == 0 { return at(1) - at(0) }
            if i == count - 1 { return at(i) - at(i - 1) }
            return (at(i + 1) - at(i - 1)) * 0.5
        }
        var u = [V](), v = [V]()
        u.reserveCapacity(values.count)
        v.reserveCapacity(values.count)
        for r in 0..<rows {
            for c in 0..<columns {
                u.append(derivative(c, columns) { values[r * columns + $0] })
                v.append(derivative(r, rows) { values[$0 * columns + c] })
            }
        }
        return (u, v)
    }

    /// Hermite basis at t: weights of the two end values (h0, h1) and of their tangents (h2, h3).
    struct Basis {
        let h0: Double, h1: Double, h2: Double, h3: Double

        init(_ t: Double) {
            let t2 = t * t, t3 = t2 * t
            h0 = 2 * t3 - 3 * t2 + 1
            h1 = -2 * t3 + 3 * t2
            h2 = t3 - 2 * t2 + t
            h3 = t3 - t2
        }
    }

    /// Bicubic Hermite (Ferguson, zero twist) patch whose top-left control point is `i`.
    @inline(__always)
    func surface<V: SIMD>(_ values: [V], _ tangents: (u: [V], v: [V]), at i: Int, _ bu: Basis, _ bv: Basis)
        -> V
    where V.Scalar == Double {
        let i00 = i, i10 = i + 1, i01 = i + columns, i11 = i + columns + 1
        var result = values[i00] * (bu.h0 * bv.h0) + values[i10] * (bu.h1 * bv.h0)
        result += values[i01] * (bu.h0 * bv.h1) + values[i11] * (bu.h1 * bv.h1)
        result += tangents.u[i00] * (bu.h2 * bv.h0) + tangents.u[i10] * (bu.h3 * bv.h0)
        result += tangents.u[i01] * (bu.h2 * bv.h1) + tangents.u[i11] * (bu.h3 * bv.h1)
        result += tangents.v[i00] * (bu.h0 * bv.h2) + tangents.v[i10] * (bu.h1 * bv.h2)
        result += tangents.v[i01] * (bu.h0 * bv.h3) + tangents.v[i11] * (bu.h1 * bv.h3)
        return result
    }

    @inline(__always)
    func bilinear(_ values: [SIMD4<Double>], at i: Int, u: Double, v: Double) -> SIMD4<Double> {
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
        // A patch edge's chord underestimates its curve a little; the target leaves ample margin
        // for the colour error of linear shading.
        let uCounts = (0..<(columns - 1)).map { c in
            count((0..<rows).map { r in distance(r * columns + c, r * columns + c + 1) }.max()!)
        }
        let vCounts = (0..<(rows - 1)).map { r in
            count((0..<columns).map { c in distance(r * columns + c, (r + 1) * columns + c) }.max()!)
        }
        var row = [GouraudMesh.Vertex](), previous = [GouraudMesh.Vertex]()
        for r in 0..<(rows - 1) {
            for c in 0..<(columns - 1) {
                let nu = uCounts[c], nv = vCounts[r]
                let corner = r * columns + c
                let uBases = (0...nu).map { Basis(Double($0) / Double(nu)) }
                row.removeAll(keepingCapacity: true)
                previous.removeAll(keepingCapacity: true)
                for j in 0...nv {
                    row.removeAll(keepingCapacity: true)
                    let v = Double(j) / Double(nv)
                    let bv = Basis(v)
                    for i in 0...nu {
                        let u = Double(i) / Double(nu)
                        let p = surface(positions, positionTangents, at: corner, uBases[i], bv)
                        let color =
                            smoothColors
                            ? surface(colors, colorTangents, at: corner, uBases[i], bv)
                            : bilinear(colors, at: corner, u: u, v: v)
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
