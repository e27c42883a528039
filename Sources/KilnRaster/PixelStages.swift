/// A layer's pixel pipeline after its content is rendered: colour stages map a pixel's colour,
/// distortion stages map a position to the position its colour comes from, and the ripple does
/// both. A run of stages is evaluated in one pass: positions go back through the distortions
/// (last stage first), the layer is sampled once, bilinearly, and the colour stages run forward.
public enum PixelStage: Sendable {
    case matrix(ColorMatrix)
    case gradientMap(GradientMap)
    case ripple(Ripple)
    case warp(NoiseWarp)
    case shear(Shear)
    case wave(Wave)

    /// How far, in the layer's own units, the stage may move content (0 for colour stages).
    public var reach: Double {
        switch self {
        case .matrix, .gradientMap: 0
        case .ripple(let ripple): ripple.reach
        case .warp(let warp): warp.reach
        case .shear(let shear): shear.reach
        case .wave(let wave): Double(abs(wave.amplitude))
        }
    }

    /// The finest detail the stage's mapping has, in the layer's own units: how far apart its
    /// positions may be sampled and still show how it bends. The warp's noise texel (the mapping
    /// is bilinear between texel centres, so its slope changes at every texel edge), a wave's
    /// wavelength / 2π (its curvature radius scale); infinite for colour matrices, offsets and
    /// shears (affine). nil for stages that are not smooth at any scale: the ripple (its moves
    /// turn sharply at the wave's origin and front) and the gradient map (a colour curve, which
    /// can steepen what it maps). A pipeline over a large blur runs on a coarser grid
    /// (`ReducedGrid`) only when every stage's detail is at least half a grid cell across.
    public var featureSize: Double? {
        switch self {
        case .matrix, .shear: .infinity
        case .gradientMap, .ripple: nil
        case .warp(let warp): warp.featureSize
        case .wave(let wave): Double(abs(wave.wavelength)) / (2 * Double.pi)
        }
    }

    public var movesPixels: Bool {
        switch self {
        case .matrix, .gradientMap: false
        case .ripple, .warp, .shear, .wave: true
        }
    }
}

/// The seed's ripple: a damped sine wave spreading from each touch point. For a pixel at
/// distance d from a wave's origin, t' = max(0, elapsed − d / speed) and
/// amount = amplitude · sin(frequency · t') · exp(−decay · t'); the pixel samples the layer at
/// position + amount · normalize(position − origin) and its colour gains
/// 0.3 · (amount / amplitude) · alpha. Overlapping waves add their amounts.
public struct Ripple: Sendable {
    public struct Wave: Sendable {
        public let origin: SIMD2<Float>
        /// Seconds since the wave's trigger.
        public let elapsed: Float

        public init(origin: SIMD2<Float>, elapsed: Float) {
            self.origin = origin
            self.elapsed = elapsed
        }
    }

    public let amplitude: Float
    public let frequency: Float
    public let decay: Float
    public let speed: Float
    public let waves: [Wave]

    /// nil when nothing would change (no wave, or amplitude 0): the stage is then left out.
    public init?(amplitude: Float, frequency: Float, decay: Float, speed: Float, waves: [Wave]) {
        guard amplitude != 0, !waves.isEmpty, speed > 0 else { return nil }
        (self.amplitude, self.frequency, self.decay, self.speed) = (amplitude, frequency, decay, speed)
        self.waves = waves
    }

    var reach: Double { Double(abs(amplitude)) * Double(waves.count) }

    /// Moves the positions and returns the summed amount ÷ amplitude (the brightening weight).
    /// Kept out of line: inlined, it made the pipeline kernel too large for the optimiser to
    /// inline the standard library's SIMD shuffles into it.
    @inline(never)
    func map(_ x: inout SIMD8<Float>, _ y: inout SIMD8<Float>) -> SIMD8<Float> {
        var moveX = SIMD8<Float>(), moveY = SIMD8<Float>(), total = SIMD8<Float>()
        for wave in waves {
            let dx = x - wave.origin.x, dy = y - wave.origin.y
            let distance = squareRoot(dx * dx + dy * dy)
            let t = positive(wave.elapsed - distance * (1 / speed))
            // Before the wave front reaches a pixel its amount is exactly 0: most of a layer,
            // for most of a ripple's life, costs no sine or exponential.
            if t == SIMD8() { continue }
            let amount = amplitude * sine(frequency * t) * exponential(-decay * t)
            // normalize(0) is undefined in Metal; at the origin itself the wave moves nothing.
            let inverse = (1 / distance).replacing(with: 0, where: distance .== 0)
            moveX += amount * dx * inverse
            moveY += amount * dy * inverse
            total += amount
        }
        x += moveX
        y += moveY
        return total * (1 / amplitude)
    }
}

/// The seed's `backgroundWarp`: uv = position / size; q = noise(uv).rg; with domain warping a
/// second lookup n = noise(uv + q), else n = q; offset = (n − 0.5) · strength; the pixel samples
/// the layer at position + offset. `flow` (time · speed) is added to the noise position so the
/// pattern moves. `.offset` is the seed's first step, one offset for every pixel.
public struct NoiseWarp: Sendable {
    public enum Mode: Sendable {
        case offset(SIMD2<Float>)
        case noise(NoiseTexture)
        case domainWarp(NoiseTexture)
    }

    public let mode: Mode
    /// The layer's size: positions divided by it give uv.
    public let size: SIMD2<Float>
    public let strength: Float
    public let flow: Float
    /// 1 / size, and the texture's lookup, worked out once rather than per eight pixels.
    let inverseSize: SIMD2<Float>
    let noise: NoiseSampler?

    public init(mode: Mode, size: SIMD2<Float>, strength: Float, flow: Float) {
        self.mode = mode
        self.size = SIMD2(max(size.x, 1), max(size.y, 1))
        self.strength = strength
        self.flow = flow
        inverseSize = SIMD2(1 / self.size.x, 1 / self.size.y)
        switch mode {
        case .offset: noise = nil
        case .noise(let texture), .domainWarp(let texture): noise = texture.sampler
        }
    }

    var reach: Double {
        switch mode {
        case .offset(let offset): Double(max(abs(offset.x), abs(offset.y)))
        case .noise, .domainWarp: Double(abs(strength)) / 2
        }
    }

    /// `PixelStage.featureSize`: one noise texel, in the layer's units (uv = position / size).
    var featureSize: Double {
        switch mode {
        case .offset: .infinity
        case .noise(let texture), .domainWarp(let texture):
            min(Double(size.x) / Double(texture.width), Double(size.y) / Double(texture.height))
        }
    }

    @inline(never)
    func map(_ x: inout SIMD8<Float>, _ y: inout SIMD8<Float>) {
        switch mode {
        case .offset(let offset):
            x += offset.x
            y += offset.y
        case .noise, .domainWarp:
            // `noise` is set whenever the mode has a texture.
            guard let noise else { return }
            let u = x * inverseSize.x + flow, v = y * inverseSize.y + flow
            var n = noise.lookup(u: u, v: v)
            if case .domainWarp = mode { n = noise.lookup(u: u + n.red, v: v + n.green) }
            x += (n.red - 0.5) * strength
            y += (n.green - 0.5) * strength
        }
    }

    /// `map` on `count` groups of eight positions in place, lookup by lookup: each group's
    /// lookups wait on memory and on the one before (the second lookup's position is the
    /// first's result), and the other groups' lookups fill that wait. Each lane's arithmetic is
    /// `map`'s. `scratch` has room for 4 × `count` vectors, `index` for `count`.
    @inline(never)
    func map(
        x: UnsafeMutablePointer<SIMD8<Float>>, y: UnsafeMutablePointer<SIMD8<Float>>, count: Int,
        scratch: UnsafeMutablePointer<SIMD8<Float>>, index top: UnsafeMutablePointer<SIMD8<Int32>>
    ) {
        guard let noise else {
            for k in 0..<count { map(&x[k], &y[k]) }
            return
        }
        let domain: Bool = if case .domainWarp = mode { true } else { false }
        // Each lookup in two passes over the groups, where it reads and then the reads: a
        // group's texel reads do not wait for its own position arithmetic.
        let u = scratch, v = u + count, wx = v + count, wy = wx + count
        for k in 0..<count {
            u[k] = x[k] * inverseSize.x + flow
            v[k] = y[k] * inverseSize.y + flow
        }
        if domain {
            for k in 0..<count { (top[k], wx[k], wy[k]) = noise.place(u: u[k], v: v[k]) }
            for k in 0..<count {
                let n = noise.taps(top: top[k], wx: wx[k], wy: wy[k])
                u[k] += n.red
                v[k] += n.green
            }
        }
        for k in 0..<count { (top[k], wx[k], wy[k]) = noise.place(u: u[k], v: v[k]) }
        for k in 0..<count {
            let n = noise.taps(top: top[k], wx: wx[k], wy: wy[k])
            x[k] += (n.red - 0.5) * strength
            y[k] += (n.green - 0.5) * strength
        }
    }
}

/// A shear about an anchor point: a row `dy` below the anchor moves right by `x · dy`, a column
/// `dx` right of it moves down by `y · dx`.
public struct Shear: Sendable {
    public let x: Float
    public let y: Float
    public let anchor: SIMD2<Float>
    /// The layer's size, for the reach.
    let size: SIMD2<Float>

    public init(x: Float, y: Float, anchor: SIMD2<Float>, size: SIMD2<Float>) {
        (self.x, self.y, self.anchor, self.size) = (x, y, anchor, size)
    }

    var reach: Double { Double(abs(x) * size.y + abs(y) * size.x) }

    @_transparent
    func map(_ px: inout SIMD8<Float>, _ py: inout SIMD8<Float>) {
        let dx = px - anchor.x, dy = py - anchor.y
        px -= x * dy
        py -= y * dx
    }
}

/// A travelling sine wave: along `horizontal` rows move sideways by
/// amplitude · sin(2π (y / wavelength − phase)); otherwise columns move up and down with x.
public struct Wave: Sendable {
    public let amplitude: Float
    public let wavelength: Float
    /// Cycles travelled so far (time · speed).
    public let phase: Float
    public let horizontal: Bool

    public init(amplitude: Float, wavelength: Float, phase: Float, horizontal: Bool) {
        (self.amplitude, self.wavelength, self.phase, self.horizontal) = (
            amplitude, wavelength, phase, horizontal
        )
    }

    @_transparent
    func map(_ x: inout SIMD8<Float>, _ y: inout SIMD8<Float>) {
        let twoPi: Float = 6.283_185_5
        // The phase is reduced to one cycle so long videos keep full precision.
        let cycles = phase - phase.rounded(.down)
        if horizontal {
            x -= amplitude * sine(twoPi * (y * (1 / wavelength) - cycles))
        } else {
            y -= amplitude * sine(twoPi * (x * (1 / wavelength) - cycles))
        }
    }
}

/// Maps each pixel's luminance (Rec. 709 weights on straight colour) through a gradient: dark
/// pixels take the first colour, bright ones the last; the gradient's alpha multiplies the
/// pixel's. `amount` blends with the original.
public struct GradientMap: Sendable {
    /// 257 straight RGBA entries for luminance 0, 1/256, …, 1.
    let table: [SIMD4<Float>]
    public let amount: Float

    /// `color(at:)` gives the gradient's straight colour at a position 0…1.
    public init(amount: Float, color: (Double) -> SIMD4<Float>) {
        table = (0...256).map { color(Double($0) / 256) }
        self.amount = amount
    }

    /// The gradient's straight colour at luminance `l` (linear between table entries).
    public func mapped(_ l: Float) -> SIMD4<Float> {
        let position = min(max(l, 0), 1) * 256
        let i = SaturatingConversion.int(position, in: 0...255)
        let f = position - Float(i)
        return table[i] + (table[i + 1] - table[i]) * f
    }

    @inline(__always)
    func apply(
        _ r: inout SIMD8<Float>, _ g: inout SIMD8<Float>, _ b: inout SIMD8<Float>, _ a: inout SIMD8<Float>
    ) {
        let inverse = (1 / a).replacing(with: 0, where: a .<= 0)
        let luma = (0.2126 * r + 0.7152 * g + 0.0722 * b) * inverse
        var mr = SIMD8<Float>(), mg = SIMD8<Float>(), mb = SIMD8<Float>(), ma = SIMD8<Float>()
        for lane in 0..<8 {
            let c = mapped(luma[lane])
            (mr[lane], mg[lane], mb[lane], ma[lane]) = (c.x, c.y, c.z, c.w)
        }
        // Premultiplied by the gradient's alpha and the pixel's.
        let alpha = ma * a
        r += (mr * alpha - r) * amount
        g += (mg * alpha - g) * amount
        b += (mb * alpha - b) * amount
        a += (alpha - a) * amount
    }
}
