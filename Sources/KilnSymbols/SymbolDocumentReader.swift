import KilnModel
import KilnRaster

/// Turns a parsed symbol SVG into `SymbolArtwork` by the conventions of docs/symbols.md: the root's
/// viewBox (normalised to a height of 100), one layer per direct child `<g>`, and inside them the
/// basic shapes, paths and nested groups with their transforms and painting properties.
struct SymbolDocumentReader {
    static let svgNamespace = "http://www.w3.org/2000/svg"
    static let drawnElements: Set<String> = [
        "path", "circle", "ellipse", "rect", "line", "polyline", "polygon",
    ]
    /// Elements that draw nothing and are skipped with their content.
    static let descriptiveElements: Set<String> = ["title", "desc", "metadata"]
    static let supportedList = "Kiln draws path, circle, ellipse, rect, line, polyline, polygon in <g> layers"

    let name: String
    let file: String
    let locator: StartTagLocator
    private var segments = 0

    init(name: String, file: String, source: [UInt8]) {
        self.name = name
        self.file = file
        self.locator = StartTagLocator(source: source)
    }

    mutating func read(_ root: XMLElementNode) throws(SymbolFileError) -> SymbolArtwork {
        guard root.name == "svg", root.namespace == nil || root.namespace == Self.svgNamespace else {
            throw error(at: root, "the root element is <\(root.name)>: a symbol file is an <svg> document")
        }
        guard let viewBoxText = root.attributes["viewBox"] else {
            throw error(
                at: root, "the root <svg> has no viewBox: a symbol needs one, e.g. viewBox=\"0 0 100 100\"")
        }
        let viewBox = try value(of: "viewBox", viewBoxText, at: root, Self.viewBox)
        if root.attributes["transform"] != nil {
            throw error(
                at: root, "a transform on the root <svg> is not supported: put it on the layer groups")
        }
        let unit = 100 / viewBox.size.y
        guard viewBox.size.x <= viewBox.size.y * SymbolLimits.aspectRatio else {
            throw error(
                at: root, "the viewBox is more than \(Int(SymbolLimits.aspectRatio)) times wider than high")
        }
        var state = SymbolPaintState()
        state.transform = Affine2D.scale(unit, unit).concatenating(
            .translation(-viewBox.origin.x, -viewBox.origin.y))
        try applyPaint(of: root, to: &state)

        let baseline =
            try root.attributes["data-baseline"].map { text throws(SymbolFileError) in
                (try value(of: "data-baseline", text, at: root, SVGValues.number) - viewBox.origin.y) * unit
            } ?? 85
        let capHeight =
            try root.attributes["data-cap-height"].map { text throws(SymbolFileError) in
                try value(of: "data-cap-height", text, at: root, SVGValues.number) * unit
            } ?? 70
        guard capHeight > 0, capHeight <= 100 else {
            throw error(at: root, "data-cap-height must be above 0 and at most the viewBox height")
        }
        guard baseline >= 0, baseline <= 100 else {
            throw error(at: root, "data-baseline must lie within the viewBox")
        }

        var layers: [SymbolArtworkLayer] = []
        var firstGroup: [String: XMLElementNode] = [:]
        for child in root.children where try !isSkipped(child) {
            guard child.name == "g" else {
                if Self.drawnElements.contains(child.name) {
                    throw error(
                        at: child,
                        "<\(child.name)> is outside any layer: put it in a top-level <g id=\"…\"> (each such group is a layer)"
                    )
                }
                throw unsupported(child)
            }
            guard layers.count < SymbolLimits.layers else {
                throw error(at: child, "more than \(SymbolLimits.layers) layers")
            }
            if let id = child.attributes["id"], let first = firstGroup[id] {
                throw error(
                    at: child, "duplicate layer id '\(id)' (first at line \(location(of: first).line))")
            }
            let layer = try readLayer(child, state: state)
            firstGroup[layer.name] = child
            layers.append(layer)
        }
        guard !layers.isEmpty else {
            throw error(
                at: root,
                "the symbol has no layers: expected top-level <g id=\"…\"> groups holding its shapes")
        }
        return SymbolArtwork(
            name: name, size: SIMD2(viewBox.size.x * unit, 100), baseline: baseline, capHeight: capHeight,
            layers: layers)
    }

    private mutating func readLayer(_ group: XMLElementNode, state parent: SymbolPaintState)
        throws(SymbolFileError) -> SymbolArtworkLayer
    {
        guard let id = group.attributes["id"], !id.isEmpty else {
            throw error(at: group, "a top-level <g> is a layer and needs an id (the layer's name)")
        }
        var level = SymbolLayerLevel.primary
        if let text = group.attributes["data-level"] {
            guard let parsed = SymbolLayerLevel(rawValue: text.trimmingASCIIWhitespace()) else {
                throw error(
                    at: group,
                    "layer '\(id)': data-level is '\(text)', expected primary, secondary or tertiary")
            }
            level = parsed
        }
        var threshold: Double?
        if let text = group.attributes["data-variable"] {
            let number = Self.threshold(text)
            guard let number, number >= 0, number <= 1 else {
                throw error(
                    at: group,
                    "layer '\(id)': data-variable is '\(text)', expected a number from 0 to 1 or a fraction k/n"
                )
            }
            threshold = number
        }
        var state = parent.forChild()
        try applyPaint(of: group, to: &state)
        var shapes: [SymbolShape] = []
        if state.displayed { try collectShapes(in: group, state: state, into: &shapes) }
        var bounds: (min: SIMD2<Double>, max: SIMD2<Double>)?
        for box in shapes.compactMap(\.bounds) {
            bounds = bounds.map { (pointwiseMin($0.min, box.min), pointwiseMax($0.max, box.max)) } ?? box
        }
        guard let bounds else {
            throw error(at: group, "layer '\(id)' draws nothing (no visible shape in it)")
        }
        return SymbolArtworkLayer(
            name: id, level: level, variableThreshold: threshold, shapes: shapes, bounds: bounds)
    }

    private mutating func collectShapes(
        in element: XMLElementNode, state parent: SymbolPaintState, into shapes: inout [SymbolShape]
    ) throws(SymbolFileError) {
        for child in element.children where try !isSkipped(child) {
            guard child.name == "g" || Self.drawnElements.contains(child.name) else {
                throw unsupported(child)
            }
            var state = parent.forChild()
            try applyPaint(of: child, to: &state)
            guard state.displayed else { continue }
            if child.name == "g" {
                try collectShapes(in: child, state: state, into: &shapes)
            } else if let shape = try shape(of: child, state: state) {
                shapes.append(shape)
            }
        }
    }

    /// The element's shape in the normalised viewBox, or nil when it draws nothing.
    private mutating func shape(of element: XMLElementNode, state: SymbolPaintState) throws(SymbolFileError)
        -> SymbolShape?
    {
        guard state.visible, let local = try ShapeGeometry(reader: self).path(of: element), !local.isEmpty
        else {
            return nil
        }
        let filled = state.fills && element.name != "line"
        let scale = abs(state.transform.determinant).squareRoot()
        let strokeWidth = state.strokeWidth * scale
        let stroked = state.strokes && strokeWidth > 0
        guard !state.strokes || strokeWidth <= SymbolLimits.coordinateMagnitude else {
            throw error(
                at: element,
                "<\(element.name)> has a stroke wider than \(Int(SymbolLimits.coordinateMagnitude)) units")
        }
        guard filled || stroked else { return nil }
        let path = local.transformed(by: state.transform)
        segments += path.elements.count
        guard segments <= SymbolLimits.segments else {
            throw error(
                at: element, "more than \(SymbolLimits.segments) path segments: too complex for a symbol")
        }
        if let box = path.controlBounds {
            let limit = SymbolLimits.coordinateMagnitude
            guard box.min.x.isFinite, box.min.y.isFinite, box.max.x.isFinite, box.max.y.isFinite,
                box.min.x >= -limit, box.min.y >= -limit, box.max.x <= limit, box.max.y <= limit
            else {
                throw error(
                    at: element,
                    "<\(element.name)> reaches coordinates beyond ±\(Int(limit)) units of the normalised viewBox"
                )
            }
        }
        return SymbolShape(
            path: path, fill: filled ? state.fillRule : nil,
            stroke: stroked
                ? StrokeStyle(
                    width: strokeWidth, cap: state.lineCap, join: state.lineJoin, miterLimit: state.miterLimit
                )
                : nil,
            fillOpacity: state.opacity * state.fillOpacity, strokeOpacity: state.opacity * state.strokeOpacity
        )
    }

    /// Presentation attributes, then the `style` attribute's declarations (which win, as in CSS),
    /// then the element's `transform`.
    private func applyPaint(of element: XMLElementNode, to state: inout SymbolPaintState)
        throws(SymbolFileError)
    {
        for property in element.attributes.keys.sorted() where SymbolPaintState.known.contains(property) {
            let text = element.attributes[property] ?? ""
            do throws(SVGValueError) {
                try state.apply(property, text)
            } catch {
                throw self.error(at: element, "<\(element.name)> '\(property)': \(error.message)")
            }
        }
        if let style = element.attributes["style"] {
            let declarations = try value(of: "style", style, at: element, Self.declarations)
            for (property, text) in declarations {
                do throws(SVGValueError) {
                    try state.apply(property, text)
                } catch {
                    throw self.error(at: element, "<\(element.name)> style '\(property)': \(error.message)")
                }
            }
        }
        if let text = element.attributes["transform"] {
            try checkLength(text, "transform", at: element)
            let transform = try value(of: "transform", text, at: element, SVGTransformList.parse)
            state.transform = state.transform.concatenating(transform)
        }
    }

    /// Whether the element draws nothing by nature: descriptive elements, elements of other
    /// namespaces (an editor's own data), and `<defs>` holding only such elements.
    private func isSkipped(_ element: XMLElementNode) throws(SymbolFileError) -> Bool {
        if let namespace = element.namespace, namespace != Self.svgNamespace { return true }
        if Self.descriptiveElements.contains(element.name) { return true }
        if element.name == "defs" {
            for child in element.children where try !isSkipped(child) {
                throw error(
                    at: child,
                    "<\(child.name)> in <defs> is not supported in a symbol (nothing may be referenced)")
            }
            return true
        }
        return false
    }

    func checkLength(_ text: String, _ attribute: String, at element: XMLElementNode) throws(SymbolFileError)
    {
        guard text.utf8.count <= SymbolLimits.attributeCharacters else {
            throw error(
                at: element,
                "<\(element.name)> '\(attribute)' is longer than \(SymbolLimits.attributeCharacters) bytes")
        }
    }

    func value<T>(
        of attribute: String, _ text: String, at element: XMLElementNode,
        _ parse: (String) throws(SVGValueError) -> T
    ) throws(SymbolFileError) -> T {
        do throws(SVGValueError) {
            return try parse(text)
        } catch {
            throw self.error(at: element, "<\(element.name)> '\(attribute)': \(error.message)")
        }
    }

    func unsupported(_ element: XMLElementNode) -> SymbolFileError {
        error(at: element, "<\(element.name)> is not supported in a symbol (\(Self.supportedList))")
    }

    func error(at element: XMLElementNode, _ message: String) -> SymbolFileError {
        let place = location(of: element)
        return SymbolFileError(file: file, line: place.line, column: place.column, message: message)
    }

    private func location(of element: XMLElementNode) -> (line: Int, column: Int?) {
        if let found = locator.location(ofElement: element.order) { return (found.line, found.column) }
        return (element.line, nil)
    }

    static func viewBox(_ text: String) throws(SVGValueError) -> (origin: SIMD2<Double>, size: SIMD2<Double>)
    {
        var scanner = SVGNumberScanner(text)
        var numbers: [Double] = []
        scanner.skipWhitespace()
        while !scanner.isAtEnd, numbers.count < 5 {
            numbers.append(try scanner.requiredNumber("a number"))
            scanner.skipCommaWhitespace()
        }
        guard numbers.count == 4 else {
            throw SVGValueError(message: "expected 4 numbers (min-x min-y width height), got '\(text)'")
        }
        guard numbers[2] > 0, numbers[3] > 0 else {
            throw SVGValueError(message: "width and height must be positive, got '\(text)'")
        }
        return (SIMD2(numbers[0], numbers[1]), SIMD2(numbers[2], numbers[3]))
    }

    /// CSS declarations of a `style` attribute, in order: `property: value; …`, comments and
    /// `!important` dropped, property names in lower case.
    static func declarations(_ text: String) throws(SVGValueError) -> [(String, String)] {
        var uncommented = ""
        var rest = Substring(text)
        while let open = rest.firstRange(of: "/*") {
            uncommented += rest[..<open.lowerBound]
            guard let close = rest[open.upperBound...].firstRange(of: "*/") else {
                throw SVGValueError(message: "a comment is not closed")
            }
            rest = rest[close.upperBound...]
        }
        uncommented += rest
        var result: [(String, String)] = []
        for declaration in uncommented.split(separator: ";") {
            let trimmed = String(declaration).trimmingASCIIWhitespace()
            guard !trimmed.isEmpty else { continue }
            guard let colon = trimmed.firstIndex(of: ":") else {
                throw SVGValueError(message: "expected 'property: value', got '\(trimmed)'")
            }
            let property = String(trimmed[..<colon]).trimmingASCIIWhitespace().lowercased()
            var value = String(trimmed[trimmed.index(after: colon)...]).trimmingASCIIWhitespace()
            if value.hasSuffix("!important") {
                value = String(value.dropLast("!important".count)).trimmingASCIIWhitespace()
            }
            result.append((property, value))
        }
        return result
    }

    /// A variable layer's threshold: a number, or a fraction `k/n`, so three layers lit evenly
    /// are 1/3, 2/3 and 1 exactly (Apple's rule), not 0.34 and 0.67.
    static func threshold(_ text: String) -> Double? {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        switch parts.count {
        case 1: return try? SVGValues.number(text)
        case 2:
            guard let k = try? SVGValues.number(String(parts[0])),
                let n = try? SVGValues.number(String(parts[1])),
                n > 0
            else { return nil }
            return k / n
        default: return nil
        }
    }
}
