extension VectorPath {
    /// The area a stroke of `style` covers, as closed polygons that all turn the same way, so
    /// filling them by the non-zero rule paints the stroke; `tolerance` in this path's units.
    /// `PathPainter` strokes the same way; this form lets another rasterizer (the tests' FreeType
    /// oracle) fill the very same outline.
    public func strokeOutline(_ style: StrokeStyle, tolerance: Double) -> VectorPath {
        let stroker = PathStroker(style: style, tolerance: tolerance)
        var pieces = StrokePolygons()
        for line in polylines(tolerance: tolerance) { stroker.add(line, into: &pieces) }
        var result = VectorPath()
        for polygon in pieces.polygons where polygon.count > 2 {
            var area = 0.0
            var previous = polygon[polygon.count - 1]
            for p in polygon {
                area += previous.x * p.y - p.x * previous.y
                previous = p
            }
            let points = area < 0 ? Array(polygon.reversed()) : polygon
            result.move(to: points[0])
            for p in points.dropFirst() { result.line(to: p) }
            result.close()
        }
        return result
    }
}
