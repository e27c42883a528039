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
    /// The picture shown at `time` (`VideoTiming.ClipTime`). The same time always gives the
    /// same texels, however the requests before it went. When the clip stops decoding (its
    /// file changed or became unreadable), the last picture is returned and `failure` says why.
    func frame(at time: VideoTiming.ClipTime) -> RasterImage
    /// Why a frame could not be decoded, once one could not; the renderer then refuses the frame.
    var failure: String? { get }
}

/// Where on the clip a timeline time falls: `trim` cuts the clip, `offset` places its start on
/// the timeline, `speed` plays it faster or slower and `loop` repeats the trimmed part. Before
/// `offset` the trimmed clip's first frame is shown and after its end (without `loop`) its last
/// one: a layer's `appear` and `disappear` decide when it is seen.
public struct VideoTiming: Sendable, Equatable {
    public let trimStart: Double
    public let trimEnd: Double
    public let offset: Double
    public let speed: Double
    public let loop: Bool

    /// Seconds of the clip; `excluding` asks for the last frame strictly before them (the trimmed
    /// clip's last frame, whose successor is cut away).
    public struct ClipTime: Sendable, Equatable {
        public let seconds: Double
        public let excluding: Bool

        public init(seconds: Double, excluding: Bool) {
            self.seconds = seconds
            self.excluding = excluding
        }
    }

    public init(trimStart: Double, trimEnd: Double, offset: Double, speed: Double, loop: Bool) {
        self.trimStart = trimStart
        self.trimEnd = trimEnd
        self.offset = offset
        self.speed = speed
        self.loop = loop
    }

    /// clip time = trim.start + (t − offset) · speed, wrapped into the trimmed length when looping.
    public func clipTime(at time: Double) -> ClipTime {
        let length = trimEnd - trimStart
        let played = max(0, (time - offset) * speed)
        // Frame times computed in floating point land a rounding error short of where they fall
        // exactly ((71/30 − 0.5) · 1.5 is 2.8 less an ulp): within a nanosecond counts as there.
        let slack = 1e-9 * max(1, played)
        if loop {
            let into = played.truncatingRemainder(dividingBy: length)
            return ClipTime(seconds: trimStart + (length - into <= slack ? 0 : into), excluding: false)
        }
        if played >= length - slack { return ClipTime(seconds: trimEnd, excluding: true) }
        return ClipTime(seconds: trimStart + played, excluding: false)
    }
}

/// A video clip fitted into a box like an image layer, its frame chosen by time: the frame a
/// player shows at the clip time `VideoTiming` gives. Frames are decoded as the timeline moves
/// forward, converted once to premultiplied texels and drawn exactly as an image layer draws
/// its picture, so every transform, effect and transition applies.
public struct VideoLayer: LayerRendering {
    public let source: any VideoFrameSource
    /// The clip's upright size in pixels.
    public let naturalSize: SIMD2<Double>
    public let size: Animated<Point2>?
    public let fit: ImageLayer.Fit
    public let timing: VideoTiming

    enum TrimKey {
        static let start = ParameterKey<Animated<Double>>("start")
        static let end = ParameterKey<Animated<Double>>("end")
    }

    static let trimTable = ParameterTable([
        Parameter(
            TrimKey.start, .constantNumber(0...86_400), default: .number(0),
            help: "seconds into the clip where the used part begins"),
        Parameter(
            TrimKey.end, .constantNumber(0...86_400), default: .number(0),
            defaultDescription: "the clip's end",
            help: "seconds into the clip where the used part ends; after start, at most the clip's duration"),
    ])

    enum Key {
        static let path = ParameterKey<URL?>("path")
        static let trim = ParameterKey<JSONNode?>("trim")
        static let offset = ParameterKey<Animated<Double>>("offset")
        static let speed = ParameterKey<Animated<Double>>("speed")
        static let loop = ParameterKey<Bool>("loop")
        static let size = ParameterKey<Animated<Point2>>("size")
        static let fit = ParameterKey<String>("fit")
        static let muted = ParameterKey<Bool>("muted")
        static let volume = ParameterKey<Animated<Double>>("volume")
    }

    public static let parameters = ParameterTable([
        Parameter(
            Key.path, .assetPath,
            help:
                "video file (MP4, MOV, WebM, Matroska…; any codec FFmpeg decodes), relative to the job "
                + "file's directory (or absolute); its sound joins the soundtrack unless muted"),
        Parameter(
            Key.trim,
            .structured(
                "object {\"start\": s, \"end\": e}", schema: ValueSchema.object(trimTable)),
            default: .string("none"), defaultDescription: "the whole clip",
            help: "the part of the clip used, in seconds of the clip"),
        Parameter(
            Key.offset, .constantNumber(0...86_400), default: .number(0),
            help: "timeline seconds at which the trimmed clip starts playing"),
        Parameter(
            Key.speed, .constantNumber(0.25...4), default: .number(1),
            help: "playback rate: 0.5 is half speed, 2 double"),
        Parameter(
            Key.loop, .boolean, default: .boolean(false),
            help: "repeat the trimmed clip; otherwise its last frame stays after it ends"),
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
            let timing = decodeTiming(params, duration: facts.duration, file: url.lastPathComponent, context)
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
        of url: URL, timing: VideoTiming, volume: Double, at node: JSONNode?, _ path: JSONPath,
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

    private static func decodeTiming(
        _ params: DecodedParameters, duration: Double?, file: String, _ context: DecodeContext
    ) -> VideoTiming? {
        var start = 0.0
        var end = duration
        if let node = params.node(Key.trim) {
            let trimPath = params.path(Key.trim)
            let errors = context.diagnostics.count
            let trim = trimTable.decode(node, path: trimPath, context: context)
            guard context.diagnostics.count == errors else { return nil }
            start = trim[TrimKey.start].value(at: 0)
            if trim.isPresent(TrimKey.end) {
                let written = trim[TrimKey.end].value(at: 0)
                if let duration, written > duration {
                    context.error(
                        "trim end \(ResourceLimits.text(written)) s is past the end of \(file) "
                            + "(\(ResourceLimits.text(duration)) s)",
                        at: trim.node(TrimKey.end), path: trim.path(TrimKey.end))
                    return nil
                }
                end = written
            }
            guard let end, start < end else {
                let what = end.map { "its end (\(ResourceLimits.text($0)) s)" } ?? "its end"
                context.error(
                    "trim start \(ResourceLimits.text(start)) s must be before \(what)",
                    at: trim.node(TrimKey.start),
                    path: trim.path(TrimKey.start))
                return nil
            }
        }
        guard let end else {
            context.error(
                "the duration of \(file) is not known: give \"trim\": {\"end\": seconds}",
                at: params.node(Key.path), path: params.path(Key.path))
            return nil
        }
        return VideoTiming(
            trimStart: start, trimEnd: end, offset: params[Key.offset].value(at: 0),
            speed: params[Key.speed].value(at: 0), loop: params[Key.loop])
    }

    public init(
        source: any VideoFrameSource, naturalSize: SIMD2<Double>, size: Animated<Point2>?,
        fit: ImageLayer.Fit,
        timing: VideoTiming
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
