/// The ways a layer may mix with what lies below it other than source-over (`normal`, which is
/// `Compositing.sourceOver` and costs nothing more): the separable and non-separable blend modes
/// of W3C Compositing and Blending Level 1 (§ 10, "Blending"), and the plus-lighter and
/// plus-darker operators of Level 2 (Apple's `CGBlendMode.plusLighter` and `.plusDarker`).
public enum BlendFormula: Sendable, CaseIterable {
    case multiply, screen, overlay, darken, lighten, colorDodge, colorBurn, hardLight, softLight
    case difference, exclusion
    case hue, saturation, color, luminosity
    case plusLighter, plusDarker
}

extension Compositing {
    /// `src`, faded by `opacity`, blended onto `dst` by `formula` within exactly `columns` (all
    /// of them when nil); the lanes of the edge chunks outside `columns` keep what `dst` held,
    /// and count as transparent in `src` (see `sourceOver`).
    ///
    /// Every mode but the two plus operators is the spec's general formula on premultiplied
    /// colour (Compositing and Blending Level 1, § 10, "Blending", the note under the mixing
    /// formula):
    ///
    ///     co = cs·(1 − αb) + cb·(1 − αs) + αs·αb·B(Cb, Cs)     αo = αs + αb·(1 − αs)
    ///
    /// with Cs = cs/αs and Cb = cb/αb un-premultiplied and B clamped to 0…1. Where αb = 0 (the
    /// bottom of a stack) every mode leaves the source as it is, as source-over does.
    public static func blend(
        _ src: PlanarBand, onto dst: PlanarBand, formula: BlendFormula, opacity: Float, rows: Int,
        columns: Range<Int>? = nil
    ) {
        precondition(src.stride == dst.stride, "bands differ in width")
        // One specialised loop per formula: the switch stays outside the pixels.
        let pass = BlendPass(src: src, dst: dst, opacity: opacity, rows: rows, columns: columns)
        switch formula {
        case .multiply: pass.run(Separable<Multiply>.self)
        case .screen: pass.run(Separable<Screen>.self)
        case .overlay: pass.run(Separable<Overlay>.self)
        case .darken: pass.run(Separable<Darken>.self)
        case .lighten: pass.run(Separable<Lighten>.self)
        case .colorDodge: pass.run(Separable<ColorDodge>.self)
        case .colorBurn: pass.run(Separable<ColorBurn>.self)
        case .hardLight: pass.run(Separable<HardLight>.self)
        case .softLight: pass.run(Separable<SoftLight>.self)
        case .difference: pass.run(Separable<Difference>.self)
        case .exclusion: pass.run(Separable<Exclusion>.self)
        case .hue: pass.run(NonSeparable<Hue>.self)
        case .saturation: pass.run(NonSeparable<Saturation>.self)
        case .color: pass.run(NonSeparable<ColorMode>.self)
        case .luminosity: pass.run(NonSeparable<Luminosity>.self)
        case .plusLighter: pass.run(PlusLighter.self)
        case .plusDarker: pass.run(PlusDarker.self)
        }
    }
}

/// Eight premultiplied pixels.
struct PixelChunk {
    var r: SIMD8<Float>
    var g: SIMD8<Float>
    var b: SIMD8<Float>
    var a: SIMD8<Float>
}

/// Eight colours of three channels, not premultiplied.
struct ColorChunk {
    var r: SIMD8<Float>
    var g: SIMD8<Float>
    var b: SIMD8<Float>

    @inline(__always)
    init(_ r: SIMD8<Float>, _ g: SIMD8<Float>, _ b: SIMD8<Float>) {
        self.r = r
        self.g = g
        self.b = b
    }

    /// The colour of premultiplied pixels: channel ÷ alpha, 0 where transparent, clamped to
    /// 0…1. A true division, not a multiplication by 1/α, so a channel equal to its alpha is
    /// exactly 1 (colour burn's `Cb == 1` and colour dodge's `Cs == 1` are exact tests).
    @inline(__always)
    init(unpremultiplying p: PixelChunk) {
        let alpha = p.a.replacing(with: .leastNormalMagnitude, where: p.a .< .leastNormalMagnitude)
        self.init(unit(p.r / alpha), unit(p.g / alpha), unit(p.b / alpha))
    }
}

/// Composites eight premultiplied source pixels (already faded) onto eight backdrop pixels.
protocol BlendKernel {
    static func composite(source: PixelChunk, backdrop: PixelChunk) -> PixelChunk
}

/// B(Cb, Cs) of a separable mode, channel by channel, on colours in 0…1.
protocol SeparableMix {
    static func mix(_ cb: SIMD8<Float>, _ cs: SIMD8<Float>) -> SIMD8<Float>
}

/// B(Cb, Cs) of a non-separable mode, on colours in 0…1.
protocol NonSeparableMix {
    static func mix(_ cb: ColorChunk, _ cs: ColorChunk) -> ColorChunk
}

/// The general formula around a mixed colour `m` = B(Cb, Cs).
@inline(__always)
private func generalComposite(_ s: PixelChunk, _ d: PixelChunk, _ m: ColorChunk) -> PixelChunk {
    let keepSource = 1 - d.a, keepBackdrop = 1 - s.a
    let both = s.a * d.a
    return PixelChunk(
        r: s.r * keepSource + d.r * keepBackdrop + both * unit(m.r),
        g: s.g * keepSource + d.g * keepBackdrop + both * unit(m.g),
        b: s.b * keepSource + d.b * keepBackdrop + both * unit(m.b),
        // Source-over's alpha, written as `sourceOver` writes it.
        a: s.a + d.a * keepBackdrop)
}

enum Separable<Mix: SeparableMix>: BlendKernel {
    @inline(__always)
    static func composite(source: PixelChunk, backdrop: PixelChunk) -> PixelChunk {
        let cs = ColorChunk(unpremultiplying: source), cb = ColorChunk(unpremultiplying: backdrop)
        return generalComposite(
            source, backdrop, ColorChunk(Mix.mix(cb.r, cs.r), Mix.mix(cb.g, cs.g), Mix.mix(cb.b, cs.b)))
    }
}

enum NonSeparable<Mix: NonSeparableMix>: BlendKernel {
    @inline(__always)
    static func composite(source: PixelChunk, backdrop: PixelChunk) -> PixelChunk {
        generalComposite(
            source, backdrop,
            Mix.mix(ColorChunk(unpremultiplying: backdrop), ColorChunk(unpremultiplying: source)))
    }
}

// MARK: Separable modes (Level 1, § 10.2)

@inline(__always)
private func smaller(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> {
    a.replacing(with: b, where: b .< a)
}

@inline(__always)
private func larger(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> {
    a.replacing(with: b, where: b .> a)
}

/// A denominator kept off zero: the lanes where it was zero are replaced by a select after.
@inline(__always)
private func nonZero(_ v: SIMD8<Float>) -> SIMD8<Float> {
    v.replacing(with: .leastNormalMagnitude, where: v .< .leastNormalMagnitude)
}

enum Multiply: SeparableMix {
    @inline(__always)
    static func mix(_ cb: SIMD8<Float>, _ cs: SIMD8<Float>) -> SIMD8<Float> { cb * cs }
}

enum Screen: SeparableMix {
    @inline(__always)
    static func mix(_ cb: SIMD8<Float>, _ cs: SIMD8<Float>) -> SIMD8<Float> { cb + cs - cb * cs }
}

enum HardLight: SeparableMix {
    /// Multiply(Cb, 2·Cs) for Cs ≤ 0.5, else Screen(Cb, 2·Cs − 1).
    @inline(__always)
    static func mix(_ cb: SIMD8<Float>, _ cs: SIMD8<Float>) -> SIMD8<Float> {
        let twice = cs + cs
        let screened = Screen.mix(cb, twice - 1)
        return screened.replacing(with: cb * twice, where: cs .<= 0.5)
    }
}

enum Overlay: SeparableMix {
    /// HardLight with its operands swapped.
    @inline(__always)
    static func mix(_ cb: SIMD8<Float>, _ cs: SIMD8<Float>) -> SIMD8<Float> { HardLight.mix(cs, cb) }
}

enum Darken: SeparableMix {
    @inline(__always)
    static func mix(_ cb: SIMD8<Float>, _ cs: SIMD8<Float>) -> SIMD8<Float> { smaller(cb, cs) }
}

enum Lighten: SeparableMix {
    @inline(__always)
    static func mix(_ cb: SIMD8<Float>, _ cs: SIMD8<Float>) -> SIMD8<Float> { larger(cb, cs) }
}

enum ColorDodge: SeparableMix {
    /// 0 where Cb = 0, else 1 where Cs = 1, else min(1, Cb / (1 − Cs)).
    @inline(__always)
    static func mix(_ cb: SIMD8<Float>, _ cs: SIMD8<Float>) -> SIMD8<Float> {
        let dodged = smaller(cb / nonZero(1 - cs), SIMD8(repeating: 1))
        return dodged.replacing(with: 1, where: cs .>= 1).replacing(with: 0, where: cb .<= 0)
    }
}

enum ColorBurn: SeparableMix {
    /// 1 where Cb = 1, else 0 where Cs = 0, else 1 − min(1, (1 − Cb) / Cs).
    @inline(__always)
    static func mix(_ cb: SIMD8<Float>, _ cs: SIMD8<Float>) -> SIMD8<Float> {
        let burnt = 1 - smaller((1 - cb) / nonZero(cs), SIMD8(repeating: 1))
        return burnt.replacing(with: 0, where: cs .<= 0).replacing(with: 1, where: cb .>= 1)
    }
}

enum SoftLight: SeparableMix {
    /// Cb − (1 − 2·Cs)·Cb·(1 − Cb) for Cs ≤ 0.5, else Cb + (2·Cs − 1)·(D(Cb) − Cb), with D(Cb)
    /// = ((16·Cb − 12)·Cb + 4)·Cb for Cb ≤ 0.25, else √Cb.
    @inline(__always)
    static func mix(_ cb: SIMD8<Float>, _ cs: SIMD8<Float>) -> SIMD8<Float> {
        let twice = cs + cs
        let polynomial = ((16 * cb - 12) * cb + 4) * cb
        let d = squareRoot(cb).replacing(with: polynomial, where: cb .<= 0.25)
        let lighter = cb + (twice - 1) * (d - cb)
        let darker = cb - (1 - twice) * cb * (1 - cb)
        return lighter.replacing(with: darker, where: cs .<= 0.5)
    }
}

enum Difference: SeparableMix {
    @inline(__always)
    static func mix(_ cb: SIMD8<Float>, _ cs: SIMD8<Float>) -> SIMD8<Float> { magnitude(cb - cs) }
}

enum Exclusion: SeparableMix {
    @inline(__always)
    static func mix(_ cb: SIMD8<Float>, _ cs: SIMD8<Float>) -> SIMD8<Float> { cb + cs - 2 * cb * cs }
}

// MARK: Non-separable modes (Level 1, § 10.3)

extension ColorChunk {
    /// Lum(C) = 0.3·R + 0.59·G + 0.11·B.
    @inline(__always)
    var luminosity: SIMD8<Float> { 0.3 * r + 0.59 * g + 0.11 * b }

    @inline(__always)
    var smallest: SIMD8<Float> { smaller(smaller(r, g), b) }

    @inline(__always)
    var largest: SIMD8<Float> { larger(larger(r, g), b) }

    /// Sat(C) = max − min.
    @inline(__always)
    var saturation: SIMD8<Float> { largest - smallest }

    /// SetLum(C, l): C shifted to luminosity l, then ClipColor.
    @inline(__always)
    func withLuminosity(_ l: SIMD8<Float>) -> ColorChunk {
        let d = l - luminosity
        return ColorChunk(r + d, g + d, b + d).clipped
    }

    /// ClipColor(C): pulled towards its luminosity L until it lies in 0…1 — where min < 0,
    /// C = L + (C − L)·L / (L − min); then where max > 1, C = L + (C − L)·(1 − L) / (max − L),
    /// min and max taken once, before either step, as the spec writes it.
    @inline(__always)
    var clipped: ColorChunk {
        let l = luminosity, n = smallest, x = largest
        let low = n .< 0, high = x .> 1
        let lowScale = l / nonZero(l - n), highScale = (1 - l) / nonZero(x - l)
        func clip(_ c: SIMD8<Float>) -> SIMD8<Float> {
            let raised = c.replacing(with: l + (c - l) * lowScale, where: low)
            return raised.replacing(with: l + (raised - l) * highScale, where: high)
        }
        return ColorChunk(clip(r), clip(g), clip(b))
    }

    /// SetSat(C, s): the largest channel becomes s, the smallest 0 and the middle one keeps
    /// its place between them; all 0 where the channels are equal. Written channel by channel
    /// as (C − min)·s / (max − min), which gives exactly that for each of the three.
    @inline(__always)
    func withSaturation(_ s: SIMD8<Float>) -> ColorChunk {
        let n = smallest, range = largest - n
        let scale = s / nonZero(range)
        let flat = range .<= 0
        func set(_ c: SIMD8<Float>) -> SIMD8<Float> { ((c - n) * scale).replacing(with: 0, where: flat) }
        return ColorChunk(set(r), set(g), set(b))
    }
}

enum Hue: NonSeparableMix {
    /// SetLum(SetSat(Cs, Sat(Cb)), Lum(Cb)).
    @inline(__always)
    static func mix(_ cb: ColorChunk, _ cs: ColorChunk) -> ColorChunk {
        cs.withSaturation(cb.saturation).withLuminosity(cb.luminosity)
    }
}

enum Saturation: NonSeparableMix {
    /// SetLum(SetSat(Cb, Sat(Cs)), Lum(Cb)).
    @inline(__always)
    static func mix(_ cb: ColorChunk, _ cs: ColorChunk) -> ColorChunk {
        cb.withSaturation(cs.saturation).withLuminosity(cb.luminosity)
    }
}

enum ColorMode: NonSeparableMix {
    /// SetLum(Cs, Lum(Cb)).
    @inline(__always)
    static func mix(_ cb: ColorChunk, _ cs: ColorChunk) -> ColorChunk { cs.withLuminosity(cb.luminosity) }
}

enum Luminosity: NonSeparableMix {
    /// SetLum(Cb, Lum(Cs)).
    @inline(__always)
    static func mix(_ cb: ColorChunk, _ cs: ColorChunk) -> ColorChunk { cb.withLuminosity(cs.luminosity) }
}

// MARK: Plus operators (Level 2, § 9.1.13 and § 9.1.14; not blend modes but operators)

/// co = min(1, cs + cb), αo = min(1, αs + αb), on premultiplied colour: Compositing and Blending
/// Level 2's plus-lighter, Apple's `CGBlendMode.plusLighter` (`R = MIN(1, S + D)`).
enum PlusLighter: BlendKernel {
    @inline(__always)
    static func composite(source s: PixelChunk, backdrop d: PixelChunk) -> PixelChunk {
        let one = SIMD8<Float>(repeating: 1)
        return PixelChunk(
            r: smaller(s.r + d.r, one), g: smaller(s.g + d.g, one), b: smaller(s.b + d.b, one),
            a: smaller(s.a + d.a, one))
    }
}

/// αo = min(1, αs + αb), co = max(0, αo − (αb − cb) − (αs − cs)), on premultiplied colour.
///
/// Apple documents `CGBlendMode.plusDarker` as `R = MAX(0, 1 − ((1 − D) + (1 − S)))`, which is
/// this where both pixels are opaque. Read literally on premultiplied pixels that are not, it
/// would turn a half-transparent source over a transparent backdrop black; Level 2's own text
/// for plus-darker gives values up to 2 and is disputed (w3c/fxtf-drafts issue 447). The form
/// here puts the sum of the alphas where the formula has 1, as Ladybird's LibGfx does to match
/// Safari and as GNUstep's back end does to match AppKit: each pixel takes off its
/// complement within its own coverage, so transparent parts change nothing.
enum PlusDarker: BlendKernel {
    @inline(__always)
    static func composite(source s: PixelChunk, backdrop d: PixelChunk) -> PixelChunk {
        let alpha = smaller(s.a + d.a, SIMD8(repeating: 1))
        let base = alpha - d.a - s.a
        return PixelChunk(
            r: positive(base + d.r + s.r), g: positive(base + d.g + s.g), b: positive(base + d.b + s.b),
            a: alpha)
    }
}

// MARK: The pass

/// One blend of a band onto another: the row and chunk loops, specialised per kernel.
private struct BlendPass {
    let src: PlanarBand
    let dst: PlanarBand
    let opacity: Float
    let rows: Int
    let columns: Range<Int>?

    func run<Kernel: BlendKernel>(_: Kernel.Type) {
        let o = SIMD8<Float>(repeating: opacity)
        let window = columns ?? 0..<src.stride
        let span = src.chunkSpan(columns)
        for row in 0..<rows {
            let rowStart = row &* src.stride
            var x = span.lowerBound
            while x < span.upperBound {
                let i = rowStart &+ x
                let (r, g, b, a) = src.chunk(at: i, column: x, within: window)
                let backdrop = PixelChunk(
                    r: load(dst.r + i), g: load(dst.g + i), b: load(dst.b + i), a: load(dst.a + i))
                var out = Kernel.composite(
                    source: PixelChunk(r: r * o, g: g * o, b: b * o, a: a * o), backdrop: backdrop)
                if x < window.lowerBound || x &+ 8 > window.upperBound {
                    // Pixels of the edge chunk outside the window are not this blend's to
                    // change (a plus operator would clamp them).
                    let inside =
                        LaneMask.first(max(0, min(8, window.upperBound &- x)))
                        & ~LaneMask.first(max(0, min(8, window.lowerBound &- x)))
                    out.r = LaneMask.select(inside, out.r, backdrop.r)
                    out.g = LaneMask.select(inside, out.g, backdrop.g)
                    out.b = LaneMask.select(inside, out.b, backdrop.b)
                    out.a = LaneMask.select(inside, out.a, backdrop.a)
                }
                store(out.r, dst.r + i)
                store(out.g, dst.g + i)
                store(out.b, dst.b + i)
                store(out.a, dst.a + i)
                x &+= 8
            }
        }
    }
}
