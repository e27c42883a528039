import KilnModel
import KilnRaster

/// The frame a scene is rendered into, and how it is cut into bands.
///
/// Layers are laid out in `layoutSize` (the job's own width and height: every position, size,
/// radius and offset a job writes is in its units) and `frameFromLayout` maps that into the
/// frame's pixels. It is the identity for a full-size render; a draft (`Draft`) renders the same
/// layout into fewer pixels, so the picture is the full-size one made smaller.
public struct Canvas: Sendable, Hashable {
    /// Frame pixels.
    public let width: Int
    public let height: Int
    public let bandHeight: Int
    /// When pixel stages over a large blur run on a reduced grid (`ReducedPipelineLayer`).
    public let reducedEvaluation: ReducedEvaluation
    /// Whether a layer under a blur of σ ≥ 16 that can paint onto another grid (a picture) is
    /// painted straight onto the blur's 4× reduced copy instead of at full size and then reduced
    /// (`Offscreen`). Renders always do; false exists to measure against it (tests).
    public let paintsReducedUnderBlur: Bool
    /// Whether the result of a blur of σ ≥ 16 that is only composited is kept as the blur's
    /// reduced copy and enlarged band by band as it is composited, instead of enlarged into a
    /// full-size image first (`Offscreen`): the same bytes without writing and reading back a
    /// full-size image. Renders always do; false exists to check it (tests).
    public let enlargesBlurInBands: Bool
    /// The space layers are placed in: the job's own size.
    public let layoutSize: SIMD2<Double>
    /// How much the cameras above a scene magnify it (1 outside any camera): lengths in frame
    /// pixels that no transform reaches (blur radii) grow with it, as a real push-in would
    /// enlarge a blurred picture (`magnified(by:)`).
    public private(set) var cameraZoom = 1.0
    /// The box of the scene being placed: the layout at the top, a nested composition's own
    /// size inside one. Content defined in its scene's coordinates (solids, mesh gradients) and
    /// boxes that default to "the frame" (groups, scroll viewports) take it.
    public private(set) var sceneSize: SIMD2<Double>

    /// `layoutSize` nil: the frame's own size, for a full-size render.
    public init(
        width: Int, height: Int, bandHeight: Int = 8, reducedEvaluation: ReducedEvaluation = .whenSafe,
        paintsReducedUnderBlur: Bool = true, enlargesBlurInBands: Bool = true,
        layoutSize: SIMD2<Double>? = nil
    ) {
        self.enlargesBlurInBands = enlargesBlurInBands
        self.paintsReducedUnderBlur = paintsReducedUnderBlur
        self.width = width
        self.height = height
        self.bandHeight = bandHeight
        self.reducedEvaluation = reducedEvaluation
        self.layoutSize = layoutSize ?? SIMD2(Double(width), Double(height))
        sceneSize = self.layoutSize
    }

    /// The canvas a job's output is rendered on, drafts included.
    public init(output: OutputSettings) {
        self.init(
            width: output.width, height: output.height,
            layoutSize: SIMD2(Double(output.layoutWidth), Double(output.layoutHeight)))
    }

    /// Frame pixels per layout unit along each axis (they differ only by the rounding of a
    /// draft's size to even pixels).
    public var pixelScale: SIMD2<Double> { SIMD2(Double(width), Double(height)) / layoutSize }

    /// Places the layout in the frame: the parent transform of every top-level layer.
    public var frameFromLayout: Affine2D { .scale(pixelScale.x, pixelScale.y) }

    /// `frameFromLocal` with the layout's units on the left: where a layer is in the terms its
    /// job is written in (geometry that modifiers read). Unchanged at full size.
    public func layoutFromLocal(_ frameFromLocal: Affine2D) -> Affine2D {
        let scale = pixelScale
        guard scale != SIMD2(1, 1) else { return frameFromLocal }
        return Affine2D.scale(1 / scale.x, 1 / scale.y).concatenating(frameFromLocal)
    }

    /// Frame pixels per layout unit for lengths with no direction, which a layer's transform
    /// does not reach (blur radii are frame pixels): the mean of the two axes' scales.
    /// Under a camera, the camera's zoom too.
    public var lengthScale: Double { frameScale * cameraZoom }

    /// Frame pixels per layout unit for lengths with no direction, without the cameras: a
    /// draft's scale alone (what keeps a mesh's triangles a fixed size on screen).
    public var frameScale: Double { (pixelScale.x * pixelScale.y).squareRoot() }

    /// How far nested cameras may magnify or shrink a scene together: each camera's zoom is
    /// bounded by its table, but their product is not, and a blur radius grows with it.
    public static let cameraZoomRange = 1e-4...1e4

    /// The canvas as the layers of a nested composition of `size` see it: the same frame and
    /// pixels, their own scene box.
    public func nested(size: SIMD2<Double>) -> Canvas {
        var canvas = self
        canvas.sceneSize = size
        return canvas
    }

    /// The canvas as the scene under a camera zooming by `zoom` sees it.
    public func magnified(by zoom: Double) -> Canvas {
        var canvas = self
        canvas.cameraZoom = min(
            max(cameraZoom * zoom, Self.cameraZoomRange.lowerBound), Self.cameraZoomRange.upperBound)
        return canvas
    }
}
