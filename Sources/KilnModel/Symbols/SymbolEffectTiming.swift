import Foundation

/// The numbers and curves behind every symbol effect, at speed 1 (documented in
/// docs/job-format.md, "Symbol effects"). Each curve is a pure function of time that is exactly
/// at rest before the effect starts and once it is over.
public enum SymbolEffectTiming {
    // MARK: By-layer stagger

    /// Seconds between the starts of consecutive layers of a `byLayer` effect.
    public static let layerStagger = 0.06

    // MARK: Bounce

    /// One bounce: up and back down.
    public static let bounceCycle = 0.5
    /// The height of a bounce, in symbol heights.
    public static let bounceRise = 0.12
    /// How much bigger (up) or smaller (down) the symbol is at the top of a bounce.
    public static let bounceStretch = 0.05

    /// 0…1…0 over one cycle: a thrown object's height (a parabola), so the symbol leaves and
    /// lands fast and hangs at the top.
    public static func bounceHeight(atCycleFraction u: Double) -> Double {
        guard u > 0, u < 1 else { return 0 }
        return 4 * u * (1 - u)
    }

    // MARK: Pulse

    public static let pulseCycle = 1.0
    /// The opacity at the deepest point of a pulse.
    public static let pulseLowestOpacity = 0.4

    /// 1 → `pulseLowestOpacity` → 1 over one cycle, along sin².
    public static func pulseOpacity(atCycleFraction u: Double) -> Double {
        guard u > 0, u < 1 else { return 1 }
        let s = sin(Double.pi * u)
        return 1 - (1 - pulseLowestOpacity) * s * s
    }

    // MARK: Variable colour and variable value

    /// How long each step of variable colour holds one lit set.
    public static let variableColorStep = 0.2
    /// The cross-fade from one lit set to the next, at the start of each step (easeInOut).
    public static let variableColorFade = 0.1
    /// The opacity of a layer that variable colour does not light: `dimInactiveLayers`…
    public static let dimmedOpacity = 0.35
    /// …and `hideInactiveLayers`.
    public static let hiddenOpacity = 0.0
    /// The opacity of a layer above the variable value.
    public static let unlitOpacity = 0.35
    /// The window over which a change of variable value cross-fades.
    public static let variableValueFade = 0.25
    /// Samples of the variable value in that window.
    public static let variableValueSamples = 25

    // MARK: Scale

    public static let scaleUpFactor = 1.2
    public static let scaleDownFactor = 0.8
    /// Scale moving in and out (SwiftUI's snappy-ish spring; a little overshoot).
    public static let scaleSpring = SettledSpring(Spring(response: 0.4, dampingFraction: 0.75))

    // MARK: Appear and disappear

    /// The scale of a hidden symbol (its opacity is 0).
    public static let hiddenScale = 0.5
    /// How far a hidden symbol sits from its place with `.up` / `.down`, in symbol heights.
    public static let hiddenOffset = 0.25
    public static let presenceSpring = SettledSpring(Spring(response: 0.4, dampingFraction: 0.85))

    // MARK: Replace

    /// The old artwork's exit (easeIn).
    public static let replaceExit = 0.2
    /// The scale the old artwork shrinks to (`down`) or grows to (`up`) as it fades.
    public static let replaceExitDownScale = 0.5
    public static let replaceExitUpScale = 1.3
    /// The scale the new artwork grows from (`up`) as it fades in along `presenceSpring`.
    public static let replaceEntryScale = 0.5
    /// Seconds between the layers of a `byLayer` replace.
    public static let replaceStagger = 0.04

    // MARK: Helpers

    /// `from` at 0, `to` at 1 exactly (a plain lerp may miss either end by a rounding).
    static func mix(_ from: Double, _ to: Double, _ progress: Double) -> Double {
        if progress == 0 { return from }
        if progress == 1 { return to }
        return from + (to - from) * progress
    }

    /// The opacity of a layer lit by `amount` (0…1), `floor` when not lit at all; exactly 1 at 1.
    static func litOpacity(_ amount: Double, floor: Double) -> Double {
        1 - (1 - floor) * (1 - amount)
    }
}
