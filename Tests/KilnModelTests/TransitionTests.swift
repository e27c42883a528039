import Foundation
import KilnModel
import XCTest

/// The transitions these tests write, registered as the scene module's registry registers them.
private let modelTransitions: [TransitionKind] =
    ([
        IdentityTransition.self, OpacityTransition.self, ScaleTransition.self, MoveTransition.self,
        OffsetTransition.self, BlurTransition.self, TwirlTransition.self, CustomTransition.self,
        CombinedTransition.self, AsymmetricTransition.self,
    ] as [any TransitionContent.Type]).map { $0.kind }

final class TransitionTests: XCTestCase {
    let container = SIMD2<Double>(1920, 1080)

    /// The seed's Twirl: identity at 0; scale 0.5, opacity 0, blur 10 off identity; +360° and
    /// brightness +1 while appearing (−1), −360° and no brightness when disappearing (+1).
    func testTwirlGivesTheSeedValuesAtTheThreePhases() {
        let appearing = Transition.twirl.values(phase: -1, container: container)
        XCTAssertEqual(appearing.scale, 0.5)
        XCTAssertEqual(appearing.opacity, 0)
        XCTAssertEqual(appearing.blur, 10)
        XCTAssertEqual(appearing.rotation, 360)
        XCTAssertEqual(appearing.brightness, 1)

        XCTAssertEqual(Transition.twirl.values(phase: 0, container: container), .identity)

        let disappearing = Transition.twirl.values(phase: 1, container: container)
        XCTAssertEqual(disappearing.scale, 0.5)
        XCTAssertEqual(disappearing.opacity, 0)
        XCTAssertEqual(disappearing.blur, 10)
        XCTAssertEqual(disappearing.rotation, -360)
        XCTAssertEqual(disappearing.brightness, 0)

        let halfway = Transition.twirl.values(phase: -0.5, container: container)
        XCTAssertEqual(halfway.scale, 0.75, accuracy: 1e-12)
        XCTAssertEqual(halfway.rotation, 180, accuracy: 1e-12)
        XCTAssertEqual(halfway.brightness, 0.5, accuracy: 1e-12)
    }

    func testBuiltInsMoveLinearlyFromIdentityToTheirFarValues() {
        XCTAssertEqual(
            Transition.opacity.values(phase: -0.25, container: container).opacity, 0.75, accuracy: 1e-12)
        XCTAssertEqual(
            Transition.scale(0).values(phase: 0.5, container: container).scale, 0.5, accuracy: 1e-12)
        XCTAssertEqual(Transition.blur(20).values(phase: 1, container: container).blur, 20)
        XCTAssertEqual(Transition.move(.leading).values(phase: -1, container: container).offsetX, -1920)
        XCTAssertEqual(Transition.move(.bottom).values(phase: 0.5, container: container).offsetY, 540)
        let slide = Transition.slide
        XCTAssertEqual(slide.values(phase: -1, container: container).offsetX, -1920)
        XCTAssertEqual(slide.values(phase: 1, container: container).offsetX, 1920)
    }

    func testCombinedTransitionsComposeTheirModifiers() {
        let combined = Transition.combined([.opacity, .scale(0.5), .blur(3), .blur(4)])
        let v = combined.values(phase: -1, container: container)
        XCTAssertEqual(v.opacity, 0)
        XCTAssertEqual(v.scale, 0.5)
        XCTAssertEqual(v.blur, 5, accuracy: 1e-12, "gaussian blurs add variances")
    }

    func testCustomTransitionMapsThePhaseThroughItsTables() {
        let custom = Transition.custom(
            ModifierMappings([
                (
                    .rotation,
                    Mapping(input: .phase, curve: .table([SIMD2(-1, 90), SIMD2(0, 0), SIMD2(1, -45)]))
                ),
                (.opacity, Mapping(input: .phase, curve: .table([SIMD2(-1, 0), SIMD2(0, 1)]))),
            ]))
        XCTAssertEqual(custom.values(phase: -0.5, container: container).rotation, 45, accuracy: 1e-12)
        XCTAssertEqual(custom.values(phase: 0.5, container: container).rotation, -22.5, accuracy: 1e-12)
        XCTAssertEqual(custom.values(phase: 0.5, container: container).opacity, 1, "clamped beyond the table")
        XCTAssertEqual(custom.values(phase: 0, container: container), .identity)
    }

    func testMappingsClampTablesButNotLines() {
        let table = Mapping(input: .minY, curve: .table([SIMD2(100, 0), SIMD2(200, 1)]))
        XCTAssertEqual(table.value(for: 50), 0)
        XCTAssertEqual(table.value(for: 150), 0.5)
        XCTAssertEqual(table.value(for: 500), 1)
        let line = Mapping(input: .minY, curve: .linear(times: 0.1, plus: 0))
        XCTAssertEqual(line.value(for: 900), 90, accuracy: 1e-12)
        let inputs = MappingInputs(phase: 0.25, frame: SIMD4(10, 20, 110, 60))
        XCTAssertEqual(inputs[.midX], 60)
        XCTAssertEqual(inputs[.height], 40)
        XCTAssertEqual(inputs[.phase], 0.25)
    }

    func testLifetimeGivesPhasesAndHidesTheLayerOutsideIt() {
        let lifetime = LayerLifetime(
            appear: 1, disappear: 3, transition: .opacity, animation: .eased(duration: 0.5, easing: .linear))
        XCTAssertNil(lifetime.phase(at: 0.99))
        XCTAssertEqual(lifetime.phase(at: 1), -1)
        XCTAssertEqual(lifetime.phase(at: 1.25)!, -0.5, accuracy: 1e-12)
        XCTAssertEqual(lifetime.phase(at: 2), 0)
        XCTAssertEqual(lifetime.phase(at: 3), 0)
        XCTAssertEqual(lifetime.phase(at: 3.25)!, 0.5, accuracy: 1e-12)
        XCTAssertNil(lifetime.phase(at: 3.5))
    }

    func testSpringLifetimesSettleAndNeverReadOvershootAsRemoval() {
        let bouncy = LayerLifetime(
            appear: 0, disappear: nil, transition: .twirl,
            animation: .spring(Spring(response: 0.5, dampingFraction: 0.3)))
        for step in 0..<400 {
            let phase = bouncy.phase(at: Double(step) / 100)!
            XCTAssertLessThanOrEqual(phase, 0)
        }
        let settle = TransitionAnimation.spring(.default).settleTime
        XCTAssertGreaterThan(settle, 0.5)
        XCTAssertLessThan(settle, 2)
        XCTAssertLessThan(abs(1 - Spring.default.progress(at: settle)), 1e-3)
    }

    func testLayerKeysDecodeIntoALifetimeAndMappings() throws {
        let job = try JobLoader.decode(
            bytes: Array(
                """
                {"kiln": 1, "output": {"width": 64, "height": 64, "fps": 30, "duration": 1},
                 "layers": [{"type": "solid", "color": "#ffffff", "appear": 0.5, "disappear": 2,
                             "transition": [{"move": "bottom"}, "opacity"],
                             "transitionAnimation": {"duration": 0.3, "ease": "easeOut"},
                             "visualEffect": {"hueRotation": {"of": "minY", "times": 0.1}, "scale": 0.9}}]}
                """.utf8), file: "job.json", baseDirectory: URL(fileURLWithPath: "/tmp"), kinds: testKinds,
            transitions: modelTransitions)
        let layer = try XCTUnwrap(job.layers.first)
        let lifetime = try XCTUnwrap(layer.lifetime)
        XCTAssertEqual(lifetime.appear, 0.5)
        XCTAssertEqual(lifetime.animation, .eased(duration: 0.3, easing: .easeOut))
        XCTAssertEqual(lifetime.transition.values(phase: -1, container: SIMD2(64, 64)).offsetY, 64)
        let effect = try XCTUnwrap(layer.visualEffect).values(
            for: MappingInputs(frame: SIMD4(0, 300, 64, 364)))
        XCTAssertEqual(effect.hueRotation, 30, accuracy: 1e-12)
        XCTAssertEqual(effect.scale, 0.9)
    }

    let badJob = """
        {"kiln": 1, "output": {"width": 64, "height": 64, "fps": 30, "duration": 1},
         "layers": [{"type": "solid", "color": "#ffffff", "appear": 1, "transition": "twril"},
                    {"type": "solid", "color": "#ffffff", "transition": "opacity"},
                    {"type": "solid", "color": "#ffffff", "appear": 2, "disappear": 1},
                    {"type": "solid", "color": "#ffffff", "scrollTransition": {"opacity": [[-1, 0], [1, 1]]}},
                    {"type": "solid", "color": "#ffffff", "visualEffect": {"hue": 3, "blur": [[1, 0], [0, 1]]}}]}
        """

    func testBadTransitionsAreReportedWithTheirPaths() {
        var diagnostics: [Diagnostic] = []
        do {
            _ = try JobLoader.decode(
                bytes: Array(badJob.utf8), file: "job.json", baseDirectory: URL(fileURLWithPath: "/tmp"),
                kinds: testKinds, transitions: modelTransitions)
            XCTFail("expected errors")
        } catch {
            XCTAssertEqual(error.exitCode, 65)
            if case .invalid(let found) = error { diagnostics = found }
        }
        let messages = diagnostics.map { "\($0.path): \($0.message)" }
        XCTAssertEqual(messages.count, 6, messages.joined(separator: "\n"))
        XCTAssertTrue(
            messages[0].hasPrefix("layers[0].transition: unknown transition 'twril'; did you mean 'twirl'?"))
        XCTAssertTrue(
            messages[1].hasPrefix("layers[1].transition: 'transition' has no effect without 'appear'"))
        XCTAssertTrue(
            messages[2].hasPrefix("layers[2].disappear: disappear (1 s) must be after appear (2 s)"))
        XCTAssertTrue(messages[3].hasPrefix("layers[3].scrollTransition: 'scrollTransition' only works"))
        XCTAssertTrue(messages[4].hasPrefix("layers[4].visualEffect.hue: unknown key 'hue'"))
        XCTAssertTrue(
            messages[5].hasPrefix("layers[4].visualEffect.blur[1]: inputs must be strictly increasing"))
    }

    /// Removed halfway through its entrance, a layer leaves from where it was: no jump to the
    /// identity when the removal begins, and the leftover fades as the removal proceeds.
    func testRemovalDuringTheEntranceStartsFromTheInterruptedState() throws {
        let lifetime = LayerLifetime(
            appear: 0, disappear: 0.25, transition: .scale(0),
            animation: .eased(duration: 0.5, easing: .linear))
        let before = try XCTUnwrap(lifetime.values(at: 0.2499, container: container)).scale
        let at = try XCTUnwrap(lifetime.values(at: 0.25, container: container)).scale
        XCTAssertEqual(before, 0.5, accuracy: 1e-3)
        XCTAssertEqual(at, 0.5, accuracy: 1e-9, "the removal starts at the entrance's scale")
        let later = try XCTUnwrap(lifetime.values(at: 0.5, container: container)).scale
        XCTAssertEqual(later, 0.25, accuracy: 1e-9, "halfway out: 1 − 0.5, less half the leftover 0.5")
        XCTAssertNil(lifetime.values(at: 0.75, container: container))
    }

    /// Every written form of a transition decodes to the transition it names.
    func testTransitionFormsDecode() throws {
        func transition(_ json: String) throws -> Transition {
            let job = try JobLoader.decode(
                bytes: Array(
                    """
                    {"kiln": 1, "output": {"width": 64, "height": 64, "fps": 30, "duration": 1},
                     "layers": [{"type": "solid", "color": "#ffffff", "appear": 0, "transition": \(json),
                                 "transitionAnimation": {"spring": {"duration": 0.4, "bounce": 0.2}}}]}
                    """.utf8), file: "job.json", baseDirectory: URL(fileURLWithPath: "/tmp"),
                kinds: testKinds, transitions: modelTransitions
            )
            return try XCTUnwrap(job.layers.first?.lifetime).transition
        }
        let size = SIMD2<Double>(100, 50)
        XCTAssertEqual(try transition(#"{"scale": 0.5}"#).values(phase: -1, container: size).scale, 0.5)
        XCTAssertEqual(try transition(#"{"blur": 7}"#).values(phase: 1, container: size).blur, 7)
        let offset = try transition(#"{"offset": [30, -20]}"#).values(phase: -0.5, container: size)
        XCTAssertEqual(offset.offsetX, 15)
        XCTAssertEqual(offset.offsetY, -10)
        XCTAssertEqual(try transition(#""scale""#).values(phase: 1, container: size).scale, 0)
        let asymmetric = try transition(#"{"insertion": {"move": "top"}, "removal": "opacity"}"#)
        XCTAssertEqual(asymmetric.values(phase: -1, container: size).offsetY, -50)
        XCTAssertEqual(asymmetric.values(phase: 1, container: size).opacity, 0)
        XCTAssertEqual(asymmetric.values(phase: 1, container: size).offsetY, 0)
        let custom = try transition(#"{"custom": {"rotation": [[-1, 90], [0, 0]], "opacity": 0.5}}"#)
        XCTAssertEqual(custom.values(phase: -0.5, container: size).rotation, 45)
        XCTAssertEqual(custom.values(phase: -0.5, container: size).opacity, 0.5)
    }

    /// The diagnostics for one written transition, as "path: message".
    func problems(_ json: String) -> [String] {
        let context = makeContext()
        let decoder = TransitionDecoder(kinds: modelTransitions, context: context)
        XCTAssertNil(decoder.decode(parse(json), path: JSONPath.root.key("transition")), json)
        return context.diagnostics.map { "\($0.path): \($0.message)" }
    }

    func testNamesComeFromTheRegisteredKinds() {
        XCTAssertEqual(
            problems(#"{"scael": 0.5}"#),
            [
                "transition.scael: unknown transition 'scael'; did you mean 'scale'? (known: identity, opacity, "
                    + "scale, move, offset, blur, twirl, custom, combined, asymmetric)"
            ])
        XCTAssertEqual(
            problems(#""move""#),
            [
                #"transition: 'move' needs a value, e.g. {"move": "bottom"} "#
                    + "(edge: one of leading, trailing, top, bottom)"
            ])
        XCTAssertEqual(
            problems(#"{"twirl": 1}"#),
            [#"transition.twirl: 'twirl' takes no value; write it as the string "twirl""#])
        XCTAssertEqual(
            problems(#"{"move": "up"}"#),
            ["transition.move.edge: 'up' is not one of leading, trailing, top, bottom"])
        XCTAssertEqual(
            problems(#"[]"#), ["transition: a combined transition needs at least one transition"])
        XCTAssertEqual(
            problems(#"{"insertion": "opacity"}"#), ["transition: missing required key 'removal'"])
        XCTAssertEqual(
            problems(#"[{"offset": [1]}, "twril"]"#).count, 2, "every part of a combined list is checked")
    }

    /// The named forms of the structural transitions and the object form of a shorthand decode
    /// like the short forms.
    func testLongFormsDecodeLikeTheShortOnes() throws {
        let decoder = TransitionDecoder(kinds: modelTransitions, context: makeContext())
        let size = SIMD2<Double>(100, 50)
        func values(_ json: String, at phase: Double) throws -> ModifierValues {
            try XCTUnwrap(decoder.decode(parse(json), path: .root), json).values(
                phase: phase, container: size)
        }
        for phase in [-1, -0.5, 0.5, 1] {
            XCTAssertEqual(
                try values(#"{"combined": ["opacity", {"blur": 4}]}"#, at: phase),
                try values(#"["opacity", {"blur": 4}]"#, at: phase))
            XCTAssertEqual(
                try values(#"{"asymmetric": {"insertion": "twirl", "removal": {"move": "top"}}}"#, at: phase),
                try values(#"{"insertion": "twirl", "removal": {"move": "top"}}"#, at: phase))
            XCTAssertEqual(
                try values(#"{"scale": {"scale": 0.25}}"#, at: phase),
                try values(#"{"scale": 0.25}"#, at: phase))
        }
        let nested = try XCTUnwrap(
            decoder.decode(parse(#"{"insertion": ["opacity", "twirl"], "removal": "blur"}"#), path: .root))
        XCTAssertEqual(nested.kindsUsed, ["asymmetric", "combined", "opacity", "twirl", "blur"])
    }
}
