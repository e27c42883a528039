import KilnRaster
import KilnText

/// Kiln's path rasterizer against FreeType's smooth rasterizer on the same flattened polygons
/// (docs/architecture.md, "Paths: Kiln's rasterizer vs FreeType's"): a star both ways, a circle,
/// a ring, curves and a gear at 96, 400 and 1000 pixels. Kiln's row includes building the edges
/// and painting premultiplied Float RGBA into 8-row bands, as the renderer does (the band stays
/// in cache); FreeType's fills an 8-bit grid of the path's box. Both are reported per covered
/// pixel (coverage > 0) of the whole set.
@MainActor func measurePaths() {
    let kilnName = "paths: Kiln (edges + coverage + paint)"
    let paintName = "paths: Kiln, painting only (edges ready)"
    let freetypeName = "paths: FreeType smooth (8-bit grid)"
    guard wants(kilnName, paintName, freetypeName) else { return }
    guard let freetype = FreeTypeOutlineRasterizer() else { fail("FreeType did not start") }
    let designs: [(String, FillRule)] = [
        ("M50 4L77 93L3 37H97L23 93Z", .nonZero),
        ("M50 4L77 93L3 37H97L23 93Z", .evenOdd),
        ("M50 5A45 45 0 1 1 49.9 5Z", .nonZero),
        ("M50 5A45 45 0 1 1 49.9 5Z M50 25A25 25 0 1 0 50.1 25Z", .nonZero),
        ("M10 80C10 10 90 10 90 80S50 40 30 90Q60 60 80 95T20 50A30 20 30 1 1 60 70Z", .evenOdd),
        (
            "M50 2L58 14L72 8L73 23L88 27L81 40L94 50L81 60L88 73L73 77L72 92L58 86L50 98L42 86L28 92L27 77"
                + "L12 73L19 60L6 50L19 40L12 27L27 23L28 8L42 14Z M50 35A15 15 0 1 0 50.1 35Z",
            .nonZero
        ),
    ]
    struct Job {
        let polygon: VectorPath
        let rule: FillRule
        let side: Int
        let band: PlanarBand
    }
    var jobs: [Job] = []
    let bandRows = 8
    var covered = 0
    for size in [96.0, 400.0, 1000.0] {
        let side = Int(size) + 2
        for (data, rule) in designs {
            guard let path = try? SVGPathData.parse(data) else { fail("bench path does not parse") }
            let polygon = path.transformed(
                by: .translation(1, 1).concatenating(.scale(size / 100, size / 100))
            )
            .flattened(tolerance: 0.1)
            guard let grid = freetype.coverage(of: polygon, fillRule: rule, width: side, height: side) else {
                fail("FreeType failed on a bench path")
            }
            covered += grid.reduce(0) { $0 + ($1 > 0 ? 1 : 0) }
            jobs.append(
                Job(polygon: polygon, rule: rule, side: side, band: PlanarBand(width: side, rows: bandRows)))
        }
    }
    if wants(kilnName) {
        let ms = measure(options.frames * 4) { _ in
            for job in jobs {
                let painter = PathPainter(
                    path: job.polygon, fillRule: job.rule, stroke: nil, frameFromLocal: .identity,
                    paint: .solid(SIMD4(1, 1, 1, 1)), frameWidth: job.side, frameHeight: job.side)
                guard let painter else { continue }
                for first in stride(from: 0, to: job.side, by: bandRows) {
                    painter.paint(
                        into: job.band, firstRow: first, rows: min(bandRows, job.side - first),
                        columns: 0..<job.side)
                }
            }
        }
        rows.append(Row(name: kilnName, threads: 1, msPerFrame: ms, pixels: covered))
    }
    if wants(paintName) {
        let painters = jobs.map {
            PathPainter(
                path: $0.polygon, fillRule: $0.rule, stroke: nil, frameFromLocal: .identity,
                paint: .solid(SIMD4(1, 1, 1, 1)), frameWidth: $0.side, frameHeight: $0.side)
        }
        let ms = measure(options.frames * 4) { _ in
            for (job, painter) in zip(jobs, painters) {
                guard let painter else { continue }
                for first in stride(from: 0, to: job.side, by: bandRows) {
                    painter.paint(
                        into: job.band, firstRow: first, rows: min(bandRows, job.side - first),
                        columns: 0..<job.side)
                }
            }
        }
        rows.append(Row(name: paintName, threads: 1, msPerFrame: ms, pixels: covered))
    }
    if wants(freetypeName) {
        let ms = measure(options.frames * 4) { _ in
            for job in jobs {
                _ = freetype.coverage(of: job.polygon, fillRule: job.rule, width: job.side, height: job.side)
            }
        }
        rows.append(Row(name: freetypeName, threads: 1, msPerFrame: ms, pixels: covered))
    }
}
