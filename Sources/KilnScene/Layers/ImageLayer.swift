import Foundation
import KilnModel
import KilnRaster

/// Decodes the files image layers name. The scene cannot decode files itself (that is the media
/// module's job), so whoever loads a job hands one in.
public protocol ImageDecoding: Sendable {
    /// The image's width and height from its header, without decoding pixels.
    func imageSize(at url: URL) throws -> SIMD2<Int>
    /// The image as premultiplied texels; when `size` is given, resized to it with a prefiltering
    /// (anti-aliasing) filter.
    func decodeImage(at url: URL, resizedTo size: SIMD2<Int>?) throws -> RasterImage
}

/// A photo or other picture (PNG, JPEG, WebP) fitted into a box: SwiftUI's
/// `Image(…).resizable().aspectRatio(contentMode:)`, cut to the box as CSS `object-fit` does.
///
/// When the box is constant and smaller than the picture, the picture is resized once at load
/// with a prefiltering filter, so a 4000-pixel photo on a 400-pixel card neither aliases nor
/// costs its full size; mip levels cover further shrinking by transforms.
public struct ImageLayer: LayerRendering {
    public enum Fit: String, Sendable, CaseIterable {
        /// Cover the box, keeping the aspect ratio; the overflow is cut off.
        case fill
        /// Fit inside the box, keeping the aspect ratio; the rest of the box stays empty.
        case fit
        /// Exactly the box, distorting the aspect ratio.
        case stretch
        /// Natural size, centred; cut to the box.
        case none
    }

    public let image: RasterImage
    /// The picture's own size in pixels (before any load-time resize).
    public let naturalSize: SIMD2<Double>
    public let size: Animated<Point2>?
    public let fit: Fit

    enum Key {
        static let path = ParameterKey<URL?>("path")
        static let size = ParameterKey<Animated<Point2>>("size")
        static let fit = ParameterKey<String>("fit")
    }

    public static let parameters = ParameterTable([
        Parameter(
            Key.path, .assetPath,
            help: "PNG, JPEG or WebP file, relative to the job file's directory (or absolute)"),
        Parameter(
            Key.size, .point(0...16_384), default: .point(Point2(x: 0, y: 0)),
            defaultDescription: "the picture's own size",
            help: "[width, height] of the box in pixels"),
        Parameter(
            Key.fit, .choice(Fit.allCases.map(\.rawValue)), default: .string("fill"),
            help: "fill (cover, cut), fit (letterbox), stretch, or none (natural size)"),
    ])

    public static let kind = LayerKind(
        name: "image", summary: "a PNG, JPEG or WebP picture fitted into a box", parameters: parameters
    ) { params, _, context in
        guard let url = params[Key.path] else { return nil }
        let pathNode = params.node(Key.path), path = params.path(Key.path)
        guard let decoder = context.services.service((any ImageDecoding).self) else {
            context.error(
                "image layers need an image decoder, and this loader has none", at: pathNode, path: path)
            return nil
        }
        do {
            let natural = try decoder.imageSize(at: url)
            // From the header, before a decoder allocates the pixels.
            if let problem = context.limits.violation(
                .imagePixels, natural.x * natural.y,
                "the size in pixels of \(url.lastPathComponent) (\(natural.x)×\(natural.y))")
            {
                context.error(problem, at: pathNode, path: path)
                return nil
            }
            let naturalSize = SIMD2(Double(natural.x), Double(natural.y))
            let fit = Fit(rawValue: params[Key.fit]) ?? .fill
            let size = params.isPresent(Key.size) ? params[Key.size] : nil
            let resized = fit.decodedSize(natural: naturalSize, box: size)
            guard
                Self.chargeDecoding(
                    natural: natural, decoded: resized ?? natural, file: url.lastPathComponent,
                    to: context.memory, at: path)
            else { return nil }
            let image = try decoder.decodeImage(at: url, resizedTo: resized)
            return ImageLayer(image: image, naturalSize: naturalSize, size: size, fit: fit)
        } catch {
            context.error("\(error)", at: pathNode, path: path)
            return nil
        }
    }

    /// Charges a picture before it is decoded, from its header: its texels and mip levels
    /// (4 bytes a pixel, a third more for the levels) are held; the decoder's full-size RGBA
    /// picture and the packed copy are needed while it loads.
    static func chargeDecoding(
        natural: SIMD2<Int>, decoded: SIMD2<Int>, file: String, to budget: MemoryBudget, at path: JSONPath
    ) -> Bool {
        let naturalPixels = Double(natural.x) * Double(natural.y)
        let decodedPixels = Double(decoded.x) * Double(decoded.y)
        return budget.charge(
            .image, decodedPixels * 4 * 4 / 3, briefly: naturalPixels * 4 + decodedPixels * 4,
            "image \(file) \(natural.x)×\(natural.y)", at: path)
    }

    public init(
        image: RasterImage, naturalSize: SIMD2<Double>? = nil, size: Animated<Point2>?, fit: Fit = .fill
    ) {
        self.image = image
        self.naturalSize = naturalSize ?? SIMD2(Double(image.width), Double(image.height))
        self.size = size
        self.fit = fit
    }

    public func contentSize(at time: Double, canvas: Canvas) -> SIMD2<Double> {
        Self.box(size, natural: naturalSize, at: time)
    }

    /// The box a picture is fitted into: `size` at `time` (negative sides as 0), or the picture's
    /// natural size without one. Video layers box their frames the same way.
    static func box(_ size: Animated<Point2>?, natural: SIMD2<Double>, at time: Double) -> SIMD2<Double> {
        guard let size else { return natural }
        let s = size.value(at: time)
        return SIMD2(max(s.x, 0), max(s.y, 0))
    }

    public func prepare(at time: Double, canvas: Canvas, transform: Affine2D) -> any PreparedLayer {
        let box = contentSize(at: time, canvas: canvas)
        let drawn = fit.drawnSize(natural: naturalSize, box: box)
        guard drawn.x > 0, drawn.y > 0 else { return PreparedImage(painter: nil) }
        let origin = (box - drawn) / 2
        let texels = SIMD2(Double(image.width), Double(image.height))
        let texelsPerUnit = texels / drawn
        // The box, in texels: the part of the picture that is shown.
        let visibleMin = (SIMD2<Double>.zero - origin) * texelsPerUnit
        let visibleMax = (box - origin) * texelsPerUnit
        let frameFromImage = transform.concatenating(.translation(origin.x, origin.y))
            .concatenating(.scale(1 / texelsPerUnit.x, 1 / texelsPerUnit.y))
        return PreparedImage(
            painter: ImagePainter(
                image: image, frameFromImage: frameFromImage, visible: (visibleMin, visibleMax),
                frameWidth: canvas.width, frameHeight: canvas.height))
    }
}

extension ImageLayer.Fit {
    /// The size the picture is drawn at in a `box`, before cutting to the box.
    public func drawnSize(natural: SIMD2<Double>, box: SIMD2<Double>) -> SIMD2<Double> {
        guard natural.x > 0, natural.y > 0 else { return .zero }
        switch self {
        case .stretch: return box
        case .none: return natural
        case .fill: return natural * max(box.x / natural.x, box.y / natural.y)
        case .fit: return natural * min(box.x / natural.x, box.y / natural.y)
        }
    }

    /// The size a picture is best decoded at for a `box`: where a constant box draws it smaller
    /// on both axes, that drawn size (rounded up), so it is resized once at load instead of
    /// shrunk at every frame; nil (its own size) otherwise.
    public func decodedSize(natural: SIMD2<Double>, box: Animated<Point2>?) -> SIMD2<Int>? {
        guard let box, box.isConstant else { return nil }
        let b = box.value(at: 0)
        let drawn = drawnSize(natural: natural, box: SIMD2(b.x, b.y))
        guard drawn.x < natural.x && drawn.y < natural.y && drawn.x >= 1 && drawn.y >= 1 else { return nil }
        return SIMD2(Int(drawn.x.rounded(.up)), Int(drawn.y.rounded(.up)))
    }
}

struct PreparedImage: PreparedLayer {
    let painter: ImagePainter?
    /// Multiplies the texels' channels (a diagonal colour matrix, such as a text tint).
    var tint = SIMD4<Float>(1, 1, 1, 1)

    /// The painter's inputs and the tint are all `paint` reads.
    var contentKey: LayerContentKey? {
        painter.map { .image($0.inputs, tint: tint) }
    }

    var extent: PixelExtent? {
        painter.map { PixelExtent(rows: $0.rows, columns: $0.columns) } ?? .empty
    }

    /// A picture's painter filters for any scale it is drawn at (bilinear, mip levels).
    func mapped(by gridFromFrame: Affine2D, gridWidth: Int, gridHeight: Int) -> (any PreparedLayer)? {
        guard let inputs = painter?.inputs else { return self }
        let painter = ImagePainter(
            image: inputs.image, frameFromImage: gridFromFrame.concatenating(inputs.frameFromImage),
            visible: (inputs.visibleMin, inputs.visibleMax), frameWidth: gridWidth, frameHeight: gridHeight)
        return PreparedImage(painter: painter, tint: tint)
    }

    func paint(into band: PlanarBand, firstRow: Int, rows: Int, columns: Range<Int>, pool: BandPool) {
        guard let painter else { return band.fill(.transparent, rows: rows, columns: columns) }
        painter.paint(into: band, firstRow: firstRow, rows: rows, columns: columns, tint: tint)
    }

    func paintOver(
        into band: PlanarBand, firstRow: Int, rows: Int, columns: Range<Int>, opacity: Float, pool: BandPool
    ) -> Bool {
        painter?.paint(
            into: band, firstRow: firstRow, rows: rows, columns: columns, over: true, opacity: opacity,
            tint: tint)
        return true
    }
}
