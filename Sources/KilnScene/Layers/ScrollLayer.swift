import KilnModel
import KilnRaster

/// SwiftUI's ScrollView with an HStack or VStack of items: the items lie one after another along
/// the axis, `spacing` apart, `padding` in from the ends (content margins), and the content is
/// scrolled by an animatable offset, a page index, or an automatic advance every few seconds.
///
/// Every item gets a scroll phase (SwiftUI's `ScrollTransitionPhase.value`): 0 while it is fully
/// inside the viewport, falling to −1 as it leaves past the leading edge and rising to +1 past the
/// trailing edge, in proportion to how much of it is outside. Layers in the item read it through
/// `scrollTransition`.
public struct ScrollLayer: LayerContent {
    public enum Paging: String, Sendable, CaseIterable {
        /// Page k brings item k to the leading content margin (SwiftUI's `.viewAligned`).
        case items
        /// Page k scrolls by k viewport lengths (SwiftUI's `.paging`).
        case viewport
    }

    public enum AdvanceEase: String, Sendable, CaseIterable {
        case linear, easeIn, easeOut, easeInOut, spring
    }

    public let size: Animated<Point2>?
    public let axis: StackLayer.Axis
    public let alignment: StackLayer.Alignment
    public let spacing: Animated<Double>
    public let padding: Animated<Double>
    public let offset: Animated<Double>
    public let page: Animated<Double>?
    public let paging: Paging
    /// Seconds between automatic page advances; 0 means none.
    public let advanceEvery: Double
    public let advance: TransitionAnimation
    /// When the advances count from: the layer's `appear` (or its enclosing layer's), so a
    /// carousel that enters late does not whip through the pages it would have turned unseen.
    public let advanceStart: Double
    /// Seconds into an advance after which it has come to rest: the page is then exactly the
    /// next one. A spring otherwise creeps towards it by fractions of a pixel until the next
    /// advance, and every item would change (and be painted again) on every frame; SwiftUI, too,
    /// ends a spring animation once it has settled.
    let advanceSettles: Double
    public let loops: Bool
    public let clips: Bool

    enum Key {
        static let size = ParameterKey<Animated<Point2>>("size")
        static let axis = ParameterKey<String>("axis")
        static let alignment = ParameterKey<String>("alignment")
        static let spacing = ParameterKey<Animated<Double>>("spacing")
        static let padding = ParameterKey<Animated<Double>>("padding")
        static let offset = ParameterKey<Animated<Double>>("offset")
        static let page = ParameterKey<Animated<Double>>("page")
        static let paging = ParameterKey<String>("paging")
        static let advanceEvery = ParameterKey<Animated<Double>>("advanceEvery")
        static let advanceDuration = ParameterKey<Animated<Double>>("advanceDuration")
        static let advanceEase = ParameterKey<String>("advanceEase")
        static let loop = ParameterKey<Bool>("loop")
        static let clip = ParameterKey<Bool>("clip")
    }

    public static let parameters = ParameterTable([
        Parameter(
            Key.size, .point(0...16_384), default: .point(Point2(x: 0, y: 0)),
            defaultDescription: "the frame's size",
            help: "[width, height] of the viewport in pixels"),
        Parameter(
            Key.axis, .choice(StackLayer.Axis.allCases.map(\.rawValue)), default: .string("horizontal"),
            help: "scroll direction: horizontal (left to right) or vertical (top to bottom)"),
        Parameter(
            Key.alignment, .choice(StackLayer.Alignment.allCases.map(\.rawValue)), default: .string("center"),
            help: "cross-axis alignment of items: leading (top / left), center, trailing (bottom / right)"),
        Parameter(
            Key.spacing, .number(0...4_096), default: .number(16), help: "pixels between items"),
        Parameter(
            Key.padding, .number(0...8_192), default: .number(0),
            help: "content margin before the first and after the last item, in pixels"),
        Parameter(
            Key.offset, .number(-1_000_000...1_000_000), default: .number(0),
            help: "scroll offset in pixels along the axis"),
        Parameter(
            Key.page, .number(0...100_000), default: .number(0), defaultDescription: "unset (use offset)",
            help:
                "scroll position in pages, fractions in between; give at most one of offset, page and advanceEvery"
        ),
        Parameter(
            Key.paging, .choice(Paging.allCases.map(\.rawValue)), default: .string("items"),
            help: "what a page is: items (item k at the leading margin) or viewport (k viewport lengths)"),
        Parameter(
            Key.advanceEvery, .constantNumber(0...3_600), default: .number(0),
            help: "advance one page every this many seconds (0 = off), counted from the layer's appear"),
        Parameter(
            Key.advanceDuration, .constantNumber(0...60), default: .number(0.6),
            help: "seconds each automatic advance takes, at most advanceEvery"),
        Parameter(
            Key.advanceEase, .choice(AdvanceEase.allCases.map(\.rawValue)), default: .string("spring"),
            help:
                "curve of each advance; spring is SwiftUI's spring(duration: advanceDuration, bounce: 0.15), "
                + "at rest once within 0.1 % of the page"
        ),
        Parameter(
            Key.loop, .boolean, default: .boolean(false),
            help: "after the last page, advance back to the first (else stay on the last)"),
        Parameter(Key.clip, .boolean, default: .boolean(true), help: "clip items to the viewport"),
    ])

    public static let kind = LayerKind(
        name: "scroll",
        summary: "a scroll view of items with paging and scroll phases that drive scrollTransition",
        parameters: parameters, containsLayers: true, providesScrollPhase: true,
        schemaRules: [
            JSONSchema().with("not", .requiring(["page", "offset"])),
            .when(
                .having("advanceEvery", JSONSchema.type("number").with("exclusiveMinimum", .number(0))),
                then: .forbidding(["page", "offset"])),
        ]
    ) { params, path, context in
        let before = context.diagnostics.count
        if params.isPresent(Key.page) && params.isPresent(Key.offset) {
            context.error(
                "give either 'page' or 'offset', not both", at: params.node(Key.page),
                path: params.path(Key.page)
            )
        }
        if params[Key.advanceEvery].value(at: 0) > 0
            && (params.isPresent(Key.page) || params.isPresent(Key.offset))
        {
            context.error(
                "advanceEvery drives the scroll position itself; remove 'page'/'offset'",
                at: params.node(Key.advanceEvery), path: params.path(Key.advanceEvery))
        }
        let every = params[Key.advanceEvery].value(at: 0)
        if every > 0 && params[Key.advanceDuration].value(at: 0) > every {
            context.error(
                "advanceDuration (\(params[Key.advanceDuration].value(at: 0)) s) must not exceed advanceEvery "
                    + "(\(every) s): each advance starts from the page the previous one reached",
                at: params.node(Key.advanceDuration), path: params.path(Key.advanceDuration))
        }
        guard context.diagnostics.count == before else { return nil }
        let duration = params[Key.advanceDuration].value(at: 0)
        let ease = AdvanceEase(rawValue: params[Key.advanceEase]) ?? .spring
        let advance: TransitionAnimation =
            switch ease {
            case .linear: .eased(duration: duration, easing: .linear)
            case .easeIn: .eased(duration: duration, easing: .easeIn)
            case .easeOut: .eased(duration: duration, easing: .easeOut)
            case .easeInOut: .eased(duration: duration, easing: .easeInOut)
            case .spring: .spring(Spring(duration: max(duration, 0.01), bounce: 0.15))
            }
        return ScrollLayer(
            size: params.isPresent(Key.size) ? params[Key.size] : nil,
            axis: StackLayer.Axis(rawValue: params[Key.axis]) ?? .horizontal,
            alignment: StackLayer.Alignment(rawValue: params[Key.alignment]) ?? .center,
            spacing: params[Key.spacing], padding: params[Key.padding],
            offset: params[Key.offset],
            page: params.isPresent(Key.page) ? params[Key.page] : nil,
            paging: Paging(rawValue: params[Key.paging]) ?? .items,
            advanceEvery: params[Key.advanceEvery].value(at: 0), advance: advance,
            advanceStart: context.layerStart, loops: params[Key.loop], clips: params[Key.clip])
    }

    public init(
        size: Animated<Point2>?, axis: StackLayer.Axis = .horizontal,
        alignment: StackLayer.Alignment = .center,
        spacing: Animated<Double> = .constant(16), padding: Animated<Double> = .constant(0),
        offset: Animated<Double> = .constant(0), page: Animated<Double>? = nil, paging: Paging = .items,
        advanceEvery: Double = 0, advance: TransitionAnimation = .default, advanceStart: Double = 0,
        loops: Bool = false, clips: Bool = true
    ) {
        self.size = size
        self.axis = axis
        self.alignment = alignment
        self.spacing = spacing
        self.padding = padding
        self.offset = offset
        self.page = page
        self.paging = paging
        self.advanceEvery = advanceEvery
        self.advance = advance
        self.advanceStart = advanceStart
        advanceSettles = advance.settleTime
        self.loops = loops
        self.clips = clips
    }

    public func viewportSize(at time: Double, canvas: Canvas) -> SIMD2<Double> {
        guard let size else { return canvas.sceneSize }
        let s = size.value(at: time)
        return SIMD2(max(s.x, 0), max(s.y, 0))
    }

    /// One item's place in the viewport.
    public struct Slot: Sendable, Equatable {
        /// The item's slot origin in viewport coordinates.
        public var origin: SIMD2<Double>
        public var size: SIMD2<Double>
        /// −1 … 0 … +1.
        public var phase: Double
        /// False when the item is more than half a viewport away from being visible.
        public var isNearViewport: Bool
    }

    /// Where each item (sized `sizes`) sits in a `viewport`-sized view at `time`.
    public func layout(_ sizes: [SIMD2<Double>], viewport: SIMD2<Double>, at time: Double) -> [Slot] {
        let main = axis == .horizontal ? 0 : 1, cross = 1 - main
        let gap = spacing.value(at: time), margin = padding.value(at: time)
        var starts: [Double] = []
        var cursor = 0.0
        for size in sizes {
            starts.append(cursor)
            cursor += size[main] + gap
        }
        let contentLength = sizes.isEmpty ? 0 : cursor - gap
        let maxOffset = max(0, contentLength + 2 * margin - viewport[main])
        let scrolled = scrollOffset(
            at: time, starts: starts, viewportLength: viewport[main], maxOffset: maxOffset)
        return zip(sizes, starts).map { size, start in
            var origin = SIMD2<Double>()
            origin[main] = margin + start - scrolled
            origin[cross] = alignment.offset(of: size[cross], in: viewport[cross])
            let low = origin[main], high = low + size[main], length = viewport[main]
            return Slot(
                origin: origin, size: size,
                phase: Self.phase(low: low, high: high, viewportLength: length),
                isNearViewport: high > -length / 2 && low < length * 1.5)
        }
    }

    /// The fraction of the item outside the viewport, negative past the leading edge.
    public static func phase(low: Double, high: Double, viewportLength: Double) -> Double {
        let extent = high - low
        guard extent > 0 else { return low < 0 ? -1 : (high > viewportLength ? 1 : 0) }
        let leading = max(0, -low), trailing = max(0, high - viewportLength)
        return min(max((trailing - leading) / extent, -1), 1)
    }

    func scrollOffset(at time: Double, starts: [Double], viewportLength: Double, maxOffset: Double) -> Double
    {
        let pageCount =
            switch paging {
            // Pages past the one that reaches the end of the content would not move it.
            case .items: (starts.firstIndex { $0 >= maxOffset - 0.5 } ?? max(starts.count - 1, 0)) + 1
            case .viewport:
                viewportLength > 0
                    ? SaturatingConversion.int(
                        maxOffset / viewportLength, .up, in: 0...SaturatingConversion.limit) + 1 : 1
            }
        let position: Double
        if advanceEvery > 0 {
            position = advancedPage(at: time, pageCount: pageCount)
        } else if let page {
            position = page.value(at: time)
        } else {
            return offset.value(at: time)
        }
        let unclamped: Double
        switch paging {
        case .viewport:
            unclamped = position * viewportLength
        case .items:
            guard !starts.isEmpty else { return 0 }
            let clampedPage = min(max(position, 0), Double(starts.count - 1))
            let index = SaturatingConversion.int(clampedPage, in: 0...(starts.count - 1))
            let next = min(index + 1, starts.count - 1)
            unclamped = starts[index] + (starts[next] - starts[index]) * (clampedPage - Double(index))
        }
        return min(max(unclamped, 0), maxOffset)
    }

    /// The page under automatic advance: one step every `advanceEvery` seconds after
    /// `advanceStart`, each following the advance curve from the previous page to the next.
    func advancedPage(at globalTime: Double, pageCount: Int) -> Double {
        let time = globalTime - advanceStart
        let steps = SaturatingConversion.int(time / advanceEvery, .down)
        guard steps > 0 else { return 0 }
        func page(after count: Int) -> Double {
            Double(loops ? count % pageCount : min(count, pageCount - 1))
        }
        let from = page(after: steps - 1), to = page(after: steps)
        let elapsed = time - Double(steps) * advanceEvery
        return from + (to - from) * (elapsed >= advanceSettles ? 1 : advance.progress(at: elapsed))
    }

    func prepare(canvas: Canvas, viewport: SIMD2<Double>, transform: Affine2D, items: LayerStack)
        -> any PreparedLayer
    {
        guard clips else { return PreparedGroup(children: items, clip: nil) }
        guard
            let mask = RoundedRectPainter(
                size: viewport, cornerRadius: 0, frameFromLocal: transform, fill: SIMD4(1, 1, 1, 1),
                stroke: SIMD4(),
                strokeWidth: 0, frameWidth: canvas.width, frameHeight: canvas.height)
        else { return PreparedGroup(children: LayerStack(items: []), clip: nil) }
        return PreparedGroup(children: items, clip: mask)
    }
}
