import Foundation
import KilnModel
import KilnRaster

/// An audiogram: rounded bars that move with the soundtrack, as podcast clips show them.
///
/// - `spectrum`: one bar per frequency band (log-spaced between `frequencies`), each as tall as
///   its band's level at the frame's time;
/// - `wave`: the level's recent history, newest on the right, as mirrored bars (the scrolling
///   waveform of audiogram tools).
///
/// The soundtrack is analysed while the job loads (100 levels a second, smoothed from the
/// timeline's start), so a frame's bars depend only on its time. Levels are read against the
/// loudest bar of the whole track (`normalize`): a band holds a small share of a voice's energy,
/// so against full scale the bars of a normal recording would barely rise.
public struct AudiogramLayer: LayerRendering {
    public enum Style: String, Sendable, CaseIterable {
        case spectrum, wave
    }

    public enum Alignment: String, Sendable, CaseIterable {
        case center, bottom
    }

    public let style: Style
    public let alignment: Alignment
    public let size: Animated<Point2>
    public let color: Animated<RGBA>
    public let gradient: [Animated<RGBA>]
    public let gap: Double
    public let minimumHeight: Double
    public let history: Double
    /// Per bar (spectrum) or one (wave): 0…1 levels, `AudioReading.rate` a second.
    let levels: [SampledCurve<Double>]

    enum Key {
        static let style = ParameterKey<String>("style")
        static let size = ParameterKey<Animated<Point2>>("size")
        static let track = ParameterKey<String>("track")
        static let bars = ParameterKey<Int>("bars")
        static let gap = ParameterKey<Animated<Double>>("gap")
        static let minHeight = ParameterKey<Animated<Double>>("minHeight")
        static let align = ParameterKey<String>("align")
        static let color = ParameterKey<Animated<RGBA>>("color")
        static let gradient = ParameterKey<[Animated<RGBA>]>("gradient")
        static let frequencies = ParameterKey<JSONNode?>("frequencies")
        static let tilt = ParameterKey<Animated<Double>>("tilt")
        static let normalize = ParameterKey<Bool>("normalize")
        static let floor = ParameterKey<Animated<Double>>("floor")
        static let smoothing = ParameterKey<Animated<Double>>("smoothing")
        static let history = ParameterKey<Animated<Double>>("history")
    }

    public static let parameters = ParameterTable([
        Parameter(
            Key.style, .choice(Style.allCases.map(\.rawValue)), default: .string("spectrum"),
            help: "spectrum: a bar per frequency band; wave: the level's recent history, mirrored"),
        Parameter(Key.size, .point(1...16_384), help: "[width, height] of the bars' box in pixels"),
        Parameter(
            Key.track, .string, default: .string(""), defaultDescription: "the whole mix",
            help: "the name of the audio track to draw"),
        Parameter(Key.bars, .integer(2...256), default: .integer(32), help: "how many bars"),
        Parameter(
            Key.gap, .constantNumber(0...0.9), default: .number(0.35),
            help: "the space between bars, as a fraction of a bar's pitch"),
        Parameter(
            Key.minHeight, .constantNumber(0...1_000), default: .number(4),
            help: "pixels a bar keeps in silence (a row of dots)"),
        Parameter(
            Key.align, .choice(Alignment.allCases.map(\.rawValue)), default: .string("center"),
            help: "center: bars grow both ways from the middle; bottom: they rise from the bottom edge"),
        Parameter(Key.color, .color, default: .color(RGBA(r: 1, g: 1, b: 1, a: 1)), help: "bar colour"),
        Parameter(
            Key.gradient, .colorList,
            help: "colours from the box's top to its bottom instead of color (each animatable)"),
        Parameter(
            Key.frequencies, .structured("[low, high] Hz", schema: ValueSchema.point(20...20_000)),
            default: .string("[60, 8000]"), help: "spectrum: the range the bands divide, log-spaced"),
        Parameter(
            Key.tilt, .constantNumber(0...12), default: .number(3),
            help:
                "spectrum: dB per octave added above 1 kHz and taken below, so speech's falling spectrum looks even"
        ),
        Parameter(
            Key.normalize, .boolean, default: .boolean(true),
            help:
                "levels are read against the loudest bar of the whole track, so its loudest moment fills the box"
        ),
        Parameter(
            Key.floor, .constantNumber(-120 ... -6), default: .number(-45),
            help:
                "dB drawn as an empty bar: below the loudest bar with normalize, else dBFS (0 dBFS fills the box)"
        ),
        Parameter(
            Key.smoothing, .constantNumber(0...5), default: .number(0.08),
            help: "seconds over which levels are smoothed"),
        Parameter(
            Key.history, .constantNumber(0.1...60), default: .number(3),
            help: "wave: seconds of history across the box"),
    ])

    public static let kind = LayerKind(
        name: "audiogram", summary: "bars that move with the soundtrack: its spectrum or its level's history",
        parameters: parameters
    ) { params, path, context in
        guard let soundtrack = context.requireSoundtrack(at: params.node(Key.track), path: path),
            let track = context.audioTrack(
                named: params[Key.track], at: params.node(Key.track), path: params.path(Key.track))
        else { return nil }
        let style = Style(rawValue: params[Key.style]) ?? .spectrum
        let count = params[Key.bars]
        var frequencies = (low: 60.0, high: 8_000.0)
        if let node = params.node(Key.frequencies) {
            guard
                let point = ValueDecoding.constantPoint(
                    node, path: params.path(Key.frequencies), range: 20...20_000, context: context)
            else { return nil }
            guard point.x < point.y else {
                context.error(
                    "frequencies[0] must be below frequencies[1] (Hz)", at: node,
                    path: params.path(Key.frequencies))
                return nil
            }
            frequencies = (point.x, point.y)
        }
        let bands: [ClosedRange<Double>?] =
            style == .wave
            ? [nil]
            : (0..<count).map { i in
                let ratio = frequencies.high / frequencies.low
                return frequencies.low * pow(ratio, Double(i) / Double(count))...frequencies.low
                    * pow(ratio, Double(i + 1) / Double(count))
            }
        guard
            let analysed = context.audioLevels(
                track: track.index, bands: bands, soundtrack: soundtrack, at: params.node(Key.track),
                path: path
            )
        else { return nil }
        let tilt = params[Key.tilt].value(at: 0)
        // Tilted about 1 kHz by the band's centre.
        let lifts = bands.map { band in
            Float(band.map { tilt * log2(($0.lowerBound * $0.upperBound).squareRoot() / 1_000) } ?? 0)
        }
        let loudest = zip(analysed, lifts).map { ($0.max() ?? -200) + $1 }.max() ?? 0
        let reference = params[Key.normalize] && loudest > -150 ? loudest : 0
        let levels = zip(zip(bands, analysed), lifts).map { pair, lift in
            let (band, raw) = pair
            let reading = AudioReading(
                track: track.index, band: band, floor: params[Key.floor].value(at: 0),
                smoothing: params[Key.smoothing].value(at: 0))
            let values = reading.normalised(raw.map { $0 + lift - reference })
            return SampledCurve(start: 0, step: 1 / AudioReading.rate, values: values.isEmpty ? [0] : values)
        }
        return AudiogramLayer(
            style: style, alignment: Alignment(rawValue: params[Key.align]) ?? .center,
            size: params[Key.size], color: params[Key.color], gradient: params[Key.gradient],
            gap: params[Key.gap].value(at: 0), minimumHeight: params[Key.minHeight].value(at: 0),
            history: params[Key.history].value(at: 0), bars: count, levels: levels)
    }

    init(
        style: Style, alignment: Alignment, size: Animated<Point2>, color: Animated<RGBA>,
        gradient: [Animated<RGBA>], gap: Double, minimumHeight: Double, history: Double, bars: Int,
        levels: [SampledCurve<Double>]
    ) {
        (self.style, self.alignment, self.size, self.color, self.gradient) = (
            style, alignment, size, color, gradient
        )
        (self.gap, self.minimumHeight, self.history, self.barCount, self.levels) = (
            gap, minimumHeight, history, bars, levels
        )
    }

    public let barCount: Int

    public func contentSize(at time: Double, canvas: Canvas) -> SIMD2<Double> {
        let s = size.value(at: time)
        return SIMD2(max(s.x, 0), max(s.y, 0))
    }

    /// Each bar's height as a fraction of the box at `time`.
    public func heights(at time: Double) -> [Double] {
        switch style {
        case .spectrum:
            return levels.map { $0.value(at: time) }
        case .wave:
            // Bar i shows the level `history` · (1 − (i + 1) / count) seconds ago.
            let curve = levels[0]
            return (0..<barCount).map { i in
                curve.value(at: time - history * (1 - Double(i + 1) / Double(barCount)))
            }
        }
    }

    public func prepare(at time: Double, canvas: Canvas, transform: Affine2D) -> any PreparedLayer {
        let box = contentSize(at: time, canvas: canvas)
        let pitch = box.x / Double(barCount)
        let width = pitch * (1 - gap)
        var path = VectorPath()
        for (i, fraction) in heights(at: time).enumerated() {
            let height = min(box.y, max(minimumHeight, fraction * box.y))
            let top =
                switch alignment {
                case .center: (box.y - height) / 2
                case .bottom: box.y - height
                }
            let radius = min(width, height) / 2
            path.append(
                .rect(
                    origin: SIMD2(Double(i) * pitch + (pitch - width) / 2, top), size: SIMD2(width, height),
                    cornerRadii: SIMD2(radius, radius)))
        }
        var paint = PathPaint.solid(color.value(at: time).premultiplied.simd)
        if !gradient.isEmpty {
            paint = .gradient(
                LinearGradient(
                    start: SIMD2(0, 0), end: SIMD2(0, Float(box.y)),
                    stops: gradient.map { $0.value(at: time).premultiplied.simd }))
        }
        let painter = PathPainter(
            path: path, fillRule: .nonZero, stroke: nil, frameFromLocal: transform, paint: paint,
            frameWidth: canvas.width, frameHeight: canvas.height)
        return PreparedPathShape(fill: painter, stroke: nil)
    }
}
