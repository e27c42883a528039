import Foundation
import KilnModel
import KilnRaster
import KilnText

/// Text: shaped with HarfBuzz, in any script (fallback fonts fill in what the named font lacks,
/// colour emoji included), wrapped within `width`, aligned, and drawn once when the job loads.
/// Its box is the layout's (width × lines' height), so transforms, clips and effects place it
/// like any layer.
public struct TextLayer: LayerRendering {
    public let image: TextImage
    public let color: Animated<RGBA>

    public static let parameters = ParameterTable([
        Parameter("text", .string, help: "the text; \\n starts a new line"),
        Parameter("font", .string, default: .string("Noto Sans"), help: "font family (fontconfig name)"),
        Parameter("size", .constantNumber(1...1000), default: .number(48), help: "font size in pixels"),
        Parameter(
            "weight", .choice(FontDescriptor.weightNames.sorted { $0.value < $1.value }.map(\.key)),
            default: .string("regular"),
            help: "thin, extraLight, light, regular, medium, semibold, bold, extraBold, black"),
        Parameter("italic", .boolean, default: .boolean(false), help: "the italic (or oblique) style"),
        Parameter(
            "color", .color, default: .color(RGBA(r: 1, g: 1, b: 1, a: 1)),
            help: "text colour (emoji keep theirs); animatable"),
        Parameter(
            "alignment", .choice(TextLayout.Alignment.allCases.map(\.rawValue)), default: .string("leading"),
            help: "leading, center or trailing within the width"),
        Parameter(
            "width", .constantNumber(0...16_384), default: .number(0),
            help: "wrap lines within this many pixels; 0 = no wrapping"),
        Parameter(
            "lineHeight", .constantNumber(0...10), default: .number(0),
            help: "baseline-to-baseline distance as a multiple of the size; 0 = the font's own"),
    ])

    public static let kind = LayerKind(
        name: "text", summary: "shaped text in any script, wrapped and aligned", parameters: parameters
    ) { p, _, context in
        let descriptor = FontDescriptor(
            family: p.string("font"), weight: FontDescriptor.weightNames[p.string("weight")] ?? 400,
            italic: p.boolean("italic"))
        let size = p.number("size").value(at: 0)
        let width = p.number("width").value(at: 0), lineHeight = p.number("lineHeight").value(at: 0)
        do {
            let library = try FontLibrary.shared()
            let layout = try TextLayout(
                text: p.string("text"), font: descriptor, size: size,
                lineHeight: lineHeight > 0 ? lineHeight : nil,
                maxWidth: width > 0 ? width : nil,
                alignment: TextLayout.Alignment(rawValue: p.string("alignment")) ?? .leading, library: library
            )
            return TextLayer(
                image: TextImage(layout, margin: Int((size * 0.5).rounded(.up))), color: p.color("color"))
        } catch {
            context.error(
                "\(error)", at: p.node("font") ?? p.node("text"),
                path: p.node("font") != nil ? p.path("font") : p.path("text"))
            return nil
        }
    }

    public func contentSize(at time: Double, canvas: Canvas) -> SIMD2<Double> { image.box }

    public func prepare(at time: Double, canvas: Canvas, transform: Affine2D) -> any PreparedLayer {
        let margin = Double(image.margin)
        // The pictures extend `margin` beyond the box on every side.
        let frameFromImage = transform.concatenating(.translation(-margin, -margin))
        func painter(_ picture: RasterImage) -> ImagePainter? {
            ImagePainter(
                image: picture, frameFromImage: frameFromImage,
                visible: (.zero, SIMD2(Double(picture.width), Double(picture.height))),
                frameWidth: canvas.width, frameHeight: canvas.height)
        }
        var items: [PreparedItem] = []
        if let coverage = image.coverage {
            let c = color.value(at: time)
            // White coverage times the colour, premultiplied.
            let tint = ColorMatrix(rows: [
                [c.r * c.a, 0, 0, 0], [0, c.g * c.a, 0, 0], [0, 0, c.b * c.a, 0], [0, 0, 0, c.a],
            ])
            items.append(
                PreparedItem(layer: PreparedImage(painter: painter(coverage)), opacity: 1, colors: tint))
        }
        if let colour = image.colour {
            items.append(
                PreparedItem(layer: PreparedImage(painter: painter(colour)), opacity: 1, colors: nil))
        }
        return PreparedGroup(children: LayerStack(items: items), clip: nil)
    }
}
