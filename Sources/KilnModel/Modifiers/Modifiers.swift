/// The visual modifiers a transition, a scroll transition or a position-driven `visualEffect` may
/// drive: SwiftUI's `opacity`, `scaleEffect`, `rotationEffect`, `offset`, `blur`, `brightness`,
/// `contrast`, `saturation`, `hueRotation` and `grayscale`. They act on a layer after its own
/// transform and effects, without changing layout.
public struct ModifierValues: Sendable, Hashable {
    public var opacity: Double = 1
    public var scale: Double = 1
    public var scaleX: Double = 1
    public var scaleY: Double = 1
    /// Degrees, clockwise.
    public var rotation: Double = 0
    public var offsetX: Double = 0
    public var offsetY: Double = 0
    /// Gaussian standard deviation in pixels.
    public var blur: Double = 0
    public var brightness: Double = 0
    public var contrast: Double = 1
    public var saturation: Double = 1
    /// Degrees.
    public var hueRotation: Double = 0
    /// 0…1.
    public var grayscale: Double = 0

    public init() {}

    public static let identity = ModifierValues()

    public var isIdentity: Bool { self == .identity }

    /// True when the modifiers change the layer's geometry (not only its pixels' colours).
    public var movesGeometry: Bool {
        scale != 1 || scaleX != 1 || scaleY != 1 || rotation != 0 || offsetX != 0 || offsetY != 0
    }

    /// Both sets applied one after the other: factors multiply, angles, offsets and additive
    /// amounts add, blurs combine as Gaussians do (variances add).
    public func combined(with other: ModifierValues) -> ModifierValues {
        var result = self
        result.opacity *= other.opacity
        result.scale *= other.scale
        result.scaleX *= other.scaleX
        result.scaleY *= other.scaleY
        result.rotation += other.rotation
        result.offsetX += other.offsetX
        result.offsetY += other.offsetY
        result.blur = (blur * blur + other.blur * other.blur).squareRoot()
        result.brightness += other.brightness
        result.contrast *= other.contrast
        result.saturation *= other.saturation
        result.hueRotation += other.hueRotation
        result.grayscale = 1 - (1 - grayscale) * (1 - other.grayscale)
        return result
    }

    /// Every value, for blending field by field.
    static var fields: [WritableKeyPath<ModifierValues, Double>] {
        [
            \.opacity, \.scale, \.scaleX, \.scaleY, \.rotation, \.offsetX, \.offsetY, \.blur, \.brightness,
            \.contrast, \.saturation, \.hueRotation, \.grayscale,
        ]
    }

    /// These values plus `weight` times how far `other` is from the identity, field by field:
    /// a removal that starts from an unfinished entrance carries the entrance's leftover and
    /// lets it fade out as the removal proceeds.
    public func adding(_ other: ModifierValues, weight: Double) -> ModifierValues {
        var result = self
        for field in Self.fields {
            result[keyPath: field] += (other[keyPath: field] - Self.identity[keyPath: field]) * weight
        }
        return result
    }

    /// Keeps every value in the range its modifier accepts (a spring may overshoot a mapping).
    public var clamped: ModifierValues {
        var result = self
        result.opacity = min(max(opacity, 0), 1)
        result.blur = min(max(blur, 0), ModifierProperty.blur.range.upperBound)
        result.brightness = min(max(brightness, -1), 1)
        result.contrast = min(max(contrast, 0), ModifierProperty.contrast.range.upperBound)
        result.saturation = min(max(saturation, 0), ModifierProperty.saturation.range.upperBound)
        result.grayscale = min(max(grayscale, 0), 1)
        return result
    }
}

/// One drivable property: its JSON name, valid range and where its value goes.
public enum ModifierProperty: String, Sendable, CaseIterable {
    case opacity, scale, scaleX, scaleY, rotation, offsetX, offsetY, blur, brightness, contrast, saturation,
        hueRotation, grayscale

    public var range: ClosedRange<Double> {
        switch self {
        case .opacity, .grayscale: 0...1
        case .scale, .scaleX, .scaleY: -100...100
        case .rotation, .hueRotation: -36_000...36_000
        case .offsetX, .offsetY: -65_536...65_536
        case .blur: 0...250
        case .brightness: -1...1
        case .contrast, .saturation: 0...10
        }
    }

    public var help: String {
        switch self {
        case .opacity: "multiplies the layer's opacity"
        case .scale: "uniform scale about the layer's centre"
        case .scaleX: "horizontal scale about the layer's centre, multiplied with scale"
        case .scaleY: "vertical scale about the layer's centre, multiplied with scale"
        case .rotation: "degrees clockwise about the layer's centre"
        case .offsetX: "pixels to the right"
        case .offsetY: "pixels down"
        case .blur: "gaussian blur, standard deviation in pixels"
        case .brightness: "added to each colour channel"
        case .contrast: "contrast factor about mid-grey"
        case .saturation: "saturation factor"
        case .hueRotation: "hue rotation in degrees"
        case .grayscale: "amount of desaturation"
        }
    }

    /// The field of `ModifierValues` the property drives.
    var field: WritableKeyPath<ModifierValues, Double> {
        switch self {
        case .opacity: \.opacity
        case .scale: \.scale
        case .scaleX: \.scaleX
        case .scaleY: \.scaleY
        case .rotation: \.rotation
        case .offsetX: \.offsetX
        case .offsetY: \.offsetY
        case .blur: \.blur
        case .brightness: \.brightness
        case .contrast: \.contrast
        case .saturation: \.saturation
        case .hueRotation: \.hueRotation
        case .grayscale: \.grayscale
        }
    }

    /// The value that changes nothing, which a property without a mapping keeps.
    public var identity: Double { ModifierValues.identity[keyPath: field] }

    func set(_ value: Double, in values: inout ModifierValues) {
        values[keyPath: field] = value
    }
}

/// What a mapping reads. `phase` is a transition's or scroll transition's phase (−1 … 0 … 1);
/// the others are the layer's on-screen bounding box in frame pixels, before the modifiers
/// that read it apply (SwiftUI's `GeometryProxy.frame(in: .global)`).
public enum MappingInput: String, Sendable, CaseIterable {
    case phase, minX, minY, midX, midY, maxX, maxY, width, height
}

/// The inputs a set of mappings may read, for one layer in one frame.
public struct MappingInputs: Sendable {
    public var phase: Double
    /// (minX, minY, maxX, maxY) in frame pixels.
    public var frame: SIMD4<Double>

    public init(phase: Double = 0, frame: SIMD4<Double> = .zero) {
        self.phase = phase
        self.frame = frame
    }

    public subscript(input: MappingInput) -> Double {
        switch input {
        case .phase: phase
        case .minX: frame.x
        case .minY: frame.y
        case .maxX: frame.z
        case .maxY: frame.w
        case .midX: (frame.x + frame.z) / 2
        case .midY: (frame.y + frame.w) / 2
        case .width: frame.z - frame.x
        case .height: frame.w - frame.y
        }
    }
}

/// A number computed from an input: through a piecewise-linear table (clamped beyond its ends,
/// like keyframes) or a straight line `input × times + plus` (unclamped, e.g. hue = y / 10).
public struct Mapping: Sendable, Hashable {
    public enum Curve: Sendable, Hashable {
        /// (input, output) pairs, inputs strictly increasing, at least one.
        case table([SIMD2<Double>])
        case linear(times: Double, plus: Double)
    }

    public let input: MappingInput
    public let curve: Curve

    public init(input: MappingInput, curve: Curve) {
        self.input = input
        self.curve = curve
    }

    public func value(for x: Double) -> Double {
        switch curve {
        case .linear(let times, let plus):
            return x * times + plus
        case .table(let points):
            guard let first = points.first, let last = points.last else { return 0 }
            if x <= first.x { return first.y }
            if x >= last.x { return last.y }
            var index = 1
            while points[index].x < x { index += 1 }
            let a = points[index - 1], b = points[index]
            return a.y + (b.y - a.y) * (x - a.x) / (b.x - a.x)
        }
    }
}

/// Properties as functions of inputs: a custom transition, a scroll transition or a
/// `visualEffect`. Properties without a mapping keep their identity value. Effect stages may be
/// driven too: each is any registered effect, evaluated at a time its mapping computes.
public struct ModifierMappings: Sendable {
    public let mappings: [(property: ModifierProperty, mapping: Mapping)]
    public let effects: [MappedEffect]

    public init(_ mappings: [(property: ModifierProperty, mapping: Mapping)], effects: [MappedEffect] = []) {
        self.mappings = mappings
        self.effects = effects
    }

    public var readsGeometry: Bool {
        mappings.contains { $0.mapping.input != .phase } || effects.contains { $0.at.input != .phase }
    }

    /// The effect stages for these inputs, each fixed at the time its mapping gives. A line may
    /// carry an input far out (a huge factor, a box far off the frame): the time stays within
    /// ± `MappedEffect.timeBound`, and a time that is not a number plays the effect's start.
    public func effects(for inputs: MappingInputs) -> [any EffectContent] {
        effects.map {
            let time = $0.at.value(for: inputs[$0.at.input])
            let bounded = time.isNaN ? 0 : min(max(time, -MappedEffect.timeBound), MappedEffect.timeBound)
            return EffectAtTime(content: $0.effect.content, time: bounded, kind: $0.effect.kind)
        }
    }

    public func values(for inputs: MappingInputs) -> ModifierValues {
        var values = ModifierValues()
        for (property, mapping) in mappings {
            let v = mapping.value(for: inputs[mapping.input])
            property.set(min(max(v, property.range.lowerBound), property.range.upperBound), in: &values)
        }
        return values
    }
}

/// An effect stage driven by a mapping's input: the effect's own parameters animate as they do
/// on a layer (keyframes, springs), on a clock the mapping `at` sets from the input, so one
/// `{"at": [[-1, 1], [0, 0], [1, 1]]}` plays the effect's first second as the phase leaves 0.
public struct MappedEffect: Sendable {
    /// The effect's time, from the input.
    public let at: Mapping
    public let effect: EffectNode

    public init(at: Mapping, effect: EffectNode) {
        self.at = at
        self.effect = effect
    }

    /// The farthest an effect's clock is moved either way: a day, as the longest timeline.
    public static let timeBound = 86_400.0

    /// The default clock: |phase| within −1…1, 0 at rest.
    public static let distanceFromRest = Mapping(
        input: .phase, curve: .table([SIMD2(-1, 1), SIMD2(0, 0), SIMD2(1, 1)]))
}

/// An effect to render as it is at `time`, whatever the frame's time: a mapped effect's stage.
public struct EffectAtTime: EffectContent {
    public let content: any EffectContent
    public let time: Double
    /// The effect's registered name, for messages.
    public let kind: String

    public init(content: any EffectContent, time: Double, kind: String) {
        self.content = content
        self.time = time
        self.kind = kind
    }
}
