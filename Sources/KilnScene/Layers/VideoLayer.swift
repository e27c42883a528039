import Foundation
import KilnModel
import KilnRaster

/// Opens the clips video layers name. The scene cannot decode files itself (that is the media
/// module's job), so whoever loads a job hands one in.
public protocol VideoDecoding: Sendable {
    /// The clip's displayed size and duration from its header, without decoding frames: checked
    /// against the limits before a decoder allocates any.
    func videoFacts(at url: URL) throws -> VideoFacts
    /// The clip opened for rendering; its first frame has decoded. `maxPixels` bounds the frames
    /// the decoder may allocate; with `scaledTo` (upright) its pictures come at that size,
    /// resampled with a prefiltering filter.
    func openVideo(at url: URL, maxPixels: Int, scaledTo size: SIMD2<Int>?) throws -> any VideoFrameSource
}

public struct VideoFacts: Sendable, Equatable {
    /// Upright, after the clip's rotation.
    public let size: SIMD2<Int>
    /// nil when the container does not say.
    public let duration: Double?

    public init(size: SIMD2<Int>, duration: Double?) {
        self.size = size
        self.duration = duration
    }
}

/// A clip's frames by time, shared by every frame the job renders (and by every renderer of the
/// job, which may ask from several threads and in any order).
public protocol VideoFrameSource: AnyObject, Sendable {
    /// The picture shown at `time` (`PlaybackTiming.ClipTime`). The same time always gives the
    /// same texels, however the requests before it went. When the clip stops decoding (its
    /// file changed or became unreadable), the last picture is returned and `failure` says why.
    func frame(at time: PlaybackTiming.ClipTime) -> RasterImage
    /// Why a frame could not be decoded, once one could not; the renderer then refuses the frame.
    var failure: String? { get }
}

/// A video clip fitted into a box like an image layer, its frame chosen by time: the frame a
/// player shows at the clip time `PlaybackTiming.clipTime(at:)` gives. Frames are decoded as the timeline moves
/// forward, converted once to premultiplied texels and drawn exactly as an image layer draws
/// its picture, so every transform, effect and transition applies.
public struct VideoLayer: LayerRendering {
    public let source: any VideoFrameSource
    /// The clip's upright size in pixels.
    public let naturalSize: SIMD2<Double>
    public let size: Animated<Point2>?
    public let fit: ImageLayer.Fit
    public let timing: PlaybackTiming

    static let wording = PlaybackTiming.Wording(
        piece: "clip", end: "the clip's end", duration: "the clip's duration",
        trim: "the part of the clip used, in seconds of the clip",
        afterEnd: "its last frame stays after it ends")

    enum Key {
        static let path = ParameterKey<URL?>("path")
        static let size = ParameterKey<Animated<Point2>>("size")
        static let fit = ParameterKey<String>("fit")
        static let muted = ParameterKey<Bool>("muted")
        static let volume = ParameterKey<Animated<Double>>("volume")
    }

    public static let parameters = ParameterTable(
        [
            Parameter(
                Key.path, .assetPath,
                help:
                    "video file (MP4, MOV, WebM, Matroska…; any codec FFmpeg decodes), relative to the job "
                    + "file's directory (or absolute); its sound joins the soundtrack unless muted")
        ] + PlaybackTiming.parameters(wording) + [
            Parameter(
                Key.size, .point(0...16_384), default: .point(Point2(x: 0, y: 0)),
                defaultDescription: "the clip's own size",
                help: "[width, height] of the box in pixels"),
            Parameter(
                Key.fit, .choice(ImageLayer.Fit.allCases.map(\.rawValue)), default: .string("fill"),
                help: "fill (cover, cut), fit (letterbox), stretch, or none (natural size)"),
            Parameter(
                Key.muted, .boolean, default: .boolean(false),
                help: "leave the clip's sound out of the soundtrack"),
            Parameter(
                Key.volume, .constantNumber(0...16), default: .number(1),
                help: "linear gain of the clip's sound in the mix (1 as recorded)"),
        ])

    public static let kind = LayerKind(
        name: "video",
        summary: "a video clip's frames, trimmed, placed, sped up or looped, fitted into a box",
        parameters: parameters
    ) { params, _, context in
        guard let url = params[Key.path] else { return nil }
        let pathNode = params.node(Key.path), path = params.path(Key.path)
        guard let decoder = context.services.service((any VideoDecoding).self) else {
            context.error(
                "video layers need a video decoder, and this loader has none", at: pathNode, path: path)
            return nil
        }
        let facts: VideoFacts
        do {
            facts = try decoder.videoFacts(at: url)
        } catch {
            context.error("\(error)", at: pathNode, path: path)
            return nil
        }
        let pixels = facts.size.x * facts.size.y
        if let problem = context.limits.violation(
            .imagePixels, pixels,
            "the size in pixels of a frame of \(url.lastPathComponent) (\(facts.size.x)×\(facts.size.y))")
        {
            context.error(problem, at: pathNode, path: path)
            return nil
        }
        guard
            let timing = PlaybackTiming.decode(
                params, wording: wording, duration: facts.duration,
                endName: "the end of \(url.lastPathComponent)",
                unknownDuration:
                    "the duration of \(url.lastPathComponent) is not known: give \"trim\": {\"end\": seconds}",
                at: pathNode, path: path, context)
        else { return nil }
        let naturalSize = SIMD2(Double(facts.size.x), Double(facts.size.y))
        let size = params.isPresent(Key.size) ? params[Key.size] : nil
        let fit = ImageLayer.Fit(rawValue: params[Key.fit]) ?? .fill
        // As for an image: a constant box that draws the clip smaller has its frames converted at
        // the drawn size, once each, rather than at the clip's size.
        let target = fit.decodedSize(natural: naturalSize, box: size)
        // The decoder's frames (frame threads and references, YUV 4:2:0) and the handful of
        // converted pictures the source keeps, before the clip is opened.
        let shown = target.map { Double($0.x) * Double($0.y) } ?? Double(pixels)
        guard
            context.memory.charge(
                .video, Double(pixels) * 1.5 * 24 + shown * 4 * 4 / 3 * 6,
                "video \(url.lastPathComponent) \(facts.size.x)×\(facts.size.y)", at: path)
        else { return nil }
        let source: any VideoFrameSource
        do {
            // The limit, not the clip's own area: decoders allocate padded pictures (MPEG-4
            // Part 2's are several times a small clip's frame), and max_pixels is checked against
            // those, so the area refused every small clip in that format.
            source = try decoder.openVideo(
                at: url, maxPixels: context.limits.count(.imagePixels), scaledTo: target)
        } catch {
            context.error("\(error)", at: pathNode, path: path)
            return nil
        }
        if !params[Key.muted] {
            addSound(
                of: url, timing: timing, volume: params[Key.volume].value(at: 0), at: pathNode, path,
                context)
        }
        return VideoLayer(source: source, naturalSize: naturalSize, size: size, fit: fit, timing: timing)
    }

    /// The clip's sound, placed as its frames are (trim, offset, speed, loop), joins the job's
    /// soundtrack. A clip whose audio does not decode plays silent, as players play it.
    private static func addSound(
        of url: URL, timing: PlaybackTiming, volume: Double, at node: JSONNode?, _ path: JSONPath,
        _ context: DecodeContext
    ) {
        guard let probe = context.services.service((any AudioProbing).self),
            (try? probe.audioDuration(at: url)) != nil
        else { return }
        context.addClipSound(
            AudioTrack(
                path: url, offset: timing.offset, trimStart: timing.trimStart, trimEnd: timing.trimEnd,
                volume: .constant(volume), loop: timing.loop, speed: timing.speed),
            at: node, path: path)
    }

    public init(
        source: any VideoFrameSource, naturalSize: SIMD2<Double>, size: Animated<Point2>?,
        fit: ImageLayer.Fit,
        timing: PlaybackTiming
    ) {
        self.source = source
        self.naturalSize = naturalSize
        self.size = size
        self.fit = fit
        self.timing = timing
    }

    public func contentSize(at time: Double, canvas: Canvas) -> SIMD2<Double> {
        ImageLayer.box(size, natural: naturalSize, at: time)
    }

    public func prepare(at time: Double, canvas: Canvas, transform: Affine2D) -> any PreparedLayer {
        picture(source.frame(at: timing.clipTime(at: time))).prepare(
            at: time, canvas: canvas, transform: transform)
    }

    /// The frame drawn exactly as an image layer draws a picture.
    private func picture(_ frame: RasterImage) -> ImageLayer {
        ImageLayer(image: frame, naturalSize: naturalSize, size: size, fit: fit)
    }
}
