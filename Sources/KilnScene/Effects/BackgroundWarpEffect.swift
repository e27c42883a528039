import Foundation
import KilnModel
import KilnRaster

/// The seed's `backgroundWarp` layer effect: each pixel samples the layer at its position plus
/// an offset read from a noise texture, so a blurred cover flows like liquid.
///
/// - `domainWarp` (default): q = noise(uv).rg, n = noise(uv + q), offset = (n.rg − 0.5) · strength.
/// - `noise`: one lookup, offset = (noise(uv).rg − 0.5) · strength.
/// - `offset`: the seed's first step, the same `offset` for every pixel.
///
/// uv is the position divided by the layer's size; `speed` · time is added to it, so the pattern
/// flows. The noise repeats and is filtered linearly, as the seed's Metal sampler.
public struct BackgroundWarpEffect: PixelStageEffect {
    public enum Mode: String, Sendable, CaseIterable {
        case domainWarp, noise, offset
    }

    public let mode: Mode
    public let noise: NoiseTexture
    public let strength: Animated<Double>
    public let offset: Animated<Point2>
    public let speed: Animated<Double>
    public let edges: PlanarSampler.Edges

    public init(
        mode: Mode, noise: NoiseTexture, strength: Animated<Double>, offset: Animated<Point2>,
        speed: Animated<Double>, edges: PlanarSampler.Edges
    ) {
        (self.mode, self.noise, self.strength, self.offset) = (mode, noise, strength, offset)
        (self.speed, self.edges) = (speed, edges)
    }

    enum Key {
        static let mode = ParameterKey<String>("mode")
        static let strength = ParameterKey<Animated<Double>>("strength")
        static let offset = ParameterKey<Animated<Point2>>("offset")
        static let speed = ParameterKey<Animated<Double>>("speed")
        static let noise = ParameterKey<JSONNode?>("noise")
    }

    public static let kind = EffectKind(
        name: "backgroundWarp",
        summary: "noise-driven (domain-warped) displacement, as SwiftUI's backgroundWarp layer effect sample",
        parameters: ParameterTable([
            Parameter(
                Key.mode, .choice(Mode.allCases.map(\.rawValue)), default: .string("domainWarp"),
                help: "domainWarp (two noise lookups), noise (one lookup) or offset (one offset for all)"),
            Parameter(
                Key.strength, .number(0...4000), default: .number(200),
                help: "pixels of offset per unit of noise away from 0.5; 0 = unchanged"),
            Parameter(
                Key.offset, .point(-100_000...100_000), default: .point(Point2(x: 0, y: 0)),
                help: "[x, y] pixels, for mode offset"),
            Parameter(
                Key.speed, .number(-100...100), default: .number(0),
                help: "noise-texture widths per second the pattern flows"),
            Parameter(
                Key.noise,
                .structured(
                    "{\"generate\": {\"seed\", \"size\", \"cells\", \"octaves\"}} or {\"path\": image}",
                    schema: ValueSchema.object(noiseTable).with(
                        "oneOf", [.requiring(["generate"]), .requiring(["path"])])),
                default: .string("generated: seed 1, 256 px, 4 cells, 4 octaves"),
                help: "the noise texture: generated (tileable) or an image's red and green"),
            edgesParameter,
        ])
    ) { p, path, context in
        var texture = defaultNoise
        if let node = p.node(Key.noise) {
            guard let decoded = decodeNoise(node, path: p.path(Key.noise), context: context) else {
                return nil
            }
            texture = decoded
        }
        return BackgroundWarpEffect(
            mode: Mode(rawValue: p[Key.mode]) ?? .domainWarp, noise: texture,
            strength: p[Key.strength],
            offset: p[Key.offset], speed: p[Key.speed],
            edges: PlanarSampler.Edges(rawValue: p[edgesKey]) ?? .transparent)
    }

    /// Generated once per process: every job without its own noise shares it.
    static let defaultNoise = NoiseTexture.generated(seed: 1, size: 256)

    enum NoiseKey {
        static let generate = ParameterKey<JSONNode?>("generate")
        static let path = ParameterKey<URL?>("path")
    }

    static let noiseTable = ParameterTable([
        Parameter(
            NoiseKey.generate,
            .structured(
                "{\"seed\", \"size\", \"cells\", \"octaves\"}", schema: ValueSchema.object(generateTable)),
            default: .string("none"),
            help: "procedural, tileable noise"),
        Parameter(
            NoiseKey.path, .assetPath, default: .string(""),
            help: "an image whose red and green channels are the noise"),
    ])

    enum GenerateKey {
        static let seed = ParameterKey<Int>("seed")
        static let size = ParameterKey<Int>("size")
        static let cells = ParameterKey<Int>("cells")
        static let octaves = ParameterKey<Int>("octaves")
    }

    static let generateTable = ParameterTable([
        Parameter(
            GenerateKey.seed, .integer(0...Int(UInt32.max)), default: .integer(1),
            help: "same seed, same noise"),
        Parameter(
            GenerateKey.size, .integer(8...2048), default: .integer(256), help: "texture width and height"),
        Parameter(
            GenerateKey.cells, .integer(1...64), default: .integer(4),
            help: "lattice cells across the texture in the first octave"),
        Parameter(
            GenerateKey.octaves, .integer(1...8), default: .integer(4),
            help: "octaves of detail, each twice as fine"),
    ])

    static func decodeNoise(_ node: JSONNode, path: JSONPath, context: DecodeContext) -> NoiseTexture? {
        let before = context.diagnostics.count
        let p = noiseTable.decode(node, path: path, context: context)
        guard context.diagnostics.count == before else { return nil }
        switch (p.node(NoiseKey.generate), p.isPresent(NoiseKey.path)) {
        case (let generate?, false):
            let g = generateTable.decode(generate, path: path.key("generate"), context: context)
            guard context.diagnostics.count == before else { return nil }
            let size = g[GenerateKey.size], cells = g[GenerateKey.cells], octaves = g[GenerateKey.octaves]
            if let problem = context.limits.violation(
                .noisePixels, size * size, "the generated noise's size in pixels (\(size)×\(size))")
            {
                context.error(problem, at: generate, path: path.key("generate").key("size"))
                return nil
            }
            // Detail finer than two texels per cell would alias instead of adding smoothness.
            guard cells << (octaves - 1) <= size / 2 else {
                context.error(
                    "cells × 2^(octaves − 1) = \(cells << (octaves - 1)) must be at most size / 2 = \(size / 2)",
                    at: generate, path: path.key("generate"))
                return nil
            }
            // Held: the padded texture (two Floats a texel); briefly: the two planes it is made from.
            guard
                context.memory.charge(
                    .noise, Double((size + 1) * (size + 1)) * 8, briefly: Double(size * size) * 8,
                    "generated noise \(size)×\(size)", at: path.key("generate"))
            else { return nil }
            return NoiseTexture.generated(
                seed: UInt64(g[GenerateKey.seed]), size: size, cells: cells, octaves: octaves)
        case (nil, true):
            guard let url = p[NoiseKey.path] else { return nil }
            return decodeNoiseImage(
                url, node: p.node(NoiseKey.path), path: path.key("path"), context: context)
        default:
            context.error(
                "expected {\"generate\": {…}} or {\"path\": \"image\"}: exactly one of the two", at: node,
                path: path)
            return nil
        }
    }

    static func decodeNoiseImage(_ url: URL, node: JSONNode?, path: JSONPath, context: DecodeContext)
        -> NoiseTexture?
    {
        guard let decoder = context.services.service((any ImageDecoding).self) else {
            context.error(
                "noise images need an image decoder, and this loader has none", at: node, path: path)
            return nil
        }
        do {
            let size = try decoder.imageSize(at: url)
            if let problem = context.limits.violation(
                .noisePixels, size.x * size.y, "the noise image's size in pixels (\(size.x)×\(size.y))")
            {
                context.error(problem, at: node, path: path)
                return nil
            }
            guard size.x <= 4096 && size.y <= 4096 else {
                context.error(
                    "noise image is \(size.x)×\(size.y); at most 4096×4096 is allowed", at: node, path: path)
                return nil
            }
            // Held: the padded texture; briefly: the decoded picture and the two planes.
            guard
                context.memory.charge(
                    .noise, Double((size.x + 1) * (size.y + 1)) * 8, briefly: Double(size.x * size.y) * 12,
                    "noise image \(size.x)×\(size.y)", at: path)
            else { return nil }
            let image = try decoder.decodeImage(at: url, resizedTo: nil)
            let level = image.levels[0]
            var red = [Float](), green = [Float]()
            red.reserveCapacity(image.width * image.height)
            green.reserveCapacity(image.width * image.height)
            for y in 0..<image.height {
                for x in 0..<image.width {
                    let texel = level.texels[y * level.stride + x]
                    // Straight values: noise images are usually opaque, where this is a no-op.
                    let alpha = Float(texel >> 24)
                    let scale: Float = alpha > 0 ? 1 / alpha : 0
                    red.append(Float(texel & 0xFF) * scale)
                    green.append(Float((texel >> 8) & 0xFF) * scale)
                }
            }
            return NoiseTexture(width: image.width, height: image.height, red: red, green: green)
        } catch {
            context.error("\(error)", at: node, path: path)
            return nil
        }
    }

    public func stage(at time: Double, layerSize: SIMD2<Double>) -> (any PixelStage)? {
        let size = SIMD2<Float>(layerSize)
        switch mode {
        case .offset:
            let o = offset.value(at: time)
            guard o.x != 0 || o.y != 0 else { return nil }
            return NoiseWarp(mode: .offset(SIMD2(Float(o.x), Float(o.y))), size: size, strength: 0, flow: 0)
        case .noise, .domainWarp:
            let strength = strength.value(at: time)
            guard strength != 0 else { return nil }
            // The flow is reduced to whole texture repeats, which change nothing, so long
            // videos keep Float precision.
            let cycles = time * speed.value(at: time)
            let flow = Float(cycles - cycles.rounded(.down))
            let warp: NoiseWarp.Mode = mode == .noise ? .noise(noise) : .domainWarp(noise)
            return NoiseWarp(mode: warp, size: size, strength: Float(strength), flow: flow)
        }
    }
}

/// The seed's `backgroundWarp`: uv = position / size; q = noise(uv).rg; with domain warping a
/// second lookup n = noise(uv + q), else n = q; offset = (n − 0.5) · strength; the pixel samples
/// the layer at position + offset. `flow` (time · speed) is added to the noise position so the
/// pattern moves. `.offset` is the seed's first step, one offset for every pixel.
public struct NoiseWarp: DistortionStage {
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

    public var reach: Double {
        switch mode {
        case .offset(let offset): Double(max(abs(offset.x), abs(offset.y)))
        case .noise, .domainWarp: Double(abs(strength)) / 2
        }
    }

    /// One noise texel, in the layer's units (uv = position / size): the mapping is bilinear
    /// between texel centres, so its slope changes at every texel edge.
    public var featureSize: Double? {
        switch mode {
        case .offset: .infinity
        case .noise(let texture), .domainWarp(let texture):
            min(Double(size.x) / Double(texture.width), Double(size.y) / Double(texture.height))
        }
    }

    @inline(never)
    public func mapBack(_ x: inout SIMD8<Float>, _ y: inout SIMD8<Float>) {
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

    public func mapBack(_ batch: StageBatch, count: Int) {
        map(x: batch.x, y: batch.y, count: count, scratch: batch.scratch, index: batch.index)
    }

    /// `mapBack` on `count` groups of eight positions in place, lookup by lookup: each group's
    /// lookups wait on memory and on the one before (the second lookup's position is the
    /// first's result), and the other groups' lookups fill that wait. Each lane's arithmetic is
    /// `mapBack`'s. `scratch` has room for 4 × `count` vectors, `index` for `count`.
    @inline(never)
    func map(
        x: UnsafeMutablePointer<SIMD8<Float>>, y: UnsafeMutablePointer<SIMD8<Float>>, count: Int,
        scratch: UnsafeMutablePointer<SIMD8<Float>>, index top: UnsafeMutablePointer<SIMD8<Int32>>
    ) {
        guard let noise else {
            for k in 0..<count { mapBack(&x[k], &y[k]) }
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
                // The first lookup of eight neighbouring pixels usually falls in one texel row;
                // the second's positions are scattered by it.
                let n =
                    noise.sharesRow(top[k])
                    ? noise.rowTaps(top: top[k], wx: wx[k], wy: wy[k])
                    : noise.taps(top: top[k], wx: wx[k], wy: wy[k])
                u[k] += n.red
                v[k] += n.green
            }
        }
        for k in 0..<count { (top[k], wx[k], wy[k]) = noise.place(u: u[k], v: v[k]) }
        for k in 0..<count {
            let n =
                !domain && noise.sharesRow(top[k])
                ? noise.rowTaps(top: top[k], wx: wx[k], wy: wy[k])
                : noise.taps(top: top[k], wx: wx[k], wy: wy[k])
            x[k] += (n.red - 0.5) * strength
            y[k] += (n.green - 0.5) * strength
        }
    }
}
