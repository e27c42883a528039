import KilnModel
import KilnRaster

/// SwiftUI's MeshGradient: a `width`×`height` grid of control points, each with a colour.
///
/// The grid is a bicubic Hermite surface (Catmull-Rom tangents from neighbouring points, one-sided
/// at the border, zero twist), so patch edges curve smoothly through moved points as SwiftUI's do.
/// A position tangent is never longer than the shorter of the two grid edges at its point
/// (`MeshGrid.limitedTangents`): a point moved close to a neighbour would otherwise swing its
/// edges past that neighbour and fold or crease the surface. On an even grid nothing changes.
/// What can still fold: a patch whose corners no longer make a convex quadrilateral — a point
/// pushed across the line between two of its neighbours (in the seed's 3×3 example, the centre
/// outside the diamond through the four edge midpoints).
/// Colours follow the same surface when `smoothsColors` is true, or are bilinear inside each patch
/// when false; both pass exactly through each point's colour. Colours are interpolated
/// premultiplied in sRGB-encoded space. The surface is tessellated into small Gouraud triangles
/// (≈ 24 px by default), so per-pixel work is a linear colour step (and, where the mesh tiles the
/// frame opaquely, mostly a bilinear step between its colours every eighth pixel:
/// `ShadingLattice`); `background` shows where the mesh does not
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

    enum Key {
        static let width = ParameterKey<Int>("width")
        static let height = ParameterKey<Int>("height")
        static let points = ParameterKey<[Animated<Point2>]>("points")
        static let colors = ParameterKey<[Animated<RGBA>]>("colors")
        static let background = ParameterKey<Animated<RGBA>>("background")
        static let smoothsColors = ParameterKey<Bool>("smoothsColors")
    }

    public static let parameters = ParameterTable([
        Parameter(Key.width, .integer(2...32), help: "number of control points per row"),
        Parameter(Key.height, .integer(2...32), help: "number of control points per column"),
        Parameter(
            Key.points, .pointList(0...1),
            help:
                "exactly width × height points [x, y], row by row; [0, 0] is the frame's top-left corner, [1, 1] its bottom-right; each animatable"
        ),
        Parameter(Key.colors, .colorList, help: "exactly one colour per point, row by row; each animatable"),
        Parameter(
            Key.background, .color, default: .color(RGBA(r: 0, g: 0, b: 0, a: 0)),
            help:
                "colour where the mesh does not cover the frame (when border points move inward)"),
        Parameter(
            Key.smoothsColors, .boolean, default: .boolean(true),
            help: "true: smooth (bicubic) colour interpolation; false: bilinear within each patch"),
    ])

    public static let kind = LayerKind(
        name: "meshGradient",
        summary: "a grid of animatable points and colours, interpolated smoothly or bilinearly",
        parameters: parameters
    ) { params, path, context in
        let columns = params[Key.width], rows = params[Key.height]
        let points = params[Key.points], colors = params[Key.colors]
        var ok = true
        if points.count != columns * rows {
            context.error(
                "expected \(columns * rows) points (width \(columns) × height \(rows)), got \(points.count)",
                at: params.node(Key.points), path: params.path(Key.points))
            ok = false
        }
        if colors.count != columns * rows {
            context.error(
                "expected \(columns * rows) colors (width \(columns) × height \(rows)), got \(colors.count)",
                at: params.node(Key.colors), path: params.path(Key.colors))
            ok = false
        }
        guard ok else { return nil }
        return MeshGradientLayer(
            columns: columns, rows: rows, points: points, colors: colors,
            background: params[Key.background], smoothsColors: params[Key.smoothsColors])
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

    public func prepare(at time: Double, canvas: Canvas, transform: Affine2D) -> any PreparedLayer {
        let scale = canvas.sceneSize
        // Points are placed in the layout, then moved by the layer's transform (which places the
        // layout in the frame): an affine map of the control points is the same map of the whole
        // surface.
        let grid = MeshGrid(
            columns: columns, rows: rows,
            positions: points.map {
                let p = $0.value(at: time)
                return transform.apply(SIMD2(p.x, p.y) * scale)
            },
            colors: colors.map { c in
                let p = c.value(at: time).premultiplied
                return SIMD4(Double(p.r), Double(p.g), Double(p.b), Double(p.a))
            })
        var mesh = GouraudMesh()
        let kinks = grid.tessellate(
            // The full size's triangles in a draft too, so its shading is the full picture's;
            // under a camera they stay their size on screen, so a push-in does not coarsen it.
            into: &mesh, smoothColors: smoothsColors, targetEdge: tessellationEdge * canvas.frameScale,
            frame: SIMD2(Double(canvas.width), Double(canvas.height)))
        let background = background.value(at: time).premultiplied
        mesh.underlay = background.simd
        mesh.bin(bandHeight: canvas.bandHeight, frameHeight: canvas.height)
        return PreparedMesh(
            mesh: mesh, background: background,
            lattice: ShadingLattice(
                mesh: mesh, width: canvas.width, height: canvas.height, kinks: kinks))
    }
}

struct PreparedMesh: PreparedLayer {
    let mesh: GouraudMesh
    let background: PremultipliedColor
    /// The mesh shaded every eighth pixel, painted in its place when it tiles the frame opaquely.
    let lattice: ShadingLattice?

    func paint(into band: PlanarBand, firstRow: Int, rows: Int, columns: Range<Int>, pool: BandPool) {
        if let lattice { return lattice.paint(into: band, firstRow: firstRow, rows: rows, columns: columns) }
        // A mesh that tiles the frame with opaque colours writes every pixel itself.
        if !mesh.tilesOpaquely { band.fill(background, rows: rows, columns: columns) }
        mesh.paint(into: band, firstRow: firstRow, rows: rows, columns: columns)
    }

    /// An unfolded mesh of opaque colours covers the frame once (its outline is the frame's edge
    /// wherever no silhouette is declared), hiding the background: its triangles are composited
    /// straight onto the band, without a scratch band, its background or a compositing pass.
    func paintOver(
        into band: PlanarBand, firstRow: Int, rows: Int, columns: Range<Int>, opacity: Float, pool: BandPool
    ) -> Bool {
        guard mesh.tilesOpaquely else { return false }
        if let lattice {
            lattice.paint(into: band, firstRow: firstRow, rows: rows, columns: columns, over: opacity)
        } else {
            mesh.paintOver(into: band, firstRow: firstRow, rows: rows, columns: columns, opacity: opacity)
        }
        return true
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
        positionTangents = Self.limitedTangents(positions, columns: columns, rows: rows)
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

    /// `tangents` of positions, each shortened (direction kept) to the length of the shorter grid
    /// edge it starts: a Catmull-Rom tangent is half the distance between the point's two
    /// neighbours, and when the point sits near one of them the curve to that neighbour
    /// overshoots it, squeezing the patch into a crease or folding it over. With the limit, every
    /// mesh whose patches are convex quadrilaterals maps each patch one to one (checked over the
    /// seed's 3×3 example with its centre anywhere inside them: MeshGradientTests). The length
    /// changes continuously with the points, so animated meshes do not jump.
    static func limitedTangents(_ positions: [SIMD2<Double>], columns: Int, rows: Int) -> (
        u: [SIMD2<Double>], v: [SIMD2<Double>]
    ) {
        var (u, v) = tangents(positions, columns: columns, rows: rows)
        func length(_ d: SIMD2<Double>) -> Double { (d * d).sum().squareRoot() }
        // Runs for every frame's mesh: the two edges are measured without building arrays.
        func limit(_ tangent: inout SIMD2<Double>, _ i: Int, previous: Int?, next: Int?) {
            let before = previous.map { length(positions[i] - positions[$0]) } ?? .infinity
            let after = next.map { length(positions[i] - positions[$0]) } ?? .infinity
            let shortest = min(before, after)
            guard shortest.isFinite else { return }
            let current = length(tangent)
            if current > shortest { tangent *= shortest / current }
        }
        for r in 0..<rows {
            for c in 0..<columns {
                let i = r * columns + c
                limit(&u[i], i, previous: c > 0 ? i - 1 : nil, next: c < columns - 1 ? i + 1 : nil)
                limit(&v[i], i, previous: r > 0 ? i - columns : nil, next: r < rows - 1 ? i + columns : nil)
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

    /// One sample of the global tessellation grid along u or v: which patch column (row) it
    /// falls in, and where inside that patch.
    struct Sample {
        let patch: Int
        let t: Double
        let basis: Basis
    }

    /// Samples along one direction: `counts[p]` steps in patch p, the shared end of two patches
    /// taken once (from the earlier patch, whose surface gives the same bits there).
    static func samples(_ counts: [Int]) -> [Sample] {
        var result: [Sample] = []
        for (patch, n) in counts.enumerated() {
            for i in (patch == 0 ? 0 : 1)...n {
                let t = Double(i) / Double(n)
                result.append(Sample(patch: patch, t: t, basis: Basis(t)))
            }
        }
        return result
    }

    /// Splits the whole surface into one grid of quads (two triangles each) with edges of about
    /// `targetEdge` pixels. Subdivision counts are per patch column (along u) and per patch row
    /// (along v), and neighbouring patches share the vertices of their common edge, so there are
    /// no T-junctions and no cracks. Quads are painted row by row across the whole mesh.
    ///
    /// Silhouettes — where colour jumps — are the grid's outline (unless it lies on the frame's
    /// own edge) and every edge between two triangles of opposite orientation (a fold's crease).
    ///
    /// Returns every edge between two triangles as a kink of the shading: where it runs and how
    /// much the colour's slope changes across it (`GouraudMesh.slopeJump`), for
    /// `ShadingLattice`.
    @discardableResult
    func tessellate(
        into mesh: inout GouraudMesh, smoothColors: Bool, targetEdge: Double, frame: SIMD2<Double>
    ) -> [ShadingLattice.Kink] {
        func count(_ length: Double) -> Int { SaturatingConversion.int(length / targetEdge, .up, in: 2...64) }
        func distance(_ a: Int, _ b: Int) -> Double {
            let d = positions[a] - positions[b]
            return (d * d).sum().squareRoot()
        }
        // A patch edge's chord underestimates its curve a little; the target leaves ample margin
        // for the colour error of linear shading.
        let us = Self.samples(
            (0..<(columns - 1)).map { c in
                count((0..<rows).map { r in distance(r * columns + c, r * columns + c + 1) }.max()!)
            })
        let vs = Self.samples(
            (0..<(rows - 1)).map { r in
                count((0..<columns).map { c in distance(r * columns + c, (r + 1) * columns + c) }.max()!)
            })
        let width = us.count
        var grid: [GouraudMesh.Vertex] = []
        grid.reserveCapacity(width * vs.count)
        for v in vs {
            for u in us {
                let corner = v.patch * columns + u.patch
                let p = surface(positions, positionTangents, at: corner, u.basis, v.basis)
                let color =
                    smoothColors
                    ? surface(colors, colorTangents, at: corner, u.basis, v.basis)
                    : bilinear(colors, at: corner, u: u.t, v: v.t)
                let clamped = PremultipliedColor(
                    r: Float(color.x), g: Float(color.y), b: Float(color.z), a: Float(color.w)
                ).clampedToPremultipliedRange
                grid.append(GouraudMesh.Vertex(x: Float(p.x), y: Float(p.y), color: clamped.simd))
            }
        }
        // Orientation of the two triangles of each quad: (p00, p10, p01) and (p10, p11, p01).
        func orientation(_ a: GouraudMesh.Vertex, _ b: GouraudMesh.Vertex, _ c: GouraudMesh.Vertex) -> Int8 {
            let cross = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
            return cross > 0 ? 1 : (cross < 0 ? -1 : 0)
        }
        let quadsWide = width - 1, quadsHigh = vs.count - 1
        var first = [Int8](repeating: 0, count: quadsWide * quadsHigh)
        var second = first
        typealias Gradient = (x: SIMD4<Float>, y: SIMD4<Float>)
        var firstGradient = [Gradient?](repeating: nil, count: quadsWide * quadsHigh)
        var secondGradient = firstGradient
        mesh.reserveCapacity(triangles: 2 * quadsWide * quadsHigh)
        for j in 0..<quadsHigh {
            for i in 0..<quadsWide {
                let p00 = grid[j * width + i], p10 = grid[j * width + i + 1]
                let p01 = grid[(j + 1) * width + i], p11 = grid[(j + 1) * width + i + 1]
                firstGradient[j * quadsWide + i] = mesh.addTriangle(p00, p10, p01)
                secondGradient[j * quadsWide + i] = mesh.addTriangle(p10, p11, p01)
                first[j * quadsWide + i] = orientation(p00, p10, p01)
                second[j * quadsWide + i] = orientation(p10, p11, p01)
            }
        }
        var kinks: [ShadingLattice.Kink] = []
        kinks.reserveCapacity(3 * quadsWide * quadsHigh)
        func kink(_ a: SIMD2<Float>, _ b: SIMD2<Float>, _ g: Gradient?, _ h: Gradient?) {
            guard let g, let h else { return }
            kinks.append(.init(from: a, to: b, slopeJump: GouraudMesh.slopeJump(g, h)))
        }
        func point(_ i: Int, _ j: Int) -> SIMD2<Float> { SIMD2(grid[j * width + i].x, grid[j * width + i].y) }
        func onFrameEdge(_ a: SIMD2<Float>, _ b: SIMD2<Float>) -> Bool {
            let size = SIMD2<Float>(frame)
            return (a.x == 0 && b.x == 0) || (a.y == 0 && b.y == 0) || (a.x == size.x && b.x == size.x)
                || (a.y == size.y && b.y == size.y)
        }
        func silhouette(_ a: SIMD2<Float>, _ b: SIMD2<Float>, between s: Int8?, _ t: Int8?) {
            if let s, let t, s == t && s != 0 { return }  // a seam inside one smooth sheet
            if s == nil || t == nil, onFrameEdge(a, b) { return }  // the outline on the frame's edge
            mesh.addSilhouette(a, b)
        }
        for j in 0..<quadsHigh {
            for i in 0..<quadsWide {
                let q = j * quadsWide + i
                // The diagonal p10–p01 between the quad's own two triangles.
                silhouette(point(i + 1, j), point(i, j + 1), between: first[q], second[q])
                // The top edge p00–p10: this quad's first triangle and the second of the quad above.
                silhouette(
                    point(i, j), point(i + 1, j), between: first[q], j > 0 ? second[q - quadsWide] : nil)
                // The left edge p00–p01: this quad's first triangle and the second of the quad to the left.
                silhouette(point(i, j), point(i, j + 1), between: first[q], i > 0 ? second[q - 1] : nil)
                kink(point(i + 1, j), point(i, j + 1), firstGradient[q], secondGradient[q])
                if j > 0 {
                    kink(point(i, j), point(i + 1, j), firstGradient[q], secondGradient[q - quadsWide])
                }
                if i > 0 { kink(point(i, j), point(i, j + 1), firstGradient[q], secondGradient[q - 1]) }
            }
        }
        for i in 0..<quadsWide {  // bottom outline
            silhouette(
                point(i, quadsHigh), point(i + 1, quadsHigh),
                between: second[(quadsHigh - 1) * quadsWide + i], nil)
        }
        for j in 0..<quadsHigh {  // right outline
            silhouette(
                point(quadsWide, j), point(quadsWide, j + 1), between: second[j * quadsWide + quadsWide - 1],
                nil)
        }
        return kinks
    }
}
