import Foundation
import KilnModel
import XCTest

/// A container and an effect, so that layer time can be followed into children and effect stages.
private struct GroupContent: LayerContent {}

private struct BlurContent: EffectContent {
    let radius: Animated<Double>
}

private let kinds =
    testKinds + [
        LayerKind(
            name: "group", summary: "Holds child layers.", parameters: ParameterTable([]),
            containsLayers: true, make: { _, _, _ in GroupContent() })
    ]

private enum BlurKey {
    static let radius = ParameterKey<Animated<Double>>("radius")
}

private let effects = [
    EffectKind(
        name: "blur", summary: "Blurs the layer.",
        parameters: ParameterTable([Parameter(BlurKey.radius, .number(0...250), help: "Standard deviation.")]
        ),
        shorthand: BlurKey.radius.name,
        make: { parameters, _, _ in BlurContent(radius: parameters[BlurKey.radius]) })
]

final class TimeSourceTests: XCTestCase {
    let path = JSONPath.root.key("v")
    /// 0 at 0, 100 at 1: the local time is easy to read back from the value.
    static let ramp = #"[{"t": 0, "v": 0}, {"t": 1, "v": 100}]"#
    static let spring = #"{"from": 0, "to": 1, "at": 0.25, "response": 0.5, "dampingFraction": 0.6}"#

    private func decodeJob(duration: Int = 10, _ layers: String) throws -> Job {
        let json = """
            {"kiln": 1,
             "output": {"width": 64, "height": 64, "fps": 30, "duration": \(duration)},
             "layers": [\(layers)]}
            """
        return try JobLoader.decode(
            bytes: Array(json.utf8), file: "x.json", baseDirectory: URL(fileURLWithPath: "/tmp"),
            kinds: kinds, effects: effects)
    }

    private func diagnostics(
        output: String = #"{"width": 64, "height": 64, "fps": 30, "duration": 6}"#, _ layers: String
    )
        -> [Diagnostic]
    {
        let json = #"{"kiln": 1, "output": \#(output), "layers": [\#(layers)]}"#
        do {
            _ = try JobLoader.decode(
                bytes: Array(json.utf8), file: "x.json", baseDirectory: URL(fileURLWithPath: "/tmp"),
                kinds: kinds, effects: effects)
            XCTFail("expected errors")
            return []
        } catch {
            guard case .invalid(let diagnostics) = error else { return [] }
            return diagnostics
        }
    }

    private func rotating(_ animation: String) -> String {
        ##"{"type": "solid", "color": "#ffffff", "rotation": \##(animation)}"##
    }

    // MARK: The model

    func testLocalTimeOfEachSource() {
        XCTAssertEqual(TimeSource.global.localTime(at: 3.5), 3.5)
        XCTAssertEqual(TimeSource.offset(start: 2).localTime(at: 3.5), 1.5)
        XCTAssertEqual(TimeSource.offset(start: 2).localTime(at: 1), -1)

        let triggers = TimeSource.triggers([1, 3, 6])
        let expected: [(Double, Double)] = [
            (0, -1), (0.5, -0.5), (1, 0), (2.5, 1.5), (3, 0), (5.75, 2.75), (6, 0), (100, 94),
        ]
        for (time, local) in expected {
            XCTAssertEqual(triggers.localTime(at: time), local, accuracy: 1e-12, "at \(time)")
        }
        XCTAssertEqual(TimeSource.triggers([]).localTime(at: 4), 4)
    }

    func testTriggerSearchOverManyTriggers() {
        let times = (0..<10_000).map { Double($0) * 0.5 }
        let source = TimeSource.triggers(times)
        XCTAssertEqual(source.localTime(at: 1234.75), 0.25, accuracy: 1e-12)
        XCTAssertEqual(source.localTime(at: 4999.5), 0)
        XCTAssertEqual(source.localTime(at: 6000), 6000 - 4999.5)
    }

    func testRetimedIsConstantOnlyWhenTheAnimationIs() {
        let single = Animated<Double>.keyframes([Keyframe(time: 1, value: 5)])
        let ramp = Animated<Double>.keyframes([Keyframe(time: 0, value: 0), Keyframe(time: 1, value: 1)])
        let spring = Animated<Double>.spring(from: 0, to: 1, start: 0, spring: .default)
        XCTAssertTrue(Animated.retimed(.constant(3), .triggers([1])).isConstant)
        XCTAssertTrue(Animated.retimed(single, .offset(start: 2)).isConstant)
        XCTAssertFalse(Animated.retimed(ramp, .offset(start: 2)).isConstant)
        XCTAssertFalse(Animated.retimed(spring, .triggers([1, 2])).isConstant)
        XCTAssertEqual(Animated.retimed(.constant(3), .triggers([1])).value(at: 0), 3)
    }

    // MARK: Layer time

    func testLayerTimeShiftsKeyframesByAppear() throws {
        let job = try decodeJob(
            #"""
            {"type": "solid", "appear": 2, "rotation": {"keyframes": \#(Self.ramp), "time": "layer"},
             "color": {"keyframes": [{"t": 0, "v": "#000000"}, {"t": 2, "v": "#ffffff"}], "time": "layer"}},
            {"type": "solid", "color": "#000000", "rotation": {"keyframes": \#(Self.ramp)}}
            """#)
        let shifted = job.layers[0], global = job.layers[1]
        for time in [0, 1.5, 2, 2.25, 2.5, 3, 3.5, 9] {
            XCTAssertEqual(
                shifted.transform.rotation.value(at: time), global.transform.rotation.value(at: time - 2),
                accuracy: 1e-12, "at \(time)")
        }
        XCTAssertEqual(shifted.transform.rotation.value(at: 2.25), 25, accuracy: 1e-12)
        let color = try XCTUnwrap(shifted.content as? SolidContent).color
        XCTAssertEqual(color.value(at: 2).r, 0)
        XCTAssertEqual(color.value(at: 3).r, 0.5, accuracy: 1e-12)
        XCTAssertEqual(color.value(at: 4).r, 1)
    }

    func testLayerTimeShiftsASpringByAppear() throws {
        let job = try decodeJob(
            #"""
            {"type": "solid", "color": "#000000", "appear": 1.5,
             "opacity": {"spring": \#(Self.spring), "time": "layer"}},
            {"type": "solid", "color": "#000000", "opacity": {"spring": \#(Self.spring)}}
            """#)
        let shifted = job.layers[0].opacity, global = job.layers[1].opacity
        XCTAssertFalse(shifted.isConstant)
        for time in [0, 1.5, 1.75, 1.8, 2, 2.3, 3, 6] {
            XCTAssertEqual(
                shifted.value(at: time), global.value(at: time - 1.5), accuracy: 1e-12, "at \(time)")
        }
        XCTAssertEqual(shifted.value(at: 1.75), 0)
        XCTAssertGreaterThan(shifted.value(at: 2), 0)
    }

    func testLayerTimeWithoutAnyAppearIsGlobalTime() throws {
        let job = try decodeJob(rotating(#"{"keyframes": \#(Self.ramp), "time": "layer"}"#))
        XCTAssertEqual(job.layers[0].transform.rotation.value(at: 0.5), 50, accuracy: 1e-12)
    }

    func testLayerTimeInheritsTheNearestEnclosingAppear() throws {
        let layerTime = #"{"keyframes": \#(Self.ramp), "time": "layer"}"#
        let job = try decodeJob(
            #"""
            {"type": "group", "appear": 3, "rotation": \#(layerTime), "layers": [
                {"type": "solid", "color": "#000000", "rotation": \#(layerTime),
                 "effects": [{"blur": \#(layerTime)}]},
                {"type": "group", "appear": 4, "layers": [
                    {"type": "solid", "color": "#000000", "rotation": \#(layerTime),
                     "effects": [{"blur": {"radius": \#(layerTime)}}]}
                ]},
                {"type": "solid", "color": "#000000", "rotation": \#(layerTime)}
            ]},
            {"type": "solid", "color": "#000000", "rotation": \#(layerTime)}
            """#)
        let group = job.layers[0]
        let child = group.children[0], nested = group.children[1].children[0], sibling = group.children[2]
        func blur(_ layer: LayerNode) throws -> Animated<Double> {
            try XCTUnwrap(layer.effects.first?.content as? BlurContent).radius
        }
        // Each value reads 100 × (time − start) while ramping, so its start is easy to see.
        XCTAssertEqual(group.transform.rotation.value(at: 3.5), 50, accuracy: 1e-12)
        XCTAssertEqual(child.transform.rotation.value(at: 3.5), 50, accuracy: 1e-12)
        XCTAssertEqual(try blur(child).value(at: 3.5), 50, accuracy: 1e-12)
        XCTAssertEqual(nested.transform.rotation.value(at: 4.25), 25, accuracy: 1e-12)
        XCTAssertEqual(try blur(nested).value(at: 4.25), 25, accuracy: 1e-12)
        XCTAssertEqual(sibling.transform.rotation.value(at: 3.25), 25, accuracy: 1e-12)
        XCTAssertEqual(job.layers[1].transform.rotation.value(at: 0.75), 75, accuracy: 1e-12)
    }

    func testLayerTimeOutsideAJobCountsFromTheContextsLayerStart() {
        let context = makeContext()
        let json = parse(#"{"keyframes": \#(Self.ramp), "time": "layer"}"#)
        let outside = ValueDecoding.decodeNumber(json, path: path, range: nil, context: context)
        let inside = context.decodingLayer(appearingAt: 2) {
            ValueDecoding.decodeNumber(json, path: path, range: nil, context: context)
        }
        XCTAssertEqual(context.layerStart, 0)
        XCTAssertTrue(context.diagnostics.isEmpty, "\(context.diagnostics)")
        XCTAssertEqual(outside?.value(at: 0.5) ?? .nan, 50, accuracy: 1e-12)
        XCTAssertEqual(inside?.value(at: 2.5) ?? .nan, 50, accuracy: 1e-12)
        guard case .retimed(_, let source)? = inside else { return XCTFail("expected a retimed animation") }
        XCTAssertEqual(source, .offset(start: 2))
    }

    func testGlobalTimeIsTheDefaultAndLeavesTheAnimationAsItIs() {
        let context = makeContext()
        let value = ValueDecoding.decodeNumber(
            parse(#"{"keyframes": \#(Self.ramp), "time": "global"}"#), path: path, range: nil,
            context: context)
        XCTAssertTrue(context.diagnostics.isEmpty, "\(context.diagnostics)")
        guard case .keyframes? = value else { return XCTFail("expected plain keyframes") }
    }

    // MARK: Triggers

    func testTriggersReplayTheKeyframesAtEachTrigger() throws {
        let job = try decodeJob(rotating(#"{"keyframes": \#(Self.ramp), "time": {"since": [2, 5, 5.5]}}"#))
        let rotation = job.layers[0].transform.rotation
        let expected: [(Double, Double)] = [
            (0, 0), (1.9, 0),  // before the first trigger: local time is negative, the first value holds
            (2, 0), (2.5, 50), (3, 100), (4.9, 100),
            (5, 0), (5.25, 25),  // replayed from the start
            (5.5, 0), (5.75, 25), (7, 100),  // interrupted by the next trigger and replayed again
        ]
        for (time, value) in expected {
            XCTAssertEqual(rotation.value(at: time), value, accuracy: 1e-9, "at \(time)")
        }
    }

    func testTriggersReplayASpringAndHoldFromBeforeTheFirst() throws {
        let job = try decodeJob(
            #"""
            {"type": "solid", "color": "#000000", "opacity": {"spring": \#(Self.spring), "time": {"since": [1, 4]}}},
            {"type": "solid", "color": "#000000", "opacity": {"spring": \#(Self.spring)}}
            """#)
        let replayed = job.layers[0].opacity, global = job.layers[1].opacity
        XCTAssertEqual(replayed.value(at: 0), 0)
        XCTAssertEqual(replayed.value(at: 0.99), 0)
        XCTAssertEqual(replayed.value(at: 1), 0)
        for offset in [0.3, 0.5, 1, 2.5] {
            XCTAssertEqual(replayed.value(at: 1 + offset), global.value(at: offset), accuracy: 1e-12)
            XCTAssertEqual(replayed.value(at: 4 + offset), global.value(at: offset), accuracy: 1e-12)
        }
        XCTAssertEqual(replayed.value(at: 4), 0)
    }

    func testTriggersDrivePointsAndColors() {
        let context = makeContext()
        let point = ValueDecoding.decodePoint(
            parse(
                #"{"keyframes": [{"t": 0, "v": [0, 0]}, {"t": 2, "v": [10, 20]}], "time": {"since": [1, 3]}}"#
            ),
            path: path, range: nil, context: context)
        let color = ValueDecoding.decodeColor(
            parse(##"{"spring": {"from": "#000000", "to": "#ffffff"}, "time": {"since": [2]}}"##), path: path,
            context: context)
        XCTAssertTrue(context.diagnostics.isEmpty, "\(context.diagnostics)")
        XCTAssertEqual(point?.value(at: 0.5), Point2(x: 0, y: 0))
        XCTAssertEqual(point?.value(at: 2), Point2(x: 5, y: 10))
        XCTAssertEqual(point?.value(at: 3.5), Point2(x: 2.5, y: 5))
        XCTAssertEqual(color?.value(at: 1.9), RGBA(r: 0, g: 0, b: 0, a: 1))
        XCTAssertEqual(color?.value(at: 9).r ?? 0, 1, accuracy: 1e-6)
    }

    func testATriggerAtTheVeryEndOfTheTimelineIsAllowed() throws {
        let job = try decodeJob(
            duration: 6, rotating(#"{"keyframes": \#(Self.ramp), "time": {"since": [0, 6]}}"#))
        XCTAssertEqual(job.layers[0].transform.rotation.value(at: 6), 0)
    }

    func testEffectShorthandTakesAnAnimationWithATimeSource() throws {
        let job = try decodeJob(
            #"""
            {"type": "solid", "color": "#000000",
             "effects": [{"blur": {"keyframes": \#(Self.ramp), "time": {"since": [3]}}}]}
            """#)
        let blur = try XCTUnwrap(job.layers[0].effects.first?.content as? BlurContent)
        XCTAssertEqual(blur.radius.value(at: 3.5), 50, accuracy: 1e-12)
    }

    // MARK: Errors

    func testEveryTimeSourceErrorNamesItsPath() {
        let ramp = Self.ramp
        let layers = [
            rotating(#"{"keyframes": \#(ramp), "time": {"since": 3}}"#),
            rotating(#"{"keyframes": \#(ramp), "time": {"since": [-1, 2]}}"#),
            rotating(#"{"keyframes": \#(ramp), "time": {"since": [1, 3, 2]}}"#),
            rotating(#"{"keyframes": \#(ramp), "time": {"since": [1, 7]}}"#),
            rotating(#"{"keyframes": \#(ramp), "time": "layr"}"#),
            rotating(#"{"keyframes": \#(ramp), "time": 3}"#),
            rotating(#"{"keyframes": \#(ramp), "time": {"sinc": [1]}}"#),
            rotating(#"{"keyframes": \#(ramp), "time": {"since": [1, "2"]}}"#),
            rotating(#"{"keyframes": \#(ramp), "time": {"since": []}}"#),
            rotating(#"{"time": "layer"}"#),
            rotating(#"{"keyframes": \#(ramp), "tiem": "layer"}"#),
            rotating(#"{"keyframes": \#(ramp), "time": {}}"#),
            rotating(#"{"keyframes": \#(ramp), "time": {"since": [2, 2]}}"#),
        ]
        let found = diagnostics(layers.joined(separator: ",\n"))
        let expected = [
            "layers[0].rotation.time.since: expected an array of trigger times in seconds, got a number",
            "layers[1].rotation.time.since[0]: trigger time must be ≥ 0, got -1",
            "layers[2].rotation.time.since[2]: trigger time 2 is not after the previous trigger time 3; "
                + "trigger times must be strictly increasing",
            "layers[3].rotation.time.since[1]: trigger time 7 is after the end of the timeline "
                + "(6 s, the output's duration)",
            #"layers[4].rotation.time: unknown time source 'layr'; did you mean 'layer'?; expected "global", "layer" or {"since": [seconds, …]}"#,
            #"layers[5].rotation.time: expected a time source ("global", "layer" or {"since": [seconds, …]}), got a number"#,
            "layers[6].rotation.time.sinc: unknown key 'sinc'; did you mean 'since'?",
            "layers[7].rotation.time.since[1]: expected a trigger time in seconds, got a string",
            "layers[8].rotation.time.since: expected at least one trigger time",
            "layers[9].rotation: an animated value needs 'keyframes' or 'spring' beside 'time'",
            "layers[10].rotation.tiem: unknown key 'tiem'; did you mean 'time'?",
            #"layers[11].rotation.time: expected {"since": [seconds, …]}"#,
            "layers[12].rotation.time.since[1]: trigger time 2 is not after the previous trigger time 2; "
                + "trigger times must be strictly increasing",
        ]
        XCTAssertEqual(found.map { "\($0.path): \($0.message)" }, expected)
    }

    /// The timeline's length is known from fps and duration even when another output key is
    /// wrong, so a trigger after the end is reported in the same run (issue 40: it once showed
    /// only after the other mistakes were fixed).
    func testTriggersAreBoundedEvenWhenAnotherOutputKeyFailed() {
        let found = diagnostics(
            output: #"{"width": 63, "height": 64, "fps": 30, "duration": 6}"#,
            rotating(#"{"keyframes": \#(Self.ramp), "time": {"since": [1, 700]}}"#))
        XCTAssertEqual(found.map(\.path.description), ["output.width", "layers[0].rotation.time.since[1]"])
        let unknown = diagnostics(
            output: #"{"width": 64, "height": 64, "fps": "fast", "duration": 6}"#,
            rotating(#"{"keyframes": \#(Self.ramp), "time": {"since": [1, 700]}}"#))
        XCTAssertEqual(unknown.map(\.path.description), ["output.fps"], "no rate: no known end")
    }

    func testTriggerBoundUsesTheExactFrameDuration() {
        // 10 s at 29.97 fps is 300 frames, which end at 10.01 s.
        let found = diagnostics(
            output: #"{"width": 64, "height": 64, "fps": 29.97, "duration": 10}"#,
            [
                rotating(#"{"keyframes": \#(Self.ramp), "time": {"since": [10.01]}}"#),
                rotating(#"{"keyframes": \#(Self.ramp), "time": {"since": [10.02]}}"#),
            ].joined(separator: ","))
        XCTAssertEqual(found.map(\.path.description), ["layers[1].rotation.time.since[0]"])
        XCTAssertEqual(
            found.first?.message,
            "trigger time 10.02 is after the end of the timeline (10.01 s, the output's duration)")
    }

    func testAtMostTenThousandTriggers() {
        func triggers(_ count: Int) -> JSONNode {
            let times = (0..<count).map(String.init).joined(separator: ",")
            return parse(#"{"keyframes": \#(Self.ramp), "time": {"since": [\#(times)]}}"#)
        }
        let context = makeContext()
        XCTAssertNotNil(
            ValueDecoding.decodeNumber(triggers(10_000), path: path, range: nil, context: context))
        XCTAssertTrue(context.diagnostics.isEmpty, "\(context.diagnostics)")
        XCTAssertNil(ValueDecoding.decodeNumber(triggers(10_001), path: path, range: nil, context: context))
        XCTAssertEqual(
            context.diagnostics.map { "\($0.path): \($0.message)" },
            ["v.time.since: 10001 trigger times; at most 10000 are allowed"])
    }

    func testTriggersBeyondAContextsTimelineDuration() {
        let context = makeContext()
        context.timelineDuration = 4
        let value = ValueDecoding.decodeColor(
            parse(##"{"spring": {"from": "#000000", "to": "#ffffff"}, "time": {"since": [1, 4.5]}}"##),
            path: path,
            context: context)
        XCTAssertNil(value)
        XCTAssertEqual(context.diagnostics.map(\.path.description), ["v.time.since[1]"])
    }
}
