import KilnRaster

/// The outline of one drawn element in its own coordinates, from its geometry attributes as SVG
/// 1.1 defines them (zero sizes draw nothing, negative ones are errors).
struct ShapeGeometry {
    let reader: SymbolDocumentReader

    func path(of element: XMLElementNode) throws(SymbolFileError) -> VectorPath? {
        switch element.name {
        case "path": return try path(element)
        case "rect": return try rect(element)
        case "circle":
            let r = try length("r", of: element, required: true)
            try requireNonNegative(r, "r", element)
            guard r > 0 else { return nil }
            let center = SIMD2(try length("cx", of: element), try length("cy", of: element))
            return .ellipse(center: center, radii: SIMD2(r, r))
        case "ellipse":
            let rx = try optionalLength("rx", of: element)
            let ry = try optionalLength("ry", of: element)
            guard let radiusX = rx ?? ry, let radiusY = ry ?? rx else {
                throw reader.error(at: element, "<ellipse> needs rx and ry")
            }
            try requireNonNegative(radiusX, "rx", element)
            try requireNonNegative(radiusY, "ry", element)
            guard radiusX > 0, radiusY > 0 else { return nil }
            let center = SIMD2(try length("cx", of: element), try length("cy", of: element))
            return .ellipse(center: center, radii: SIMD2(radiusX, radiusY))
        case "line":
            var path = VectorPath()
            path.move(to: SIMD2(try length("x1", of: element), try length("y1", of: element)))
            path.line(to: SIMD2(try length("x2", of: element), try length("y2", of: element)))
            return path
        case "polyline", "polygon":
            let text = element.attributes["points"] ?? ""
            try reader.checkLength(text, "points", at: element)
            let points = try reader.value(of: "points", text, at: element, SVGValues.points)
            guard points.count >= 2 else { return nil }
            var path = VectorPath()
            path.move(to: points[0])
            for p in points.dropFirst() { path.line(to: p) }
            if element.name == "polygon" { path.close() }
            return path
        default:
            throw reader.unsupported(element)
        }
    }

    private func path(_ element: XMLElementNode) throws(SymbolFileError) -> VectorPath? {
        guard let data = element.attributes["d"] else { return nil }
        try reader.checkLength(data, "d", at: element)
        do throws(SVGPathSyntaxError) {
            return try SVGPathData.parse(data)
        } catch {
            throw reader.error(at: element, "<path> d: \(error.message) (offset \(error.offset) in d)")
        }
    }

    private func rect(_ element: XMLElementNode) throws(SymbolFileError) -> VectorPath? {
        guard let width = try optionalLength("width", of: element),
            let height = try optionalLength("height", of: element)
        else {
            throw reader.error(at: element, "<rect> needs width and height")
        }
        try requireNonNegative(width, "width", element)
        try requireNonNegative(height, "height", element)
        guard width > 0, height > 0 else { return nil }
        // SVG: a missing radius takes the other's value; both are clamped to half the side.
        let rx = try optionalLength("rx", of: element)
        let ry = try optionalLength("ry", of: element)
        try requireNonNegative(rx ?? 0, "rx", element)
        try requireNonNegative(ry ?? 0, "ry", element)
        let radii = SIMD2(min(rx ?? ry ?? 0, width / 2), min(ry ?? rx ?? 0, height / 2))
        let origin = SIMD2(try length("x", of: element), try length("y", of: element))
        return .rect(origin: origin, size: SIMD2(width, height), cornerRadii: radii)
    }

    private func length(_ attribute: String, of element: XMLElementNode, required: Bool = false)
        throws(SymbolFileError) -> Double
    {
        guard let value = try optionalLength(attribute, of: element) else {
            if required { throw reader.error(at: element, "<\(element.name)> needs \(attribute)") }
            return 0
        }
        return value
    }

    /// nil when absent or `auto` (the radii of rect and ellipse).
    private func optionalLength(_ attribute: String, of element: XMLElementNode) throws(SymbolFileError)
        -> Double?
    {
        guard let text = element.attributes[attribute], text.trimmingASCIIWhitespace() != "auto" else {
            return nil
        }
        return try reader.value(of: attribute, text, at: element, SVGValues.length)
    }

    private func requireNonNegative(_ value: Double, _ attribute: String, _ element: XMLElementNode)
        throws(SymbolFileError)
    {
        guard value >= 0 else {
            throw reader.error(
                at: element, "<\(element.name)> '\(attribute)' must not be negative, got \(value)")
        }
    }
}
