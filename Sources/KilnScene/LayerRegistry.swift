import Foundation
import KilnModel

/// Every layer kind and effect Kiln knows. A new one is one file with its parameter table plus one
/// line here.
public enum LayerRegistry {
    public static let kinds: [LayerKind] = [
        SolidLayer.kind,
        MeshGradientLayer.kind,
        ShapeLayer.kind,
        GroupLayer.kind,
        StackLayer.kind,
    ]

    public static let effects: [EffectKind] = [
        BrightnessEffect.kind,
        ContrastEffect.kind,
        SaturationEffect.kind,
        GrayscaleEffect.kind,
        HueRotationEffect.kind,
        OpacityEffect.kind,
    ]

    /// Loads a job with every registered layer kind and effect.
    public static func load(file: String) throws(JobLoadError) -> Job {
        try JobLoader.load(file: file, kinds: kinds, effects: effects)
    }

    public static func decode(bytes: [UInt8], file: String, baseDirectory: URL) throws(JobLoadError) -> Job {
        try JobLoader.decode(
            bytes: bytes, file: file, baseDirectory: baseDirectory, kinds: kinds, effects: effects)
    }
}
