import Foundation
import KilnModel
import KilnRaster
import KilnText

/// A screen recording's pointer: a cursor (an arrow, or a touch dot) gliding along a smoothed
/// path through an event log (`PointerPath`), pressed at clicks with a ring (a ripple for taps)
/// growing from the click's frame, and a badge near the bottom for each key event. Without an
/// event log the cursor is placed by the layer's own `position` (keyframes), and pressed at the
/// times `clicks` lists.
///
/// With an event log the layer's box is the scene (the job's layout, or a composition's box),
/// so the log's pixels are the layout's; without one the box is empty and the cursor's tip (the
/// touch dot's centre) is the layer's position.
public struct PointerLayer: LayerRendering {
    public enum Style: String, Sendable, CaseIterable { case arrow, touch }
    public enum Parts: String, Sendable, CaseIterable { case all, pointer, keys }

    let path: PointerPath?
    let timeline: PointerTimeline
    let style: Style
    let parts: Parts
    let size: Double
    let color: Animated<RGBA>
    let outline: Animated<RGBA>
    let shadow: Animated<RGBA>
    let shadowRadius: Double
    let pressScale: Double
    let ringColor: Animated<RGBA>
    let ringRadius: Double
    let ringWidth: Double
    let badges: KeyBadges?

    enum Key {
        static let events = ParameterKey<URL?>("events")
        static let style = ParameterKey<String>("style")
        static let show = ParameterKey<String>("show")
        static let size = ParameterKey<Animated<Double>>("size")
        static let color = ParameterKey<Animated<RGBA>>("color")
        static let outline = ParameterKey<Animated<RGBA>>("outline")
        static let shadow = ParameterKey<Animated<RGBA>>("shadow")
        static let shadowRadius = ParameterKey<Animated<Double>>("shadowRadius")
        static let moveDuration = ParameterKey<Animated<Double>>("moveDuration")
        static let pressScale = ParameterKey<Animated<Double>>("pressScale")
        static let ringColor = ParameterKey<Animated<RGBA>>("ringColor")
        static let ringRadius = ParameterKey<Animated<Double>>("ringRadius")
        static let ringWidth = ParameterKey<Animated<Double>>("ringWidth")
        static let ringDuration = ParameterKey<Animated<Double>>("ringDuration")
        static let clicks = ParameterKey<JSONNode?>("clicks")
        static let font = ParameterKey<String>("font")
        static let keySize = ParameterKey<Animated<Double>>("keySize")
        static let keyColor = ParameterKey<Animated<RGBA>>("keyColor")
        static let keyBackground = ParameterKey<Animated<RGBA>>("keyBackground")
        static let keyDuration = ParameterKey<Animated<Double>>("keyDuration")
        static let keyBottom = ParameterKey<Animated<Double>>("keyBottom")
    }

    public static let parameters = ParameterTable([
        Parameter(
            Key.events, .assetPath, default: .string(""),
            defaultDescription: "none: the layer's position places it",
            help:
                "pointer event log: JSON ([{\"t\", \"x\", \"y\", \"kind\", \"key\"}] or {\"events\": […]}) or CSV "
                + "(t,x,y,kind[,key]) in the layout's pixels; kinds move, click, tap, drag, key"),
        Parameter(
            Key.style, .choice(Style.allCases.map(\.rawValue)), default: .string("arrow"),
            help: "arrow (a mouse cursor) or touch (a finger's dot)"),
        Parameter(
            Key.show, .choice(Parts.allCases.map(\.rawValue)), default: .string("all"),
            help:
                "all, pointer (cursor and click indicators) or keys (only the key badges: a layer outside a camera)"
        ),
        Parameter(
            Key.size, .constantNumber(4...512), default: .number(32),
            help: "the arrow's height, or the touch dot's diameter, in pixels"),
        Parameter(
            Key.color, .color, default: .color(RGBA(r: 0.04, g: 0.04, b: 0.05, a: 1)),
            help: "the arrow's fill, or the touch dot's"),
        Parameter(
            Key.outline, .color, default: .color(RGBA(r: 1, g: 1, b: 1, a: 1)),
            help: "the border around the arrow or the dot"),
        Parameter(
            Key.shadow, .color, default: .color(RGBA(r: 0, g: 0, b: 0, a: 0.35)),
            help: "the soft shadow under the cursor; transparent for none"),
        Parameter(
            Key.shadowRadius, .constantNumber(0...64), default: .number(4),
            help: "how far the cursor's shadow spreads, pixels"),
        Parameter(
            Key.moveDuration, .constantNumber(0.05...10), default: .number(0.6),
            help: "the longest a move between two events takes: further apart, the cursor waits, then moves"),
        Parameter(
            Key.pressScale, .constantNumber(0.3...1), default: .number(0.82),
            help: "the cursor's scale at the bottom of a press (clicks, taps, drags)"),
        Parameter(
            Key.ringColor, .color, default: .color(RGBA(r: 0.23, g: 0.51, b: 0.96, a: 0.9)),
            help: "the click ring's colour (and, fainter, a tap's ripple)"),
        Parameter(
            Key.ringRadius, .constantNumber(2...1024), default: .number(34),
            help: "the ring's radius when it has grown, pixels; it starts at 30 % of it"),
        Parameter(
            Key.ringWidth, .constantNumber(0.5...64), default: .number(3.5),
            help: "the ring's line width, pixels"),
        Parameter(
            Key.ringDuration, .constantNumber(0.05...10), default: .number(0.55),
            help: "seconds a ring grows and fades, from the click's frame"),
        Parameter(
            Key.clicks, .structured("array of times", schema: clicksSchema), default: .string("none"),
            defaultDescription: "none",
            help: "without events: the seconds at which the cursor clicks, in time order"),
        Parameter(
            Key.font, .string, default: .string("Noto Sans"), help: "the key badges' font family (bold)"),
        Parameter(
            Key.keySize, .constantNumber(4...400), default: .number(40),
            help: "the key badges' text size, pixels"),
        Parameter(
            Key.keyColor, .color, default: .color(RGBA(r: 1, g: 1, b: 1, a: 1)),
            help: "the key badges' text colour"),
        Parameter(
            Key.keyBackground, .color, default: .color(RGBA(r: 0.08, g: 0.08, b: 0.1, a: 0.82)),
            help: "the key badges' pill colour"),
        Parameter(
            Key.keyDuration, .constantNumber(0.1...30), default: .number(1.2),
            help: "seconds a key badge stays (a later key replaces it)"),
        Parameter(
            Key.keyBottom, .constantNumber(0...8192), default: .number(96),
            help: "pixels from the bottom of the box to the bottom of the key badge"),
    ])

    static let clicksSchema = JSONSchema.type("array").with("items", JSONSchema.type("number"))

    public static let kind = LayerKind(
        name: "pointer",
        summary:
            "a cursor or touch dot along a smoothed path from an event log, with click rings and key badges",
        parameters: parameters
    ) { p, path, context in
        let ringDuration = p[Key.ringDuration].value(at: 0)
        var pointerPath: PointerPath?
        var timeline = PointerTimeline(clicks: [], ringDuration: ringDuration)
        var badges: KeyBadges?
        if p.isPresent(Key.events) {
            if p.isPresent(Key.clicks) {
                context.error(
                    "`clicks` is only for a pointer without `events`; the log's click events press it",
                    at: p.node(Key.clicks), path: p.path(Key.clicks))
                return nil
            }
            guard let url = p[Key.events] else { return nil }
            let log: PointerEventLog
            do {
                log = try PointerEventParser.load(file: url.path, limits: context.limits)
            } catch {
                context.error("\(error)", at: p.node(Key.events), path: p.path(Key.events))
                return nil
            }
            // A knot and a press are a few doubles each; the log itself is dropped after load.
            guard
                context.memory.charge(
                    .path, Double(log.events.count) * 96, "pointer path of \(log.events.count) events",
                    at: p.path(Key.events))
            else { return nil }
            pointerPath = PointerPath(events: log.events, moveDuration: p[Key.moveDuration].value(at: 0))
            timeline = PointerTimeline(
                log: log, ringDuration: ringDuration, keyDuration: p[Key.keyDuration].value(at: 0))
            if !timeline.keys.isEmpty, p[Key.show] != Parts.pointer.rawValue {
                guard let made = KeyBadges.make(p, keys: timeline.keys, context: context, at: path) else {
                    return nil
                }
                badges = made
            }
        } else if let node = p.node(Key.clicks) {
            guard let clicks = decodeClicks(node, path: p.path(Key.clicks), context: context) else {
                return nil
            }
            timeline = PointerTimeline(clicks: clicks, ringDuration: ringDuration)
        }
        return PointerLayer(
            path: pointerPath, timeline: timeline, style: Style(rawValue: p[Key.style]) ?? .arrow,
            parts: Parts(rawValue: p[Key.show]) ?? .all, size: p[Key.size].value(at: 0),
            color: p[Key.color], outline: p[Key.outline], shadow: p[Key.shadow],
            shadowRadius: p[Key.shadowRadius].value(at: 0),
            pressScale: p[Key.pressScale].value(at: 0), ringColor: p[Key.ringColor],
            ringRadius: p[Key.ringRadius].value(at: 0), ringWidth: p[Key.ringWidth].value(at: 0),
            badges: badges)
    }

    static func decodeClicks(_ node: JSONNode, path: JSONPath, context: DecodeContext) -> [Double]? {
        guard let elements = node.elements else {
            context.error("expected an array of click times in seconds", at: node, path: path)
            return nil
        }
        if let problem = context.limits.violation(.eventLogEvents, elements.count, "the number of clicks") {
            context.error(problem, at: node, path: path)
            return nil
        }
        var times: [Double] = []
        for (index, element) in elements.enumerated() {
            guard let time = element.number, time.isFinite, PointerEventParser.timeRange.contains(time) else {
                context.error(
                    "expected a number of seconds in \(NumberText.format(PointerEventParser.timeRange))",
                    at: element, path: path.index(index))
                return nil
            }
            if let last = times.last, time <= last {
                context.error(
                    "click time \(NumberText.format(time)) is not after the previous one, \(NumberText.format(last)); "
                        + "expected increasing times", at: element, path: path.index(index))
                return nil
            }
            times.append(time)
        }
        return times
    }

    public func contentSize(at time: Double, canvas: Canvas) -> SIMD2<Double> {
        path == nil ? .zero : canvas.sceneSize
    }

    /// The arrow, its tip at the origin, 18.5 units tall: a classic pointer with its tail.
    static let arrow: VectorPath = {
        var p = VectorPath()
        let points: [SIMD2<Double>] = [
            SIMD2(0, 0), SIMD2(0, 16), SIMD2(4.2, 12.2), SIMD2(7, 18.5), SIMD2(9.6, 17.4), SIMD2(6.9, 11.3),
            SIMD2(12.4, 11.3),
        ]
        p.move(to: points[0])
        for point in points.dropFirst() { p.line(to: point) }
        p.close()
        return p
    }()
    static let arrowHeight = 18.5

    public func prepare(at time: Double, canvas: Canvas, transform: Affine2D) -> any PreparedLayer {
        var items: [PreparedItem] = []
        if parts != .keys {
            let tip = path?.position(at: time) ?? .zero
            for (event, age) in timeline.indicators(at: time) {
                items += indicator(
                    at: path == nil ? tip : event.position ?? tip, kind: event.kind, age: age, time: time,
                    canvas: canvas, transform: transform)
            }
            let scale = 1 - (1 - pressScale) * timeline.press(at: time)
            let place = transform.concatenating(.translation(tip.x, tip.y)).concatenating(
                .scale(scale, scale))
            items +=
                style == .arrow
                ? arrowItems(place: place, time: time, canvas: canvas)
                : dotItems(place: place, time: time, canvas: canvas)
        }
        if parts != .pointer, let badges, let (event, age) = timeline.badge(at: time) {
            items += badges.items(
                for: event, age: age, duration: timeline.keyDuration, box: canvas.sceneSize, time: time,
                canvas: canvas, transform: transform)
        }
        return PreparedGroup(children: LayerStack(items: items), clip: nil)
    }

    /// A soft shadow without an offscreen: the silhouette widened in four steps, each faint, so
    /// the layers pile up to the shadow's colour inside and thin out over `shadowRadius`.
    /// `unit`: layout pixels per unit of `outline`; the shadow falls `size / 20` pixels down.
    func shadowItems(
        _ outline: VectorPath, place: Affine2D, unit: Double, baseWidth: Double, time: Double, canvas: Canvas
    ) -> [PreparedItem] {
        let c = shadow.value(at: time)
        guard c.a > 0 else { return [] }
        let steps = 4
        var faint = c
        faint.a = c.a / Double(steps)
        let colour = faint.premultiplied.simd
        let drop = place.concatenating(.translation(0, size * 0.05 / unit))
        var items: [PreparedItem] = []
        for step in 1...steps {
            let width = baseWidth + 2 * shadowRadius / unit * Double(step) / Double(steps)
            let painter = PathPainter(
                path: outline, fillRule: .nonZero,
                stroke: StrokeStyle(width: width, cap: .round, join: .round),
                frameFromLocal: drop, paint: .solid(colour), frameWidth: canvas.width,
                frameHeight: canvas.height)
            items.append(
                PreparedItem(layer: PreparedPathShape(fill: nil, stroke: painter), opacity: 1, colors: nil))
        }
        return items
    }

    func arrowItems(place: Affine2D, time: Double, canvas: Canvas) -> [PreparedItem] {
        // In the arrow's units: `size` pixels are `arrowHeight` units.
        let unit = size / Self.arrowHeight
        let local = place.concatenating(.scale(unit, unit))
        let border = 2.2
        var items = shadowItems(
            Self.arrow, place: local, unit: unit, baseWidth: border, time: time, canvas: canvas)
        let outlinePainter = PathPainter(
            path: Self.arrow, fillRule: .nonZero, stroke: StrokeStyle(width: border, join: .round),
            frameFromLocal: local, paint: .solid(outline.value(at: time).premultiplied.simd),
            frameWidth: canvas.width, frameHeight: canvas.height)
        let fillPainter = PathPainter(
            path: Self.arrow, fillRule: .nonZero, stroke: nil, frameFromLocal: local,
            paint: .solid(color.value(at: time).premultiplied.simd), frameWidth: canvas.width,
            frameHeight: canvas.height)
        items.append(
            PreparedItem(layer: PreparedPathShape(fill: fillPainter, stroke: nil), opacity: 1, colors: nil))
        // The border is stroked over the fill, centred on the edge: its inner half narrows the
        // fill as a drawn cursor's border does.
        items.append(
            PreparedItem(layer: PreparedPathShape(fill: nil, stroke: outlinePainter), opacity: 1, colors: nil)
        )
        return items
    }

    func dotItems(place: Affine2D, time: Double, canvas: Canvas) -> [PreparedItem] {
        let r = size / 2
        var circle = VectorPath()
        circle.move(to: SIMD2(r, 0))
        // Four quarter arcs as cubics (the standard 0.5523 handle).
        let k = 0.5523 * r
        circle.curve(to: SIMD2(0, r), control1: SIMD2(r, k), control2: SIMD2(k, r))
        circle.curve(to: SIMD2(-r, 0), control1: SIMD2(-k, r), control2: SIMD2(-r, k))
        circle.curve(to: SIMD2(0, -r), control1: SIMD2(-r, -k), control2: SIMD2(-k, -r))
        circle.curve(to: SIMD2(r, 0), control1: SIMD2(k, -r), control2: SIMD2(r, -k))
        circle.close()
        var items = shadowItems(circle, place: place, unit: 1, baseWidth: 0.5, time: time, canvas: canvas)
        let painter = RoundedRectPainter(
            size: SIMD2(size, size), cornerRadius: r,
            frameFromLocal: place.concatenating(.translation(-r, -r)),
            fill: color.value(at: time).premultiplied.simd,
            stroke: outline.value(at: time).premultiplied.simd,
            strokeWidth: max(size * 0.06, 1), frameWidth: canvas.width, frameHeight: canvas.height)
        items.append(PreparedItem(layer: PreparedShape(painter: painter), opacity: 1, colors: nil))
        return items
    }

    /// The ring growing from the press's point (with a filled ripple under it for a tap): from
    /// 30 % of `ringRadius`, easing out to all of it as it fades.
    func indicator(
        at point: SIMD2<Double>, kind: PointerEvent.Kind, age: Double, time: Double, canvas: Canvas,
        transform: Affine2D
    ) -> [PreparedItem] {
        let progress = min(max(age / timeline.ringDuration, 0), 1)
        let grown = 1 - pow(1 - progress, 3)
        let radius = ringRadius * (0.3 + 0.7 * grown)
        let fade = pow(1 - progress, 1.5)
        let c = ringColor.value(at: time)
        var items: [PreparedItem] = []
        let place = transform.concatenating(.translation(point.x - radius, point.y - radius))
        if kind == .tap {
            var ripple = c
            ripple.a = c.a * 0.35 * fade
            let painter = RoundedRectPainter(
                size: SIMD2(2 * radius, 2 * radius), cornerRadius: radius, frameFromLocal: place,
                fill: ripple.premultiplied.simd, stroke: SIMD4(), strokeWidth: 0, frameWidth: canvas.width,
                frameHeight: canvas.height)
            items.append(PreparedItem(layer: PreparedShape(painter: painter), opacity: 1, colors: nil))
        }
        var ring = c
        ring.a = c.a * fade
        let painter = RoundedRectPainter(
            size: SIMD2(2 * radius, 2 * radius), cornerRadius: radius, frameFromLocal: place, fill: SIMD4(),
            stroke: ring.premultiplied.simd, strokeWidth: ringWidth, frameWidth: canvas.width,
            frameHeight: canvas.height)
        items.append(PreparedItem(layer: PreparedShape(painter: painter), opacity: 1, colors: nil))
        return items
    }
}

/// The key badges: a picture of each distinct key text, drawn once at load, shown on a pill
/// centred near the bottom of the box.
struct KeyBadges: Sendable {
    let pictures: [String: TextImage]
    let fontSize: Double
    let color: Animated<RGBA>
    let background: Animated<RGBA>
    let bottom: Double

    static let fadeIn = 0.12
    static let fadeOut = 0.3

    static func make(_ p: DecodedParameters, keys: [PointerEvent], context: DecodeContext, at path: JSONPath)
        -> KeyBadges?
    {
        let size = p[PointerLayer.Key.keySize].value(at: 0)
        let texts = Array(Set(keys.compactMap(\.key))).sorted()
        var pictures: [String: TextImage] = [:]
        do {
            let library = try FontLibrary.shared()
            for text in texts {
                if let problem = TextLimits.problem(text: text, limits: context.limits) {
                    context.error(
                        "key \"\(text)\": \(problem)", at: p.node(PointerLayer.Key.events),
                        path: p.path(PointerLayer.Key.events))
                    return nil
                }
                let layout = try TextLayout(
                    text: text, font: FontDescriptor(family: p[PointerLayer.Key.font], weight: 700),
                    size: size,
                    library: library)
                let margin = SaturatingConversion.int(size * 0.5, .up)
                guard
                    TextLimits.chargePicture(
                        layout: layout, margin: margin, copies: 1, to: context.memory, kind: .text, at: path)
                else { return nil }
                pictures[text] = TextImage(layout, margin: margin)
            }
        } catch {
            context.error(
                "\(error)", at: p.node(PointerLayer.Key.font) ?? p.node(PointerLayer.Key.events),
                path: p.path(PointerLayer.Key.font))
            return nil
        }
        return KeyBadges(
            pictures: pictures, fontSize: size, color: p[PointerLayer.Key.keyColor],
            background: p[PointerLayer.Key.keyBackground],
            bottom: p[PointerLayer.Key.keyBottom].value(at: 0))
    }

    func items(
        for event: PointerEvent, age: Double, duration: Double, box: SIMD2<Double>, time: Double,
        canvas: Canvas,
        transform: Affine2D
    ) -> [PreparedItem] {
        guard let key = event.key, let picture = pictures[key] else { return [] }
        let appear = PointerTimeline.smoothstep(age / Self.fadeIn)
        let opacity = min(appear, PointerTimeline.smoothstep((duration - age) / Self.fadeOut))
        guard opacity > 0 else { return [] }
        let pad = SIMD2(fontSize * 0.55, fontSize * 0.28)
        let pill = picture.box + 2 * pad
        let origin = SIMD2(box.x / 2 - pill.x / 2, box.y - bottom - pill.y)
        // It grows into place from 90 %, about its centre.
        let scale = 0.9 + 0.1 * appear
        let centre = origin + pill / 2
        let place = transform.concatenating(.translation(centre.x, centre.y)).concatenating(
            .scale(scale, scale)
        )
        .concatenating(.translation(-pill.x / 2, -pill.y / 2))
        let fill = background.value(at: time)
        let painter = RoundedRectPainter(
            size: pill, cornerRadius: pill.y / 2, frameFromLocal: place, fill: fill.premultiplied.simd,
            stroke: SIMD4(), strokeWidth: 0, frameWidth: canvas.width, frameHeight: canvas.height)
        var parts = [PreparedItem(layer: PreparedShape(painter: painter), opacity: 1, colors: nil)]
        parts += TextLayer.items(
            picture, tint: TextLayer.tint(color.value(at: time)), opacity: 1, blur: 0,
            transform: place.concatenating(.translation(pad.x, pad.y)), canvas: canvas)
        return [
            PreparedItem(
                layer: PreparedGroup(children: LayerStack(items: parts), clip: nil), opacity: Float(opacity),
                colors: nil)
        ]
    }
}
