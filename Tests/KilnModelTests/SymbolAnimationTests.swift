import KilnModel
import XCTest

final class SymbolAnimationTests: XCTestCase {
    private let plain = [
        SymbolLayerInfo(name: "a"), SymbolLayerInfo(name: "b"), SymbolLayerInfo(name: "c"),
    ]
    private let variable = [
        SymbolLayerInfo(name: "base"),
        SymbolLayerInfo(name: "v1", variableThreshold: 0),
        SymbolLayerInfo(name: "v2", variableThreshold: 0.33),
        SymbolLayerInfo(name: "v3", variableThreshold: 0.66),
    ]

    private func effect(
        _ text: String, _ behavior: SymbolEffect.Behavior, repeatCount: Int? = nil, animated: Bool = true
    ) throws -> SymbolEffect {
        SymbolEffect(
            name: try SymbolEffectName.parse(text), behavior: behavior, repeatCount: repeatCount,
            animated: animated)
    }

    private func drawings(
        _ effects: [SymbolEffect], at time: Double, layers: [SymbolLayerInfo], value: Animated<Double>? = nil
    ) -> [SymbolDrawing] {
        SymbolAnimation(effects: effects, replacements: [], variableValue: value, presence: nil)
            .drawings(at: time, layers: { _ in layers })
    }

    private func single(
        _ effects: [SymbolEffect], at time: Double, layers: [SymbolLayerInfo], value: Animated<Double>? = nil,
        file: StaticString = #filePath, line: UInt = #line
    ) -> SymbolDrawing {
        let result = drawings(effects, at: time, layers: layers, value: value)
        XCTAssertEqual(result.count, 1, file: file, line: line)
        return result[0]
    }

    private func samples(from start: Double, to end: Double, step: Double = 0.001) -> [Double] {
        (0...Int(((end - start) / step).rounded())).map { start + Double($0) * step }
    }

    // MARK: Bounce

    func testBounceRepeatTwoMakesExactlyTwoCyclesThenRest() throws {
        let bounce = try effect("bounce.up.wholeSymbol", .discrete(triggers: [1]), repeatCount: 2)
        let offsets = samples(from: 0, to: 3).map { single([bounce], at: $0, layers: plain).whole.offset.y }
        var peaks = 0
        for index in 1..<(offsets.count - 1)
        where offsets[index] < offsets[index - 1] && offsets[index] < offsets[index + 1] {
            peaks += 1
        }
        XCTAssertEqual(peaks, 2)
        XCTAssertLessThan(offsets.min() ?? 0, -0.1)
        for time in samples(from: 0, to: 0.999, step: 0.01) + samples(from: 2, to: 3, step: 0.01) {
            XCTAssertTrue(single([bounce], at: time, layers: plain).isRest, "not at rest at \(time)")
        }
        XCTAssertEqual(single([bounce], at: 2, layers: plain).whole, .rest)
        XCTAssertFalse(single([bounce], at: 1.999, layers: plain).isRest)
    }

    func testATriggerDuringABounceQueuesItsCycleAfterTheOneUnderWay() throws {
        let bounce = try effect("bounce.wholeSymbol", .discrete(triggers: [1, 1.2]))
        let offsets = samples(from: 0.9, to: 2.1).map {
            single([bounce], at: $0, layers: plain).whole.offset.y
        }
        let peaks = (1..<(offsets.count - 1)).filter {
            offsets[$0] < offsets[$0 - 1] && offsets[$0] < offsets[$0 + 1]
        }
        XCTAssertEqual(peaks.count, 2)
        XCTAssertFalse(single([bounce], at: 1.999, layers: plain).isRest)
        XCTAssertTrue(single([bounce], at: 2, layers: plain).isRest)
    }

    func testByLayerStaggerOrdersLayers() throws {
        let bounce = try effect("bounce", .discrete(triggers: [1]))
        var starts: [Double?] = Array(repeating: nil, count: plain.count)
        for time in samples(from: 0.9, to: 1.5) {
            let poses = single([bounce], at: time, layers: plain).layers
            for index in poses.indices where starts[index] == nil && !poses[index].isRest {
                starts[index] = time
            }
        }
        let found = starts.compactMap { $0 }
        XCTAssertEqual(found.count, 3)
        for (index, start) in found.enumerated() {
            XCTAssertEqual(start, 1 + SymbolEffectTiming.layerStagger * Double(index), accuracy: 0.0015)
        }
        let end = 1 + SymbolEffectTiming.bounceCycle + 2 * SymbolEffectTiming.layerStagger
        XCTAssertTrue(single([bounce], at: end, layers: plain).isRest)
        XCTAssertFalse(single([bounce], at: end - 0.002, layers: plain).layers[2].isRest)
    }

    func testValueTriggersFireAtEachChangeOnly() throws {
        let json = """
            {"effect": "pulse.wholeSymbol", "value": {"keyframes": [
              {"t": 0, "v": 0}, {"t": 1, "v": 1}, {"t": 2, "v": 1}, {"t": 3, "v": 2}]}}
            """
        let context = makeContext()
        let pulse = try XCTUnwrap(SymbolEffectDecoding.decode(parse(json), path: .root, context: context))
        XCTAssertEqual(pulse.behavior, .discrete(triggers: [1, 3]))
        XCTAssertTrue(single([pulse], at: 0.99, layers: plain).isRest)
        XCTAssertLessThan(single([pulse], at: 1.5, layers: plain).whole.opacity, 0.5)
        XCTAssertTrue(single([pulse], at: 2.5, layers: plain).isRest)
        XCTAssertLessThan(single([pulse], at: 3.5, layers: plain).whole.opacity, 0.5)
        XCTAssertTrue(single([pulse], at: 4, layers: plain).isRest)
    }

    // MARK: Indefinite state effects

    func testIndefiniteScaleReturnsExactlyToRest() throws {
        let scale = try effect("scale.up", .indefinite(active: [.init(start: 1, end: 4)]))
        XCTAssertTrue(single([scale], at: 0.99, layers: plain).isRest)
        XCTAssertGreaterThan(single([scale], at: 1.3, layers: plain).layers[0].scale.x, 1.1)
        XCTAssertEqual(single([scale], at: 3.9, layers: plain).layers[0].scale, SIMD2(repeating: 1.2))
        let settle = SymbolEffectTiming.scaleSpring.settleTime + 2 * SymbolEffectTiming.layerStagger
        XCTAssertFalse(single([scale], at: 4.1, layers: plain).isRest)
        for time in samples(from: 4 + settle + 1e-9, to: 6, step: 0.01) {
            XCTAssertEqual(
                single([scale], at: time, layers: plain).layers, [SymbolPose](repeating: .rest, count: 3))
        }
    }

    func testNotAnimatedJumps() throws {
        let scale = try effect(
            "scale.down.wholeSymbol", .indefinite(active: [.init(start: 1, end: 2)]), animated: false)
        XCTAssertTrue(single([scale], at: 0.999, layers: plain).isRest)
        XCTAssertEqual(single([scale], at: 1, layers: plain).whole.scale, SIMD2(repeating: 0.8))
        XCTAssertEqual(single([scale], at: 1.999, layers: plain).whole.scale, SIMD2(repeating: 0.8))
        XCTAssertTrue(single([scale], at: 2, layers: plain).isRest)
        let pulse = try effect("pulse", .indefinite(active: [.init(start: 0, end: 1.5)]), animated: false)
        XCTAssertFalse(single([pulse], at: 1.49, layers: plain).isRest)
        XCTAssertTrue(single([pulse], at: 1.5, layers: plain).isRest)
    }

    func testIndefinitePulseFinishesItsCycleWhenSwitchedOff() throws {
        let pulse = try effect("pulse.wholeSymbol", .indefinite(active: [.init(start: 0, end: 1.2)]))
        XCTAssertFalse(single([pulse], at: 1.5, layers: plain).isRest)
        XCTAssertTrue(single([pulse], at: 2, layers: plain).isRest)
        let capped = try effect("pulse.wholeSymbol", .indefinite(active: [.always]), repeatCount: 2)
        XCTAssertFalse(single([capped], at: 1.5, layers: plain).isRest)
        XCTAssertTrue(single([capped], at: 2.5, layers: plain).isRest)
    }

    func testAppearAndDisappearKeepOneDrawingAtZeroOpacity() throws {
        let disappear = try effect("disappear.down", .indefinite(active: [.init(start: 1, end: 3)]))
        XCTAssertTrue(single([disappear], at: 0.5, layers: plain).isRest)
        let hidden = single([disappear], at: 2.5, layers: plain)
        XCTAssertEqual(hidden.layers.map(\.opacity), [0, 0, 0])
        XCTAssertGreaterThan(hidden.layers[0].offset.y, 0)
        let settle = SymbolEffectTiming.presenceSpring.settleTime + 2 * SymbolEffectTiming.layerStagger
        XCTAssertTrue(single([disappear], at: 3 + settle + 1e-9, layers: plain).isRest)

        let appear = try effect("appear.up.wholeSymbol", .indefinite(active: [.init(start: 2, end: nil)]))
        XCTAssertEqual(single([appear], at: 1, layers: plain).whole.opacity, 0)
        XCTAssertGreaterThan(single([appear], at: 1, layers: plain).whole.offset.y, 0)
        XCTAssertTrue(
            single([appear], at: 2 + SymbolEffectTiming.presenceSpring.settleTime + 1e-9, layers: plain)
                .isRest)
    }

    func testPresenceEntersAndLeaves() throws {
        let presence = SymbolPresence(
            appear: 1, disappear: 3, effect: try SymbolEffectName.parse("disappear.down"))
        let animation = SymbolAnimation(effects: [], replacements: [], variableValue: nil, presence: presence)
        let settle = presence.settleTime(layerCount: 3)
        XCTAssertEqual(
            animation.drawings(at: 0.5, layers: { _ in self.plain })[0].layers.map(\.opacity), [0, 0, 0])
        XCTAssertTrue(animation.drawings(at: 1 + settle + 1e-9, layers: { _ in self.plain })[0].isRest)
        let gone = animation.drawings(at: 3 + settle, layers: { _ in self.plain })[0]
        XCTAssertEqual(gone.layers.map(\.opacity), [0, 0, 0])
        XCTAssertGreaterThan(gone.layers[0].offset.y, 0)
    }

    // MARK: Variable value and variable colour

    func testVariableValueLightsExactlyTheReachedLayers() {
        let thresholds: [Double] = [0, 0.25, 0.5, 0.75, 1]
        let layers = thresholds.map { SymbolLayerInfo(name: "\($0)", variableThreshold: $0) }
        let drawing = single([], at: 3, layers: layers, value: .constant(0.5))
        XCTAssertEqual(drawing.layers.map(\.opacity), [1, 1, 1, 0.35, 0.35])
    }

    func testVariableValueChangeCrossFadesMonotonically() {
        let value = Animated<Double>.keyframes([
            Keyframe(time: 0, value: 0.2), Keyframe(time: 1, value: 0.2), Keyframe(time: 1.001, value: 0.9),
        ])
        var previous = 0.0
        var seen: [Double] = []
        for time in samples(from: 0.5, to: 1.6) {
            let opacity = single([], at: time, layers: variable, value: value).layers[3].opacity
            XCTAssertGreaterThanOrEqual(opacity, previous)
            previous = opacity
            seen.append(opacity)
        }
        XCTAssertEqual(seen.first, 0.35)
        XCTAssertEqual(seen.last, 1)
        XCTAssertTrue(seen.contains { $0 > 0.4 && $0 < 0.95 }, "no cross-fade")
        XCTAssertEqual(single([], at: 1.26, layers: variable, value: value).layers[3].opacity, 1)
    }

    private func litSet(_ drawing: SymbolDrawing) -> [Int] {
        drawing.layers.indices.dropFirst().filter { drawing.layers[$0].opacity == 1 }.map { $0 - 1 }
    }

    func testVariableColorLitSets() throws {
        let step = SymbolEffectTiming.variableColorStep
        let cases: [(String, [[Int]], Double)] = [
            ("variableColor", [[0], [1], [2], [0], [1], [2]], 0.35),
            ("variableColor.cumulative", [[0], [0, 1], [0, 1, 2], [0], [0, 1]], 0.35),
            ("variableColor.iterative.reversing.hideInactiveLayers", [[0], [1], [2], [1], [0], [1], [2]], 0),
            ("variableColor.cumulative.reversing", [[0], [0, 1], [0, 1, 2], [0, 1], [0]], 0.35),
        ]
        for (name, expected, floor) in cases {
            let color = try effect(name, .indefinite(active: [.always]))
            for (index, lit) in expected.enumerated() {
                let drawing = single([color], at: (Double(index) + 0.75) * step, layers: variable)
                XCTAssertEqual(litSet(drawing), lit, "\(name) step \(index)")
                XCTAssertEqual(drawing.layers[0], .rest, "the base layer is not variable")
                for layer in 1...3 where !lit.contains(layer - 1) {
                    XCTAssertEqual(drawing.layers[layer].opacity, floor, "\(name) step \(index)")
                }
            }
        }
    }

    func testNamesReadInAnyOrder() throws {
        let name = try SymbolEffectName.parse("variableColor.reversing.hideInactiveLayers.cumulative")
        XCTAssertEqual(name.description, "variableColor.cumulative.reversing.hideInactiveLayers")
        XCTAssertEqual(
            try SymbolEffectName.parse("bounce.byLayer.down"),
            try SymbolEffectName.parse("bounce.down.byLayer"))
        XCTAssertThrowsError(try SymbolEffectName.parse("pulse.up"))
        XCTAssertThrowsError(try SymbolEffectName.parse("scale..up"))
    }

    func testVariableColorSwitchedOnWithoutAnimationShowsItsFirstStepAtOnce() throws {
        let color = try effect(
            "variableColor", .indefinite(active: [.init(start: 1, end: 2)]), animated: false)
        XCTAssertEqual(litSet(single([color], at: 1, layers: variable)), [0])
        XCTAssertEqual(single([color], at: 1, layers: variable).layers[2].opacity, 0.35)
        XCTAssertTrue(single([color], at: 2, layers: variable).isRest)
        let animated = try effect("variableColor", .indefinite(active: [.init(start: 1, end: 2)]))
        XCTAssertTrue(single([animated], at: 1, layers: variable).isRest)
    }

    func testDiscreteVariableColorRunsItsCyclesThenRests() throws {
        let color = try effect("variableColor", .discrete(triggers: [1]), repeatCount: 2)
        let end = 1 + 2 * 3 * SymbolEffectTiming.variableColorStep + SymbolEffectTiming.variableColorFade
        XCTAssertTrue(single([color], at: 0.99, layers: variable).isRest)
        XCTAssertFalse(single([color], at: end - 0.01, layers: variable).isRest)
        XCTAssertTrue(single([color], at: end, layers: variable).isRest)
    }

    func testEffectsCombine() throws {
        let scale = try effect("scale.up", .indefinite(active: [.always]))
        let color = try effect("variableColor", .indefinite(active: [.always]))
        let drawing = single(
            [scale, color], at: 0.75 * SymbolEffectTiming.variableColorStep, layers: variable)
        XCTAssertEqual(drawing.layers.map(\.scale.x), [1.2, 1.2, 1.2, 1.2])
        XCTAssertEqual(drawing.layers.map(\.opacity), [1, 1, 0.35, 0.35])
    }

    // MARK: Replace

    func testReplaceShowsOldThenBothThenNew() {
        for transition in [
            SymbolContentTransition.default, SymbolContentTransition(style: .upUp, scope: .wholeSymbol),
        ] {
            let animation = SymbolAnimation(
                effects: [], replacements: [SymbolReplacement(time: 2, artwork: 1)],
                contentTransition: transition,
                variableValue: nil, presence: nil)
            let layers: (Int) -> [SymbolLayerInfo] = { $0 == 0 ? self.plain : Array(self.plain.prefix(2)) }
            let before = animation.drawings(at: 1.999, layers: layers)
            XCTAssertEqual(before.map(\.artwork), [0])
            XCTAssertTrue(before[0].isRest)
            XCTAssertEqual(animation.drawings(at: 2, layers: layers).map(\.artwork), [0, 1])
            XCTAssertEqual(animation.drawings(at: 2.1, layers: layers).map(\.artwork), [0, 1])
            let done = 2 + transition.entryDuration(layerCount: 2) + 1e-9
            let after = animation.drawings(at: done, layers: layers)
            XCTAssertEqual(after.map(\.artwork), [1])
            XCTAssertTrue(after[0].isRest)
            XCTAssertEqual(after[0].layers.count, 2)
        }
        let offUp = SymbolAnimation(
            effects: [], replacements: [SymbolReplacement(time: 2, artwork: 1)],
            contentTransition: SymbolContentTransition(style: .offUp), variableValue: nil, presence: nil)
        XCTAssertEqual(offUp.drawings(at: 2.05, layers: { _ in self.plain }).map(\.artwork), [1])
    }

    // MARK: Smoothness

    /// The largest change of any pose value between samples 1 ms apart.
    private func largestStep(_ effects: [SymbolEffect], from start: Double, to end: Double) -> Double {
        var largest = 0.0
        var previous: SymbolDrawing?
        for time in samples(from: start, to: end) {
            let drawing = single(effects, at: time, layers: variable)
            if let previous {
                for (a, b) in zip(previous.layers + [previous.whole], drawing.layers + [drawing.whole]) {
                    let steps = [
                        abs(a.opacity - b.opacity), abs(a.scale.x - b.scale.x), abs(a.scale.y - b.scale.y),
                        abs(a.offset.x - b.offset.x), abs(a.offset.y - b.offset.y),
                    ]
                    largest = max(largest, steps.max() ?? 0)
                }
            }
            previous = drawing
        }
        return largest
    }

    func testAnimatedEffectsMoveWithoutJumps() throws {
        let switched: SymbolEffect.Behavior = .indefinite(active: [
            .init(start: 0.5, end: 1.2), .init(start: 1.5, end: 3),
        ])
        let effects = [
            try effect("bounce.down", .discrete(triggers: [0.5, 0.8]), repeatCount: 3),
            try effect("pulse", switched),
            try effect("variableColor.cumulative.reversing", switched),
            try effect("scale.up", switched),
            try effect("appear.up", switched),
            try effect("disappear.down.wholeSymbol", switched),
        ]
        for effect in effects {
            let step = largestStep([effect], from: 0, to: 5)
            XCTAssertGreaterThan(step, 0, "\(effect.name) does not move")
            XCTAssertLessThan(step, 0.02, "\(effect.name) jumps by \(step) within 1 ms")
        }
    }
}
