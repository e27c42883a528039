import Foundation
import KilnModel

/// Every layer kind, effect and transition Kiln knows. A new one is one file with its parameter
/// table plus one line here. Comments call the source documents the effects re-create "the seed"
/// (the seed's ripple, the seed's podcast scene): see docs/glossary.md.
public enum LayerRegistry {
    public static let kinds: [LayerKind] = [
        SolidLayer.kind,
        MeshGradientLayer.kind,
        ShapeLayer.kind,
        GroupLayer.kind,
        StackLayer.kind,
        ScrollLayer.kind,
        ImageLayer.kind,
        VideoLayer.kind,
        TextLayer.kind,
        TranscriptLayer.kind,
        CaptionsLayer.kind,
        SymbolLayer.kind,
        AudiogramLayer.kind,
        CompositionLayer.kind,
        PointerLayer.kind,
        DeviceLayer.kind,
    ]

    public static let effects: [EffectKind] = [
        BrightnessEffect.kind,
        ContrastEffect.kind,
        SaturationEffect.kind,
        GrayscaleEffect.kind,
        HueRotationEffect.kind,
        OpacityEffect.kind,
        BlurEffect.kind,
        TintEffect.kind,
        GradientMapEffect.kind,
        ShearEffect.kind,
        WaveEffect.kind,
        RippleEffect.kind,
        BackgroundWarpEffect.kind,
        PixelateEffect.kind,
        VignetteEffect.kind,
        ShadowEffect.kind,
    ]

    /// Transitions are pure values: those made of modifier values live in the model
    /// (`KilnModel/Transitions/`), those that add effect stages (masks) beside their stages
    /// (`KilnScene/Transitions/`). Listing them here is what makes a job able to name them.
    public static let transitions: [TransitionKind] = [
        IdentityTransition.kind,
        OpacityTransition.kind,
        ScaleTransition.kind,
        MoveTransition.kind,
        SlideTransition.kind,
        OffsetTransition.kind,
        BlurTransition.kind,
        TwirlTransition.kind,
        BlurReplaceTransition.kind,
        CustomTransition.kind,
        CombinedTransition.kind,
        AsymmetricTransition.kind,
        SymbolEffectTransition.kind,
        IrisTransition.kind,
        WipeTransition.kind,
        DissolveTransition.kind,
        ClockWipeTransition.kind,
        BarnDoorTransition.kind,
        LumaFadeTransition.kind,
    ]

    /// Loads a job with every registered layer kind, effect and transition.
    /// `images` decodes the files image layers name; without one, a job with images does not load.
    /// `videos` opens video layers' clips; without one, a job with videos does not load.
    /// `audio` probes the soundtrack; without one, only its existence is checked.
    public static func load(
        file: String, images: (any ImageDecoding)? = nil, videos: (any VideoDecoding)? = nil,
        audio: (any AudioProbing)? = nil, options: JobLoadOptions = JobLoadOptions()
    ) throws(JobLoadError) -> Job {
        try JobLoader.load(
            file: file, kinds: kinds, effects: effects, transitions: transitions,
            services: services(images, videos, audio),
            options: options)
    }

    public static func decode(
        bytes: [UInt8], file: String, baseDirectory: URL, images: (any ImageDecoding)? = nil,
        videos: (any VideoDecoding)? = nil, audio: (any AudioProbing)? = nil,
        options: JobLoadOptions = JobLoadOptions()
    ) throws(JobLoadError) -> Job {
        try JobLoader.decode(
            bytes: bytes, file: file, baseDirectory: baseDirectory, kinds: kinds, effects: effects,
            transitions: transitions, services: services(images, videos, audio), options: options)
    }

    private static func services(
        _ images: (any ImageDecoding)?, _ videos: (any VideoDecoding)?, _ audio: (any AudioProbing)?
    ) -> DecodeServices {
        var services = DecodeServices()
        if let images { services.register(images, as: (any ImageDecoding).self) }
        if let videos { services.register(videos, as: (any VideoDecoding).self) }
        if let audio { services.register(audio, as: (any AudioProbing).self) }
        // The probe that opens the files usually analyses them too (soundtrack-driven values).
        if let analyzer = audio as? any AudioAnalyzing {
            services.register(analyzer, as: (any AudioAnalyzing).self)
        }
        return services
    }
}
