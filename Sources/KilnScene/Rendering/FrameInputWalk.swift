import Foundation
import KilnModel
import KilnText

/// Where `FrameInputWalk` writes what a frame reads: a hash in KilnExport, a byte log in tests.
public protocol FrameDigestSink {
    mutating func update(_ bytes: UnsafeRawBufferPointer)
}

extension FrameDigestSink {
    public mutating func update(bytes: [UInt8]) {
        update(word: UInt64(bytes.count))
        bytes.withUnsafeBytes { update($0) }
    }

    public mutating func update(word: UInt64) {
        withUnsafeBytes(of: word.littleEndian) { update($0) }
    }

    public mutating func update(string: String) {
        update(bytes: Array(string.utf8))
    }
}

/// Walks a job's layer tree at one frame time and writes everything those pixels read (each
/// shown layer's `FrameInputs`: its JSON, its animated values at that time, its files, its
/// transition phase) into a sink, so two times that write the same bytes and read no frame time
/// themselves show the same pixels. Layers not shown at the time write only that they are
/// hidden: a caption edited in one scene leaves the other scenes' frames alone.
public enum FrameInputWalk {
    /// Writes the layers' inputs at job time `time`; true when something shown reads the time
    /// itself (then the frame's digest must include it). `file` gives a file's content digest.
    public static func feed<Sink: FrameDigestSink>(
        _ layers: [LayerNode], at time: Double, file: (URL) -> [UInt8], into sink: inout Sink
    ) -> Bool {
        var readsTime = false
        sink.update(word: UInt64(layers.count))
        for layer in layers where feed(layer, at: time, file: file, into: &sink) {
            readsTime = true
        }
        return readsTime
    }

    private static let hidden: UInt64 = 0x6869_6464_656e
    private static let shown: UInt64 = 0x73_686f_776e

    private static func feed<Sink: FrameDigestSink>(
        _ layer: LayerNode, at time: Double, file: (URL) -> [UInt8], into sink: inout Sink
    ) -> Bool {
        sink.update(string: layer.kind)
        var readsTime = false
        if let composition = layer.content as? CompositionLayer, composition.timing.localTime(at: time) == nil
        {
            sink.update(word: hidden)
            return false
        }
        if let lifetime = layer.lifetime {
            if layer.content is SymbolLayer, lifetime.transition.content is SymbolEffectTransition {
                // Such a symbol enters and leaves layer by layer, on its own clock.
                readsTime = true
            } else {
                guard let phase = lifetime.phase(at: time) else {
                    sink.update(word: hidden)
                    return false
                }
                sink.update(word: phase.bitPattern)
                sink.update(word: lifetime.layoutPresence(at: time).bitPattern)
                // A removal that interrupts the entrance blends in what the entrance reached.
                sink.update(word: lifetime.disappear.map { time >= $0 ? 1 : 0 } ?? 2)
            }
        }
        sink.update(word: shown)
        let inputs = layer.frameInputs
        sink.update(bytes: inputs.source)
        sink.update(word: UInt64(inputs.animated.count))
        for value in inputs.animated { sink.update(bytes: value.bytes(at: time)) }
        sink.update(word: UInt64(inputs.files.count))
        for url in inputs.files { sink.update(bytes: file(url)) }
        if inputs.readsFrameTime || inputs.declaredEffects.contains(where: { $0.readsFrameTime(at: time) })
            || (layer.content as? any FrameTimeDeclaring)?.readsFrameTime(at: time) ?? true
        {
            readsTime = true
        }
        sink.update(word: UInt64(layer.children.count))
        for child in layer.children where feed(child, at: time, file: file, into: &sink) {
            readsTime = true
        }
        if let mask = layer.mask {
            sink.update(word: 1)
            if feed(mask.layer, at: time, file: file, into: &sink) { readsTime = true }
        } else {
            sink.update(word: 0)
        }
        return readsTime
    }
}

extension DecodeContext {
    /// The font files `layout` was shaped with (found by fontconfig as the job loads) are part of
    /// what the layer being decoded reads: another file for the same family changes its frames'
    /// digests.
    func recordFonts(of layout: TextLayout) {
        var seen: Set<String> = []
        for line in layout.lines {
            for run in line.runs where seen.insert(run.face.path).inserted {
                recordFrameInput(file: URL(fileURLWithPath: run.face.path))
            }
        }
    }
}

// Kinds and effects whose pixels follow from their JSON and animated values alone. Checked by
// reading each one's `prepare`/`stage`: anything reading `time` other than through
// `Animated.value(at:)` stays undeclared (video, transcript, audiogram, symbol, scroll,
// composition, ripple), and is digested with the frame time.

extension SolidLayer: FrameTimeDeclaring {
    public func readsFrameTime(at time: Double) -> Bool { false }
}

extension MeshGradientLayer: FrameTimeDeclaring {
    public func readsFrameTime(at time: Double) -> Bool { false }
}

extension ShapeLayer: FrameTimeDeclaring {
    public func readsFrameTime(at time: Double) -> Bool { false }
}

extension GroupLayer: FrameTimeDeclaring {
    public func readsFrameTime(at time: Double) -> Bool { false }
}

extension StackLayer: FrameTimeDeclaring {
    public func readsFrameTime(at time: Double) -> Bool { false }
}

extension ImageLayer: FrameTimeDeclaring {
    public func readsFrameTime(at time: Double) -> Bool { false }
}

extension TextLayer: FrameTimeDeclaring {
    /// A reveal plays on the frame time until its last element has arrived.
    public func readsFrameTime(at time: Double) -> Bool {
        reveal.map { time < $0.at + $0.timing.totalDuration } ?? false
    }
}

extension BrightnessEffect: FrameTimeDeclaring {
    public func readsFrameTime(at time: Double) -> Bool { false }
}

extension ContrastEffect: FrameTimeDeclaring {
    public func readsFrameTime(at time: Double) -> Bool { false }
}

extension SaturationEffect: FrameTimeDeclaring {
    public func readsFrameTime(at time: Double) -> Bool { false }
}

extension GrayscaleEffect: FrameTimeDeclaring {
    public func readsFrameTime(at time: Double) -> Bool { false }
}

extension HueRotationEffect: FrameTimeDeclaring {
    public func readsFrameTime(at time: Double) -> Bool { false }
}

extension OpacityEffect: FrameTimeDeclaring {
    public func readsFrameTime(at time: Double) -> Bool { false }
}

extension BlurEffect: FrameTimeDeclaring {
    public func readsFrameTime(at time: Double) -> Bool { false }
}

extension TintEffect: FrameTimeDeclaring {
    public func readsFrameTime(at time: Double) -> Bool { false }
}

extension GradientMapEffect: FrameTimeDeclaring {
    public func readsFrameTime(at time: Double) -> Bool { false }
}

extension ShearEffect: FrameTimeDeclaring {
    public func readsFrameTime(at time: Double) -> Bool { false }
}

extension PixelateEffect: FrameTimeDeclaring {
    public func readsFrameTime(at time: Double) -> Bool { false }
}

extension VignetteEffect: FrameTimeDeclaring {
    public func readsFrameTime(at time: Double) -> Bool { false }
}

extension ShadowEffect: FrameTimeDeclaring {
    public func readsFrameTime(at time: Double) -> Bool { false }
}

extension WaveEffect: FrameTimeDeclaring {
    /// The wave travels by time × speed: still only while the speed is a constant 0.
    public func readsFrameTime(at time: Double) -> Bool {
        !(speed.isConstant && speed.value(at: 0) == 0)
    }
}

extension BackgroundWarpEffect: FrameTimeDeclaring {
    /// The noise drifts by time × speed: still only while the speed is a constant 0.
    public func readsFrameTime(at time: Double) -> Bool {
        !(speed.isConstant && speed.value(at: 0) == 0)
    }
}
