import Foundation
import KilnModel
import XCTest

final class SymbolEffectDecodingTests: XCTestCase {
    private func decode(_ layerKeys: String) throws(JobLoadError) -> Job {
        let json = """
            {"kiln": 1, "output": {"path": "x.mp4", "width": 64, "height": 64, "fps": 30, "duration": 10},
             "layers": [{"type": "solid", "color": "#000000", \(layerKeys)}]}
            """
        return try JobLoader.decode(
            bytes: Array(json.utf8), file: "jobs/x.json", baseDirectory: URL(fileURLWithPath: "/work/jobs"),
            kinds: testKinds)
    }

    private func diagnostics(_ layerKeys: String) -> [Diagnostic] {
        do {
            _ = try decode(layerKeys)
            XCTFail("expected errors")
            return []
        } catch {
            guard case .invalid(let diagnostics) = error else { return [] }
            return diagnostics
        }
    }

    func testDecodesEveryForm() throws {
        let job = try decode(
            """
            "symbolEffects": [
              "variableColor.iterative.reversing",
              {"effect": "scale.up", "active": [[2, 5], [7]], "animated": false},
              {"effect": "bounce.up.byLayer", "at": [1, 3.5], "repeat": 2, "speed": 1.5},
              {"effect": "pulse", "value": {"spring": {"from": 0, "to": 1, "at": 4}}},
              {"effect": "disappear.down", "active": [[3, 6]]}
            ],
            "symbolEffectsRemoved": true
            """)
        let layer = job.layers[0]
        XCTAssertTrue(layer.symbolEffectsRemoved)
        let effects = layer.symbolEffects
        XCTAssertEqual(
            effects.map(\.name.description),
            [
                "variableColor.iterative.reversing", "scale.up", "bounce.up.byLayer", "pulse",
                "disappear.down",
            ])
        XCTAssertEqual(effects[0].behavior, .indefinite(active: [.always]))
        XCTAssertEqual(
            effects[1].behavior, .indefinite(active: [.init(start: 2, end: 5), .init(start: 7, end: nil)]))
        XCTAssertFalse(effects[1].animated)
        XCTAssertEqual(effects[2].behavior, .discrete(triggers: [1, 3.5]))
        XCTAssertEqual(effects[2].repeatCount, 2)
        XCTAssertEqual(effects[2].speed, 1.5)
        XCTAssertEqual(effects[3].behavior, .discrete(triggers: [4]))

        let plain = try decode(#""opacity": 1"#).layers[0]
        XCTAssertEqual(plain.symbolEffects, [])
        XCTAssertFalse(plain.symbolEffectsRemoved)
    }

    func testValueTriggersOnTriggerClocks() throws {
        let job = try decode(
            """
            "symbolEffects": [
              {"effect": "bounce", "value": {"keyframes": [{"t": 0, "v": 0}, {"t": 1, "v": 1}, {"t": 2, "v": 1}],
                                             "time": {"since": [3, 8]}}},
              {"effect": "bounce", "value": 5}
            ]
            """)
        // Each replay changes at 1 s in; at 8 the value jumps from 1 back to 0, a change too.
        XCTAssertEqual(job.layers[0].symbolEffects[0].behavior, .discrete(triggers: [4, 8, 9]))
        XCTAssertEqual(job.layers[0].symbolEffects[1].behavior, .discrete(triggers: []))
    }

    func testEveryProblemIsReportedWithItsPath() {
        let found = diagnostics(
            """
            "symbolEffects": [
              "bounse",
              "bounce.left",
              "bounce.up.down",
              "pulse.byLayer.byLayer",
              "bounce",
              {"effect": "bounce", "at": [1], "repeat": 0},
              {"effect": "pulse", "at": [1], "speed": "NaN"},
              {"effect": "pulse", "at": [1], "speed": 1e308},
              {"effect": "scale", "active": [[3, 2]]},
              {"effect": "scale", "at": [1]},
              {"effect": "pulse", "at": [2, 1], "animated": true},
              {"effect": "replace.downUp"},
              {"effect": "scale", "active": [[1], [2, 3]], "repeat": 2},
              {"efect": "pulse"}
            ],
            "symbolEffectsRemoved": "yes"
            """)
        func message(_ path: String) -> String { found.at(path)?.message ?? "" }
        let base = "layers[0].symbolEffects"
        XCTAssertTrue(message("\(base)[0]").contains("did you mean 'bounce'?"), message("\(base)[0]"))
        XCTAssertTrue(
            message("\(base)[1]").contains("'left' is not an option of bounce"), message("\(base)[1]"))
        XCTAssertTrue(
            message("\(base)[2]").contains("'up' and 'down' exclude each other"), message("\(base)[2]"))
        XCTAssertTrue(message("\(base)[3]").contains("given twice"), message("\(base)[3]"))
        XCTAssertTrue(
            message("\(base)[4]").contains("bounce is discrete: give it `at`"), message("\(base)[4]"))
        XCTAssertTrue(message("\(base)[5].repeat").contains("out of range"), message("\(base)[5].repeat"))
        XCTAssertTrue(message("\(base)[6].speed").contains("expected a number"), message("\(base)[6].speed"))
        XCTAssertTrue(message("\(base)[7].speed").contains("out of range"), message("\(base)[7].speed"))
        XCTAssertTrue(message("\(base)[8].active[0][1]").contains("must be after its start"))
        XCTAssertTrue(message("\(base)[9].at").contains("scale is indefinite"), message("\(base)[9].at"))
        XCTAssertTrue(message("\(base)[10].at[1]").contains("strictly increasing"))
        XCTAssertTrue(message("\(base)[10].animated").contains("indefinite effects only"))
        XCTAssertTrue(message("\(base)[11].effect").contains("contentTransition"))
        XCTAssertTrue(message("\(base)[12].active[1]").contains("no interval can follow"))
        XCTAssertTrue(message("\(base)[12].repeat").contains("holds a state"))
        XCTAssertTrue(message("\(base)[13].efect").contains("did you mean 'effect'?"))
        XCTAssertTrue(message("\(base)[13]").contains("missing required key 'effect'"))
        XCTAssertTrue(message("layers[0].symbolEffectsRemoved").contains("expected true or false"))
    }

    func testNotAnArray() {
        XCTAssertTrue(
            diagnostics(#""symbolEffects": "pulse""#).at("layers[0].symbolEffects")?.message.contains(
                "expected an array of symbol effects") ?? false)
    }

    func testContentTransitionNames() throws {
        XCTAssertEqual(try SymbolContentTransition(parsing: "replace"), .default)
        XCTAssertEqual(SymbolContentTransition.default.description, "replace.downUp.byLayer")
        XCTAssertEqual(
            try SymbolContentTransition(parsing: "replace.wholeSymbol.offUp"),
            SymbolContentTransition(style: .offUp, scope: .wholeSymbol))
        for bad in ["replace.sideways", "replace.upUp.downUp", "replase", "replace."] {
            XCTAssertThrowsError(try SymbolContentTransition(parsing: bad)) { error in
                let message = (error as? SymbolEffectNameError)?.message ?? ""
                XCTAssertTrue(message.contains("downUp, upUp, offUp"), message)
            }
        }
        let context = makeContext()
        XCTAssertNil(
            SymbolContentTransition.decode(parse(#""replace.up""#), path: .root.key("c"), context: context))
        XCTAssertEqual(context.diagnostics.first?.path.description, "c")
    }

    func testSymbolEffectTransition() throws {
        let context = makeContext()
        let decoder = TransitionDecoder(kinds: [SymbolEffectTransition.kind], context: context)
        let transition = try XCTUnwrap(
            decoder.decode(
                parse(#"{"symbolEffect": "disappear.down.byLayer"}"#), path: .root.key("transition")))
        let content = try XCTUnwrap(transition.content as? SymbolEffectTransition)
        XCTAssertEqual(content.effect.description, "disappear.down.byLayer")
        XCTAssertTrue(transition.readsGeometry)
        let frame = SIMD4<Double>(0, 100, 50, 200)
        let leaving = transition.values(phase: 1, container: SIMD2(500, 500), frame: frame)
        XCTAssertEqual(leaving.opacity, 0)
        XCTAssertEqual(leaving.scale, SymbolEffectTiming.hiddenScale)
        XCTAssertEqual(leaving.offsetY, SymbolEffectTiming.hiddenOffset * 100)
        let entering = transition.values(phase: -1, container: SIMD2(500, 500), frame: frame)
        XCTAssertEqual(
            entering.offsetY, -SymbolEffectTiming.hiddenOffset * 100, "appear.down comes from above")
        XCTAssertEqual(transition.values(phase: 0, container: SIMD2(500, 500), frame: frame), .identity)

        _ = decoder.decode(parse(#"{"symbolEffect": "bounce"}"#), path: .root.key("t"))
        XCTAssertTrue(
            context.diagnostics.at("t.symbolEffect.effect")?.message.contains("appear or disappear") ?? false)
        XCTAssertNotNil(
            decoder.decode(
                parse(#"{"symbolEffect": {"effect": "appear", "speed": 2}}"#), path: .root.key("u")))
    }
}
