import Dispatch

/// A two-channel (red, green) noise image sampled with "repeat" addressing and linear filtering,
/// as the seed's Metal sampler `sampler(address::repeat, filter::linear)` reads its noise texture.
/// Values are 0…1.
///
/// Texels are stored as interleaved (red, green) Float pairs with one extra column and row that
/// repeat the first, so the four taps of a bilinear lookup never wrap inside the kernel.
public final class NoiseTexture: @unchecked Sendable {
    public let width: Int
    public let height: Int
    /// Texels per padded row.
    let stride: Int
    /// (width + 1) × (height + 1) pairs and one pair of zeros after them (so the three texels a
    /// row's lookups read from any texel of the last row stay in the allocation); immutable
    /// after init.
    let texels: UnsafeMutablePointer<Float>

    /// `red` and `green` hold `width × height` values, row by row; values are clamped to 0…1.
    public init(width: Int, height: Int, red: [Float], green: [Float]) {
        precondition(
            width >= 1 && height >= 1 && red.count == width * height && green.count == width * height)
        self.width = width
        self.height = height
        stride = width + 1
        texels = .allocate(capacity: 2 * stride * (height + 1) + 2)
        (texels + 2 * stride * (height + 1)).initialize(repeating: 0, count: 2)
        for y in 0...height {
            for x in 0...width {
                let source = (y % height) * width + (x % width)
                let i = 2 * (y * stride + x)
                texels[i] = min(max(red[source], 0), 1)
                texels[i + 1] = min(max(green[source], 0), 1)
            }
        }
    }

    deinit { texels.deallocate() }

    /// The stored value of texel (x, y) (wrapped).
    public func texel(x: Int, y: Int) -> (red: Float, green: Float) {
        let wx = ((x % width) + width) % width, wy = ((y % height) + height) % height
        let i = 2 * (wy * stride + wx)
        return (texels[i], texels[i + 1])
    }

    /// Smooth, tileable, seeded noise: gradient (Perlin-style) noise on a periodic lattice,
    /// summed over `octaves` octaves (each twice the frequency and half the amplitude of the
    /// last), then stretched to fill 0…1. Red and green come from independent gradient sets, so
    /// they make independent patterns; the same seed and size give the same texture everywhere.
    public static func generated(seed: UInt64, size: Int, cells: Int = 4, octaves: Int = 4) -> NoiseTexture {
        precondition(size >= 2 && cells >= 1 && octaves >= 1)
        // Two channels, each summed over its octaves; rows are independent, so they are
        // computed in parallel (a 2048² texture is 33 million lattice evaluations).
        var channels: [[Float]] = []
        for channel in 0..<2 {
            let lattices = (0..<octaves).map {
                GradientLattice(seed: seed, channel: UInt64(channel), octave: UInt64($0), period: cells << $0)
            }
            var values = [Float](repeating: 0, count: size * size)
            values.withUnsafeMutableBufferPointer { buffer in
                let out = buffer.baseAddress!
                let rows = UnsafeSendable(out)
                DispatchQueue.concurrentPerform(iterations: size) { y in
                    var amplitude = 1.0
                    let row = rows.pointer + y * size
                    for lattice in lattices {
                        lattice.addRow(y: y, size: size, amplitude: amplitude, into: row)
                        amplitude *= 0.5
                    }
                }
            }
            let low = values.min() ?? 0, high = values.max() ?? 1
            let span = high > low ? high - low : 1
            channels.append(values.map { ($0 - low) / span })
        }
        return NoiseTexture(width: size, height: size, red: channels[0], green: channels[1])
    }

    /// Red and green at eight normalised positions (0…1 spans the texture once; outside, it
    /// repeats), filtered linearly between texel centres.
    public func sample(u: SIMD8<Float>, v: SIMD8<Float>) -> (red: SIMD8<Float>, green: SIMD8<Float>) {
        sampler.lookup(u: u, v: v)
    }

    /// The texture's lookup as a value the warp kernel inlines (a class's methods cannot be
    /// forced inline).
    public var sampler: NoiseSampler { NoiseSampler(self) }
}

/// Random unit gradients on a `period`-periodic integer lattice, and the noise they define.
struct GradientLattice: Sendable {
    let period: Int
    /// (x, y) of each lattice point's gradient, row by row: computed once, read per texel.
    let gradients: [SIMD2<Double>]

    init(seed: UInt64, channel: UInt64, octave: UInt64, period: Int) {
        let key = mix(seed ^ mix(channel &+ 0x9E37_79B9) ^ mix(octave &+ 0x85EB_CA6B))
        self.period = period
        var gradients: [SIMD2<Double>] = []
        gradients.reserveCapacity(period * period)
        for y in 0..<UInt64(period) {
            for x in 0..<UInt64(period) {
                let h = mix(key ^ (x &* 0x1_0000_0001) ^ (y &* 0xC2B2_AE3D_27D4_EB4F))
                // An angle from the hash's top 24 bits; sin and cos without libm (the raster
                // core has none).
                let (c, s) = unitVector(turns: Double(h >> 40) / Double(1 << 24))
                gradients.append(SIMD2(c, s))
            }
        }
        self.gradients = gradients
    }

    /// Adds `amplitude` × the noise at the centres of texel row `y` of a `size`-wide texture
    /// spanning one period.
    func addRow(y: Int, size: Int, amplitude: Double, into row: UnsafeMutablePointer<Float>) {
        let scale = Double(period) / Double(size)
        let py = (Double(y) + 0.5) * scale
        let y0 = Int(py.rounded(.down)), fy = py - Double(y0)
        let top = (y0 % period) * period, bottom = ((y0 + 1) % period) * period
        let sy = fade(fy)
        gradients.withUnsafeBufferPointer { g in
            for x in 0..<size {
                let px = (Double(x) + 0.5) * scale
                let x0 = Int(px.rounded(.down)), fx = px - Double(x0)
                let left = x0 % period, right = (x0 + 1) % period
                @inline(__always) func dot(_ i: Int, _ dx: Double, _ dy: Double) -> Double {
                    g[i].x * dx + g[i].y * dy
                }
                let sx = fade(fx)
                let n00 = dot(top + left, fx, fy), n10 = dot(top + right, fx - 1, fy)
                let n01 = dot(bottom + left, fx, fy - 1), n11 = dot(bottom + right, fx - 1, fy - 1)
                let upper = n00 + (n10 - n00) * sx, lower = n01 + (n11 - n01) * sx
                row[x] += Float((upper + (lower - upper) * sy) * amplitude)
            }
        }
    }

    /// 6t⁵ − 15t⁴ + 10t³: continuous second derivative, so the noise has no creases.
    private func fade(_ t: Double) -> Double { t * t * t * (t * (t * 6 - 15) + 10) }
}

/// A pointer handed to concurrent workers that write disjoint parts of its memory.
struct UnsafeSendable: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<Float>
    init(_ pointer: UnsafeMutablePointer<Float>) { self.pointer = pointer }
}

/// (cos, sin) of an angle given in turns (0…1), by a polynomial on the octant and symmetry.
func unitVector(turns: Double) -> (Double, Double) {
    let angle = turns * 2 * Double.pi
    // Reduce to [−π, π], then evaluate Taylor series (|error| < 1e-9 after reduction to ±π/4).
    var a = angle
    if a > .pi { a -= 2 * .pi }
    let quarter = (a / (.pi / 2)).rounded()
    let r = a - quarter * (.pi / 2)
    let r2 = r * r
    let s = r * (1 - r2 / 6 * (1 - r2 / 20 * (1 - r2 / 42 * (1 - r2 / 72 * (1 - r2 / 110)))))
    let c = 1 - r2 / 2 * (1 - r2 / 12 * (1 - r2 / 30 * (1 - r2 / 56 * (1 - r2 / 90))))
    switch Int(quarter) {
    case 1: return (-s, c)
    case -1: return (s, -c)
    case 2, -2: return (-c, -s)
    default: return (c, s)
    }
}

/// SplitMix64's finaliser: a strong 64-bit mix, deterministic everywhere.
func mix(_ value: UInt64) -> UInt64 {
    var z = value &+ 0x9E37_79B9_7F4A_7C15
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
}
