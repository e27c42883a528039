import Foundation

/// What one layer's pixels read besides its parents and children, gathered while it decodes so
/// a frame digest can cover every parameter without knowing any kind: the layer's own JSON (its
/// children and mask layer left out, they bring their own), every animated value decoded for
/// it (its own, its effects', its mappings'), the files it resolved, and whether anything
/// decoded for it reads the frame time by other means than those values.
public struct FrameInputs: Sendable {
    /// The layer's JSON node without `layers` and without `mask.layer`, in a canonical byte form.
    public internal(set) var source: [UInt8] = []
    public internal(set) var animated: [AnimatedSample] = []
    public internal(set) var files: [URL] = []
    /// True when an effect decoded for the layer does not declare how it reads time (a ripple's
    /// elapsed time), or when a value could not be sampled as plain bytes.
    public internal(set) var readsFrameTime = false
    /// The effects decoded for the layer (its own, its mappings' and transitions') that declare
    /// how they read time: asked at each frame.
    public internal(set) var declaredEffects: [any FrameTimeDeclaring] = []

    public init() {}
}

/// An animated value as bytes at a time, whatever its type.
public struct AnimatedSample: Sendable {
    private let sample: @Sendable (Double) -> [UInt8]

    init<Value: Interpolatable>(_ animated: Animated<Value>) {
        sample = { time in
            withUnsafeBytes(of: animated.value(at: time)) { Array($0) }
        }
    }

    /// The value's bytes at job time `time`.
    public func bytes(at time: Double) -> [UInt8] { sample(time) }
}

/// Declared by a layer or effect content whose pixels depend on the frame time only through the
/// animated values decoded from its parameters (and its layer's transition phase). Content that
/// does not conform is taken to read the frame time itself, so a new kind is digested soundly,
/// frame by frame, until it declares otherwise.
public protocol FrameTimeDeclaring: Sendable {
    /// False when, at `time`, its pixels follow from its JSON and its animated values' values
    /// alone; true when they may also change with the time itself.
    func readsFrameTime(at time: Double) -> Bool
}

/// Gathers one layer's `FrameInputs` while it decodes.
final class FrameInputCollector {
    var inputs = FrameInputs()
}

extension DecodeContext {
    /// Runs `body` with a fresh collector for the layer `node`; the collector's inputs are
    /// returned beside the body's result.
    func collectingFrameInputs<Result>(of node: JSONNode, _ body: () -> Result) -> (Result, FrameInputs) {
        let collector = FrameInputCollector()
        collector.inputs.source = CanonicalJSON.bytes(of: node, omitting: .layerChildren)
        frameInputCollectors.append(collector)
        let result = body()
        frameInputCollectors.removeLast()
        return (result, collector.inputs)
    }

    func recordFrameInput<Value>(_ animated: Animated<Value>) {
        guard !animated.isConstant else { return }
        guard _isPOD(Value.self) else {
            modifyFrameInputs { $0.readsFrameTime = true }
            return
        }
        modifyFrameInputs { $0.animated.append(AnimatedSample(animated)) }
    }

    /// Records a file the layer being decoded reads (an asset, a font fontconfig found).
    public func recordFrameInput(file: URL) {
        modifyFrameInputs { if !$0.files.contains(file) { $0.files.append(file) } }
    }

    func recordFrameInput(effect: any EffectContent) {
        if let declared = effect as? any FrameTimeDeclaring {
            modifyFrameInputs { $0.declaredEffects.append(declared) }
        } else {
            modifyFrameInputs { $0.readsFrameTime = true }
        }
    }

    private func modifyFrameInputs(_ change: (inout FrameInputs) -> Void) {
        if let collector = frameInputCollectors.last {
            change(&collector.inputs)
        } else {
            change(&jobFrameInputs)
        }
    }
}

/// A byte form of a JSON value that two equal values share and two different ones do not:
/// every value tagged, strings and containers length-prefixed, numbers by their bits.
enum CanonicalJSON {
    /// Keys left out of an object, and keys whose object value has keys of its own left out.
    struct Omitted {
        var keys: Set<String> = []
        var inside: [String: Set<String>] = [:]

        static let nothing = Omitted()
        /// A layer's children and its mask's layer: they are digested as layers of their own.
        static let layerChildren = Omitted(keys: ["layers"], inside: ["mask": ["layer"]])
        /// The job's layers (digested one by one) and the output's encoder settings and path,
        /// which no pixel reads (`FrameDigest` adds the frame's size itself).
        static let jobOutsideLayers = Omitted(
            keys: ["layers"], inside: ["output": ["path", "crf", "preset", "gop", "maxBytes"]])
    }

    static func bytes(of node: JSONNode, omitting omitted: Omitted) -> [UInt8] {
        var out: [UInt8] = []
        append(node, omitting: omitted.keys, inside: omitted.inside, to: &out)
        return out
    }

    private static func append(
        _ node: JSONNode, omitting keys: Set<String> = [], inside: [String: Set<String>] = [:],
        to out: inout [UInt8]
    ) {
        switch node.value {
        case .null: out.append(0)
        case .bool(let value): out.append(value ? 2 : 1)
        case .number(let value):
            out.append(3)
            appendWord(value.bitPattern, to: &out)
        case .string(let value):
            out.append(4)
            appendString(value, to: &out)
        case .array(let elements):
            out.append(5)
            appendWord(UInt64(elements.count), to: &out)
            for element in elements { append(element, to: &out) }
        case .object(let members):
            out.append(6)
            let kept = members.filter { !keys.contains($0.key) }
            appendWord(UInt64(kept.count), to: &out)
            for member in kept {
                appendString(member.key, to: &out)
                append(member.value, omitting: inside[member.key] ?? [], to: &out)
            }
        }
    }

    private static func appendWord(_ word: UInt64, to out: inout [UInt8]) {
        withUnsafeBytes(of: word.littleEndian) { out.append(contentsOf: $0) }
    }

    private static func appendString(_ text: String, to out: inout [UInt8]) {
        let utf8 = Array(text.utf8)
        appendWord(UInt64(utf8.count), to: &out)
        out.append(contentsOf: utf8)
    }
}
