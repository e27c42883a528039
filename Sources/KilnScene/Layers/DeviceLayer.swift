import KilnModel
import KilnRaster

/// An app recording framed: a parametric vector device (phone, tablet, laptop, browser or
/// desktop window) drawn by Kiln, no artwork, with one `screen` layer fitted into its screen
/// area and clipped to the screen's rounded corners.
///
/// Every length of the frame is a multiple of one unit, a hundredth of the screen's shorter
/// side, so a frame keeps its proportions at any size. The screen layer is placed in the
/// screen's box as a composition's layers are in theirs (solids fill the screen), and is cut
/// by the same coverage clip a group uses, so its rounded corners are anti-aliased exactly as
/// a `roundedRect` group's.
public struct DeviceLayer: NestedLayers {
    public enum Kind: String, Sendable, CaseIterable {
        case phone, tablet, laptop, browser, window
    }

    public enum Style: String, Sendable, CaseIterable {
        case dark, light
    }

    /// What interrupts the top of a phone's screen.
    public enum Cutout: String, Sendable, CaseIterable {
        case none, island, notch
    }

    public let kind: Kind
    public let style: Style
    public let geometry: DeviceGeometry
    public let bodyColor: Animated<RGBA>
    public let bezelColor: Animated<RGBA>
    public let cutout: Cutout
    public let buttons: Bool
    public let dots: Bool
    public let shadow: Bool
    public let reflection: Bool
    public let screen: LayerNode
    /// A browser's tab title or a window's title: a layer placed in that box, cut to it.
    public let title: LayerNode?

    /// The screen first, then the title: what `prepare` hands its child index for.
    public var nestedLayers: [LayerNode] { [screen] + (title.map { [$0] } ?? []) }

    enum Key {
        static let device = ParameterKey<String>("device")
        static let screen = ParameterKey<JSONNode?>("screen")
        static let title = ParameterKey<JSONNode?>("title")
        static let size = ParameterKey<Animated<Point2>>("size")
        static let screenSize = ParameterKey<Animated<Point2>>("screenSize")
        static let bezel = ParameterKey<Animated<Double>>("bezel")
        static let screenCornerRadius = ParameterKey<Animated<Double>>("screenCornerRadius")
        static let style = ParameterKey<String>("style")
        static let bodyColor = ParameterKey<Animated<RGBA>>("bodyColor")
        static let bezelColor = ParameterKey<Animated<RGBA>>("bezelColor")
        static let cutout = ParameterKey<String>("cutout")
        static let buttons = ParameterKey<Bool>("buttons")
        static let dots = ParameterKey<Bool>("dots")
        static let shadow = ParameterKey<Bool>("shadow")
        static let reflection = ParameterKey<Bool>("reflection")
    }

    static let lengthRange: ClosedRange<Double> = 0...4_096

    public static let parameters = ParameterTable([
        Parameter(
            Key.device, .choice(Kind.allCases.map(\.rawValue)), default: .string("phone"),
            help:
                "the frame: phone, tablet, laptop (lid and base), browser (tab and address bar), window (title bar)"
        ),
        Parameter(
            Key.screen, .structured("layer", schema: .reference(.layer)),
            help:
                "the layer shown on the screen (a video recording, an image, a composition, any kind), placed in the screen's box"
        ),
        Parameter(
            Key.title, .structured("layer", schema: .reference(.layer)), default: .string("none"),
            defaultDescription: "none",
            help:
                "browser and window only: a layer (usually text) placed in the active tab's label box or centred in the title bar, cut to it"
        ),
        Parameter(
            Key.size, .point(1...16_384), default: .point(Point2(x: 0, y: 0)),
            defaultDescription: "from screenSize",
            help:
                "[width, height] of the whole frame in pixels (read at 0 s); the screen is what the bezels leave"
        ),
        Parameter(
            Key.screenSize, .point(1...16_384), default: .point(Point2(x: 0, y: 0)),
            defaultDescription: "phone 390×844, tablet 820×1180, laptop and browser 1280×800, window 960×600",
            help: "[width, height] of the screen in pixels (read at 0 s); the frame grows around it"),
        Parameter(
            Key.bezel, .constantNumber(lengthRange), default: .number(0),
            defaultDescription: "in proportion to the screen",
            help: "pixels of bezel around a phone's, tablet's or laptop's screen"),
        Parameter(
            Key.screenCornerRadius, .constantNumber(lengthRange), default: .number(0),
            defaultDescription: "in proportion to the screen",
            help: "corner radius of the screen in pixels (at most half its shorter side)"),
        Parameter(
            Key.style, .choice(Style.allCases.map(\.rawValue)), default: .string("dark"),
            help: "dark or light finish: the body's, the chrome's and the window's colours"),
        Parameter(
            Key.bodyColor, .color, default: .color(RGBA(r: 0, g: 0, b: 0, a: 0)),
            defaultDescription: "from style",
            help:
                "the body: a phone's or tablet's rim, a laptop's lid and base, a browser's or window's chrome"
        ),
        Parameter(
            Key.bezelColor, .color, default: .color(RGBA(r: 0, g: 0, b: 0, a: 0)),
            defaultDescription: "from style",
            help: "the glass around the screen (phone, tablet, laptop) or the toolbar (browser)"),
        Parameter(
            Key.cutout, .choice(Cutout.allCases.map(\.rawValue)), default: .string("island"),
            help: "phone only: a pill (island), a notch or nothing at the top of the screen"),
        Parameter(Key.buttons, .boolean, default: .boolean(true), help: "side buttons of a phone or tablet"),
        Parameter(
            Key.dots, .boolean, default: .boolean(true),
            help: "three neutral dots at the left of a browser's tab strip or a window's title bar"),
        Parameter(
            Key.shadow, .boolean, default: .boolean(true),
            help: "a soft drop shadow under the frame (the shadow effect's, cast by the body)"),
        Parameter(
            Key.reflection, .boolean, default: .boolean(false),
            help: "a subtle diagonal gloss over the screen"),
    ])

    public static let kind = LayerKind(
        name: "device",
        summary: "a phone, tablet, laptop, browser or window frame drawn by Kiln, holding one screen layer",
        parameters: parameters
    ) { params, path, context in
        let device = Kind(rawValue: params[Key.device]) ?? .phone
        if params.isPresent(Key.size) && params.isPresent(Key.screenSize) {
            context.error(
                "give either 'size' (the whole frame) or 'screenSize', not both",
                at: params.node(Key.screenSize),
                path: params.path(Key.screenSize))
            return nil
        }
        func point(_ key: ParameterKey<Animated<Point2>>) -> SIMD2<Double>? {
            guard params.isPresent(key) else { return nil }
            let p = params[key].value(at: 0)
            return SIMD2(p.x, p.y)
        }
        let geometry = DeviceGeometry(
            device, size: point(Key.size), screenSize: point(Key.screenSize),
            bezel: params.isPresent(Key.bezel) ? params[Key.bezel].value(at: 0) : nil,
            screenCornerRadius: params.isPresent(Key.screenCornerRadius)
                ? params[Key.screenCornerRadius].value(at: 0) : nil)
        guard geometry.screenSize.x >= 1, geometry.screenSize.y >= 1 else {
            context.error(
                "the bezels leave no screen in this size; make it larger or the bezel thinner",
                at: params.node(Key.size) ?? params.node(Key.bezel), path: params.path(Key.size))
            return nil
        }
        guard let screenNode = params.node(Key.screen),
            let screen = context.decodeChildLayer(screenNode, path: params.path(Key.screen))
        else { return nil }
        var title: LayerNode?
        if let titleNode = params.node(Key.title) {
            guard device == .browser || device == .window else {
                context.error(
                    "'title' is only drawn by a browser or a window", at: titleNode,
                    path: params.path(Key.title))
                return nil
            }
            guard let decoded = context.decodeChildLayer(titleNode, path: params.path(Key.title)) else {
                return nil
            }
            title = decoded
        }
        let shadow = params[Key.shadow]
        if shadow, let frame = context.frameSize {
            // The two shadows of the set each render into an offscreen image.
            context.memory.chargeWorkingSet(
                .offscreen, 2 * frame.width * frame.height * 16, "device shadow (2 offscreen images)",
                at: params.path(Key.shadow))
        }
        let style = Style(rawValue: params[Key.style]) ?? .dark
        let palette = Palette(device, style)
        return DeviceLayer(
            kind: device, style: style, geometry: geometry,
            bodyColor: params.isPresent(Key.bodyColor) ? params[Key.bodyColor] : .constant(palette.body),
            bezelColor: params.isPresent(Key.bezelColor) ? params[Key.bezelColor] : .constant(palette.bezel),
            cutout: Cutout(rawValue: params[Key.cutout]) ?? .island, buttons: params[Key.buttons],
            dots: params[Key.dots], shadow: shadow, reflection: params[Key.reflection], screen: screen,
            title: title)
    }

    public init(
        kind: Kind, style: Style, geometry: DeviceGeometry, bodyColor: Animated<RGBA>,
        bezelColor: Animated<RGBA>,
        cutout: Cutout,
        buttons: Bool, dots: Bool, shadow: Bool, reflection: Bool, screen: LayerNode, title: LayerNode? = nil
    ) {
        self.kind = kind
        self.style = style
        self.geometry = geometry
        self.bodyColor = bodyColor
        self.bezelColor = bezelColor
        self.cutout = cutout
        self.buttons = buttons
        self.dots = dots
        self.shadow = shadow
        self.reflection = reflection
        self.screen = screen
        self.title = title
    }
}

/// Where a device's parts lie in its layout box (pixels, origin at the top left): what pointer
/// and zoom features map screen coordinates through.
public struct DeviceGeometry: Sendable, Equatable {
    /// The frame's layout box: what the transform's anchor refers to. Side buttons stand a
    /// little outside it.
    public let box: SIMD2<Double>
    /// The screen's top-left corner in the box.
    public let screenOrigin: SIMD2<Double>
    public let screenSize: SIMD2<Double>
    public let screenCornerRadius: Double
    /// Whether the screen's top corners are square: it sits under a toolbar or title bar.
    public let squareTop: Bool
    /// A hundredth of the screen's shorter side: every other length is a multiple of it.
    public let unit: Double
    /// Thickness of the glass around the screen (phone, tablet, laptop).
    public let bezel: Double
    /// How far a laptop's lid ends above its box's bottom (its base's height); 0 otherwise.
    public let baseHeight: Double

    /// A point of the screen (its own pixels, origin at its top left) in the device's box.
    public func boxPoint(fromScreen point: SIMD2<Double>) -> SIMD2<Double> { screenOrigin + point }

    static func defaultScreen(_ kind: DeviceLayer.Kind) -> SIMD2<Double> {
        switch kind {
        case .phone: SIMD2(390, 844)
        case .tablet: SIMD2(820, 1180)
        case .laptop, .browser: SIMD2(1280, 800)
        case .window: SIMD2(960, 600)
        }
    }

    /// Insets of the screen from the box (left, top, right, bottom) for a unit and bezel.
    static func insets(_ kind: DeviceLayer.Kind, unit u: Double, bezel b: Double, screenWidth: Double)
        -> SIMD4<Double>
    {
        switch kind {
        case .phone, .tablet: return SIMD4(b, b, b, b)
        case .laptop:
            let lidWidth = screenWidth + 2 * b
            let overhang = 0.07 * lidWidth
            return SIMD4(overhang + b, 1.2 * b, overhang + b, 1.9 * b + laptopBase * u)
        case .browser: return SIMD4(0, browserTabs * u + browserToolbar * u, 0, 0)
        case .window: return SIMD4(0, windowTitle * u, 0, 0)
        }
    }

    static let laptopBase = 2.4
    static let browserTabs = 4.4
    static let browserToolbar = 5.2
    static let windowTitle = 5.2

    static func defaultBezel(_ kind: DeviceLayer.Kind, unit u: Double) -> Double {
        switch kind {
        case .phone: 4.4 * u
        case .tablet: 3.2 * u
        case .laptop: 1.9 * u
        case .browser, .window: 0
        }
    }

    static func defaultRadius(_ kind: DeviceLayer.Kind, unit u: Double) -> Double {
        switch kind {
        case .phone: 12 * u
        case .tablet: 2.4 * u
        case .laptop: 0.4 * u
        case .browser, .window: 1.3 * u
        }
    }

    init(
        _ kind: DeviceLayer.Kind, size: SIMD2<Double>?, screenSize: SIMD2<Double>?, bezel: Double?,
        screenCornerRadius radius: Double?
    ) {
        var screen = screenSize ?? Self.defaultScreen(kind)
        func insets(_ screen: SIMD2<Double>) -> SIMD4<Double> {
            let u = max(min(screen.x, screen.y), 0) / 100
            return Self.insets(
                kind, unit: u, bezel: bezel ?? Self.defaultBezel(kind, unit: u), screenWidth: screen.x)
        }
        if let size {
            // The insets grow slowly with the screen (a tenth as fast), so this settles quickly.
            screen = size
            for _ in 0..<40 {
                let i = insets(screen)
                screen = SIMD2(max(size.x - i.x - i.z, 0), max(size.y - i.y - i.w, 0))
            }
        }
        let u = min(screen.x, screen.y) / 100
        let i = insets(screen)
        box = size ?? SIMD2(screen.x + i.x + i.z, screen.y + i.y + i.w)
        screenOrigin = SIMD2(i.x, i.y)
        self.screenSize = screen
        unit = u
        self.bezel = bezel ?? Self.defaultBezel(kind, unit: u)
        screenCornerRadius = min(
            radius ?? Self.defaultRadius(kind, unit: u), min(screen.x, screen.y) / 2)
        squareTop = kind == .browser || kind == .window
        baseHeight = kind == .laptop ? Self.laptopBase * u : 0
    }
}

extension DeviceLayer {
    struct Palette {
        let body: RGBA
        let bezel: RGBA

        init(_ kind: Kind, _ style: Style) {
            switch (kind, style) {
            case (.phone, .dark), (.tablet, .dark): (body, bezel) = (.hex(0x3a3a3f), .hex(0x050506))
            case (.phone, .light), (.tablet, .light): (body, bezel) = (.hex(0xd6d7dc), .hex(0x050506))
            case (.laptop, .dark): (body, bezel) = (.hex(0x34353a), .hex(0x060607))
            case (.laptop, .light): (body, bezel) = (.hex(0xd9dadf), .hex(0x060607))
            case (.browser, .dark), (.window, .dark): (body, bezel) = (.hex(0x26272b), .hex(0x35363b))
            case (.browser, .light), (.window, .light): (body, bezel) = (.hex(0xe3e4e8), .hex(0xffffff))
            }
        }
    }

    /// Neutral greys of the chrome's details for the style.
    private var muted: RGBA { style == .dark ? .hex(0x5b5c63) : .hex(0xbfc1c7) }
    private var field: RGBA { style == .dark ? .hex(0x1d1e21) : .hex(0xf0f1f4) }
    private var page: RGBA { style == .dark ? .hex(0x18181b) : .hex(0xffffff) }
    private var border: RGBA {
        style == .dark ? RGBA(r: 1, g: 1, b: 1, a: 0.12) : RGBA(r: 0, g: 0, b: 0, a: 0.16)
    }

    /// The frame for one frame of video: the body (with its shadow), the bezel, the screen
    /// layer's items cut to the screen, and what lies over the screen.
    func prepare(
        at time: Double, canvas: Canvas, transform: Affine2D,
        childItems: (_ child: Int, _ place: Affine2D, _ size: SIMD2<Double>) -> [PreparedItem]
    ) -> any PreparedLayer {
        let g = geometry, u = g.unit
        let bodyTint = bodyColor.value(at: time), bezelTint = bezelColor.value(at: time)
        var parts = Parts(canvas: canvas, transform: transform)
        var shell = Parts(canvas: canvas, transform: transform)
        let screenRect = DeviceRect(origin: g.screenOrigin, size: g.screenSize)
        switch kind {
        case .phone, .tablet:
            let rim = (kind == .phone ? 0.9 : 0.6) * u
            let radius = g.screenCornerRadius + g.bezel
            if buttons { addButtons(to: &shell, color: bodyTint) }
            shell.shape(DeviceRect(origin: .zero, size: g.box), radius: radius, color: bodyTint)
            parts.shape(
                DeviceRect(origin: SIMD2(rim, rim), size: g.box - 2 * rim), radius: radius - rim,
                color: bezelTint)
        case .laptop:
            let lid = DeviceRect(
                origin: SIMD2(g.screenOrigin.x - g.bezel, 0),
                size: SIMD2(g.screenSize.x + 2 * g.bezel, g.box.y - g.baseHeight))
            let base = DeviceRect(origin: SIMD2(0, lid.maxY), size: SIMD2(g.box.x, g.baseHeight))
            // The base's top corners are square: a rounded slab cut at the lid's foot.
            let slab = DeviceRect(
                origin: SIMD2(0, lid.maxY - base.size.y), size: SIMD2(g.box.x, 2 * base.size.y))
            shell.clipped(to: base) { inner in
                inner.shape(
                    slab, radius: 0.45 * base.size.y * 2, color: bodyTint,
                    gradient: [bodyTint.lighter(0.08), bodyTint, bodyTint.darker(0.35)])
            }
            shell.shape(lid, radius: 1.6 * u, color: bodyTint.darker(0.25))
            parts.shape(
                DeviceRect(origin: lid.origin + 0.25 * u, size: lid.size - 0.5 * u), radius: 1.4 * u,
                color: bezelTint)
            let notch = SIMD2(0.13 * base.size.x, 0.42 * base.size.y)
            parts.shape(
                DeviceRect(
                    origin: SIMD2(base.midX - notch.x / 2, base.minY - notch.y),
                    size: SIMD2(notch.x, 2 * notch.y)),
                radius: notch.y * 0.9, color: bodyTint.darker(0.22))
            parts.shape(
                DeviceRect(
                    origin: SIMD2(lid.minX + 0.5 * u, base.minY),
                    size: SIMD2(lid.size.x - u, 0.3 * base.size.y)),
                radius: 0, color: .black,
                gradient: [RGBA(r: 0, g: 0, b: 0, a: 0.45), RGBA(r: 0, g: 0, b: 0, a: 0)])
            let camera = 0.55 * u
            parts.shape(
                DeviceRect(
                    origin: SIMD2(lid.midX - camera / 2, (g.screenOrigin.y - camera) / 2),
                    size: SIMD2(camera, camera)),
                radius: camera / 2, color: .hex(0x1c1d22))
        case .browser, .window:
            let radius = g.screenCornerRadius
            shell.shape(DeviceRect(origin: .zero, size: g.box), radius: radius, color: bodyTint)
            let titleBox = addChrome(to: &parts, bezel: bezelTint)
            if title != nil {
                parts.clipped(to: titleBox) { inner in
                    inner.items += childItems(
                        1, transform.concatenating(.translation(titleBox.origin.x, titleBox.origin.y)),
                        titleBox.size)
                }
            }
            // The page's colour under a screen layer that does not cover it.
            parts.screenClipped(screenRect, radius: radius, square: true) { inner in
                inner.shape(screenRect, radius: 0, color: page)
            }
        }
        var items: [PreparedItem] = []
        if let bodyItem = shell.item(shadowed: shadow, box: g.box, at: time) { items.append(bodyItem) }
        items += parts.items
        var over = Parts(canvas: canvas, transform: transform)
        over.screenClipped(screenRect, radius: g.screenCornerRadius, square: g.squareTop) { inner in
            inner.items += childItems(
                0,
                transform.concatenating(.translation(g.screenOrigin.x, g.screenOrigin.y)), g.screenSize)
        }
        addScreenOverlays(to: &over, screen: screenRect, bezel: bezelTint)
        items += over.items
        return PreparedGroup(children: LayerStack(items: items), clip: nil)
    }

    private func addButtons(to parts: inout Parts, color bodyTint: RGBA) {
        let g = geometry, u = g.unit, w = g.box.x, h = g.box.y
        let color = bodyTint.darker(0.12)
        let out = (kind == .phone ? 0.55 : 0.45) * u, depth = 2 * u
        func side(_ left: Bool, _ top: Double, _ length: Double) {
            let x = left ? -out : w - depth + out
            parts.shape(
                DeviceRect(origin: SIMD2(x, top * h), size: SIMD2(depth, length * h)), radius: 0.6 * u,
                color: color)
        }
        if kind == .phone {
            side(true, 0.17, 0.034)
            side(true, 0.235, 0.064)
            side(true, 0.315, 0.064)
            side(false, 0.255, 0.1)
        } else {
            parts.shape(
                DeviceRect(origin: SIMD2(0.8 * w, -out), size: SIMD2(0.06 * w, depth)), radius: 0.6 * u,
                color: color)
            side(false, 0.06, 0.045)
            side(false, 0.115, 0.045)
        }
    }

    /// Draws a browser's or window's chrome; returns the box its title is placed in.
    private func addChrome(to parts: inout Parts, bezel bezelTint: RGBA) -> DeviceRect {
        let g = geometry, u = g.unit, w = g.box.x
        let bar = kind == .browser ? DeviceGeometry.browserTabs * u : DeviceGeometry.windowTitle * u
        var left = 1.6 * u
        if dots {
            let d = 1.25 * u
            for i in 0..<3 {
                let x = 2.0 * u + Double(i) * 2.0 * u
                parts.shape(
                    DeviceRect(origin: SIMD2(x - d / 2, bar / 2 - d / 2), size: SIMD2(d, d)), radius: d / 2,
                    color: muted)
            }
            left = 8.6 * u
        }
        guard kind == .browser else {
            parts.shape(
                DeviceRect(origin: SIMD2(0, bar - 0.1 * u), size: SIMD2(w, 0.1 * u)), radius: 0, color: border
            )
            // Centred in the window: as far from its right edge as the dots are from its left.
            return DeviceRect(origin: SIMD2(left, 0), size: SIMD2(max(w - 2 * left, 0), bar))
        }
        // The active tab rises from the toolbar, which shares its colour.
        let tab = DeviceRect(origin: SIMD2(left, 0.8 * u), size: SIMD2(min(24 * u, 0.3 * w), bar))
        parts.shape(tab, radius: 1.1 * u, color: bezelTint)
        let icon = 1.4 * u
        parts.shape(
            DeviceRect(
                origin: SIMD2(tab.minX + 1.4 * u, tab.minY + (bar - 0.8 * u - icon) / 2),
                size: SIMD2(icon, icon)),
            radius: icon / 2, color: muted)
        let label = DeviceRect(
            origin: SIMD2(tab.minX + 3.6 * u, tab.minY),
            size: SIMD2(max(tab.size.x - 5 * u, 0), bar - 0.8 * u))
        if title == nil {
            parts.shape(
                DeviceRect(
                    origin: SIMD2(label.minX, label.midY - 0.4 * u), size: SIMD2(0.42 * tab.size.x, 0.8 * u)),
                radius: 0.4 * u, color: muted)
        }
        let toolbar = DeviceRect(origin: SIMD2(0, bar), size: SIMD2(w, DeviceGeometry.browserToolbar * u))
        parts.shape(toolbar, radius: 0, color: bezelTint)
        let pill = DeviceRect(
            origin: SIMD2(7 * u, toolbar.minY + 0.9 * u),
            size: SIMD2(max(w - 14 * u, 0), toolbar.size.y - 1.8 * u))
        parts.shape(pill, radius: pill.size.y / 2, color: field)
        parts.shape(
            DeviceRect(
                origin: SIMD2(pill.minX + 1.6 * u, pill.midY - 0.4 * u),
                size: SIMD2(0.22 * pill.size.x, 0.8 * u)),
            radius: 0.4 * u, color: muted)
        for i in 0..<2 {
            let d = 1.1 * u
            parts.shape(
                DeviceRect(
                    origin: SIMD2(1.9 * u + Double(i) * 2.4 * u, pill.midY - d / 2), size: SIMD2(d, d)),
                radius: d / 2, color: muted)
        }
        parts.shape(
            DeviceRect(origin: SIMD2(0, toolbar.maxY - 0.1 * u), size: SIMD2(w, 0.1 * u)), radius: 0,
            color: border)
        return label
    }

    private func addScreenOverlays(to parts: inout Parts, screen: DeviceRect, bezel bezelTint: RGBA) {
        let g = geometry, u = g.unit
        switch kind {
        case .phone where cutout == .island:
            let size = SIMD2(31 * u, 9.2 * u)
            parts.shape(
                DeviceRect(origin: SIMD2(screen.midX - size.x / 2, screen.minY + 2.8 * u), size: size),
                radius: size.y / 2,
                color: bezelTint)
        case .phone where cutout == .notch:
            let size = SIMD2(40 * u, 10.6 * u)
            parts.shape(
                DeviceRect(origin: SIMD2(screen.midX - size.x / 2, screen.minY - 3 * u), size: size),
                radius: 2.8 * u,
                color: bezelTint)
        case .tablet:
            let d = 1.1 * u
            parts.shape(
                DeviceRect(origin: SIMD2(screen.midX - d / 2, (g.bezel - d) / 2), size: SIMD2(d, d)),
                radius: d / 2,
                color: .hex(0x1c1d22))
        default: break
        }
        if reflection {
            let w = screen.size
            parts.screenClipped(screen, radius: g.screenCornerRadius, square: g.squareTop) { inner in
                inner.shape(
                    screen, radius: 0, color: .black,
                    gradient: [0.13, 0.09, 0.06, 0.0, 0.0, 0.0, 0.0].map { RGBA(r: 1, g: 1, b: 1, a: $0) },
                    from: SIMD2(0, 0), to: SIMD2(w.x, w.y))
            }
        }
        if kind == .browser || kind == .window {
            parts.outline(DeviceRect(origin: .zero, size: g.box), radius: g.screenCornerRadius, color: border)
        }
    }
}

/// A rectangle of the device's box.
private struct DeviceRect {
    var origin: SIMD2<Double>
    var size: SIMD2<Double>

    var minX: Double { origin.x }
    var minY: Double { origin.y }
    var maxY: Double { origin.y + size.y }
    var midX: Double { origin.x + size.x / 2 }
    var midY: Double { origin.y + size.y / 2 }
}

/// The prepared pieces of a device, bottom to top, each a rounded rectangle in the device's box.
private struct Parts {
    let canvas: Canvas
    let transform: Affine2D
    var items: [PreparedItem] = []

    func painter(
        _ rect: DeviceRect, radius: Double, fill: SIMD4<Float>, stroke: SIMD4<Float> = SIMD4(),
        strokeWidth: Double = 0,
        gradient: LinearGradient? = nil
    ) -> RoundedRectPainter? {
        RoundedRectPainter(
            size: rect.size, cornerRadius: radius,
            frameFromLocal: transform.concatenating(.translation(rect.origin.x, rect.origin.y)), fill: fill,
            stroke: stroke, strokeWidth: strokeWidth, frameWidth: canvas.width, frameHeight: canvas.height,
            gradient: gradient)
    }

    /// A filled rectangle; `gradient` runs from `from` to `to` (points of the rectangle; default
    /// top to bottom) instead of the colour.
    mutating func shape(
        _ rect: DeviceRect, radius: Double, color: RGBA, gradient: [RGBA] = [], from: SIMD2<Double>? = nil,
        to: SIMD2<Double>? = nil
    ) {
        let linear =
            gradient.isEmpty
            ? nil
            : LinearGradient(
                start: SIMD2<Float>(from ?? SIMD2(0, 0)), end: SIMD2<Float>(to ?? SIMD2(0, rect.size.y)),
                stops: gradient.map { $0.premultiplied.simd })
        guard let p = painter(rect, radius: radius, fill: color.premultiplied.simd, gradient: linear) else {
            return
        }
        items.append(PreparedItem(layer: PreparedShape(painter: p), opacity: 1, colors: nil))
    }

    /// A one-pixel line along a rounded rectangle's inside edge (a window's border).
    mutating func outline(_ rect: DeviceRect, radius: Double, color: RGBA) {
        let inset = 0.5
        let inner = DeviceRect(origin: rect.origin + inset, size: rect.size - 2 * inset)
        guard
            let p = painter(
                inner, radius: max(radius - inset, 0), fill: SIMD4(), stroke: color.premultiplied.simd,
                strokeWidth: 1)
        else { return }
        items.append(PreparedItem(layer: PreparedShape(painter: p), opacity: 1, colors: nil))
    }

    /// Pieces drawn by `body`, cut to `rect` (square corners).
    mutating func clipped(to rect: DeviceRect, _ body: (inout Parts) -> Void) {
        var inner = Parts(canvas: canvas, transform: transform)
        body(&inner)
        guard let clip = painter(rect, radius: 0, fill: SIMD4(1, 1, 1, 1)) else { return }
        items.append(
            PreparedItem(
                layer: PreparedGroup(children: LayerStack(items: inner.items), clip: clip), opacity: 1,
                colors: nil))
    }

    /// Pieces drawn by `body`, cut to the screen: its rounded corners, or, `square`, square at
    /// the top (under a toolbar) and rounded at the bottom, the rounded clip reaching a radius
    /// above the screen and a rectangle cutting it there.
    mutating func screenClipped(
        _ screen: DeviceRect, radius: Double, square: Bool, _ body: (inout Parts) -> Void
    ) {
        var inner = Parts(canvas: canvas, transform: transform)
        body(&inner)
        let rounded =
            square
            ? DeviceRect(origin: screen.origin - SIMD2(0, radius), size: screen.size + SIMD2(0, radius))
            : screen
        guard let clip = painter(rounded, radius: radius, fill: SIMD4(1, 1, 1, 1)) else { return }
        var children = inner.items
        if square {
            guard let cut = painter(screen, radius: 0, fill: SIMD4(1, 1, 1, 1)) else { return }
            children = [
                PreparedItem(
                    layer: PreparedGroup(children: LayerStack(items: children), clip: cut), opacity: 1,
                    colors: nil)
            ]
        }
        items.append(
            PreparedItem(
                layer: PreparedGroup(children: LayerStack(items: children), clip: clip), opacity: 1,
                colors: nil))
    }

    /// The pieces as one item, with the shadow set of the `shadow` effect under them.
    func item(shadowed: Bool, box: SIMD2<Double>, at time: Double) -> PreparedItem? {
        guard !items.isEmpty else { return nil }
        let group = PreparedGroup(children: LayerStack(items: items), clip: nil)
        guard shadowed else { return PreparedItem(layer: group, opacity: 1, colors: nil) }
        let side = min(box.x, box.y)
        var pipeline = EffectPipelineBuilder(
            content: group, frameFromLocal: transform, layerSize: box, canvas: canvas)
        for (alpha, radius, y) in [(0.3, 0.045, 0.03), (0.2, 0.006, 0.004)] {
            let shadow = ShadowEffect(
                color: .constant(RGBA(r: 0, g: 0, b: 0, a: alpha)), radius: .constant(max(radius * side, 1)),
                x: .constant(0), y: .constant(y * side), inner: false)
            pipeline.add(shadow, at: time, named: "device shadow")
        }
        return pipeline.item(opacity: 1, modifierColors: nil, blend: nil)
    }
}

extension RGBA {
    fileprivate static func hex(_ value: Int) -> RGBA {
        RGBA(
            r: Double((value >> 16) & 0xff) / 255, g: Double((value >> 8) & 0xff) / 255,
            b: Double(value & 0xff) / 255,
            a: 1)
    }

    fileprivate static let black = RGBA(r: 0, g: 0, b: 0, a: 1)

    fileprivate func darker(_ amount: Double) -> RGBA {
        RGBA(r: r * (1 - amount), g: g * (1 - amount), b: b * (1 - amount), a: a)
    }

    fileprivate func lighter(_ amount: Double) -> RGBA {
        RGBA(r: r + (1 - r) * amount, g: g + (1 - g) * amount, b: b + (1 - b) * amount, a: a)
    }
}
