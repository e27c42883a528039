import Foundation
import KilnExport
import KilnModel
import KilnRaster
import KilnScene
import XCTest

/// Contract checks over every registered transition: known values at five phases, an example
/// job that uses it, and that example drawing each transition's card part-way through it.
final class TransitionContractTests: XCTestCase {
    static let phases = [-1, -0.5, 0, 0.5, 1.0]
    static let container = SIMD2<Double>(1920, 1080)

    static func values(_ set: (inout ModifierValues) -> Void) -> ModifierValues {
        var values = ModifierValues()
        set(&values)
        return values
    }

    /// Each transition as written, with its modifiers at the five phases: the old closed enum's
    /// values for the built-ins, worked out by hand (container 1920 × 1080).
    static let expectations: [(json: String, values: [ModifierValues])] = [
        (#""identity""#, Array(repeating: .identity, count: 5)),
        (#""opacity""#, [0, 0.5, 1, 0.5, 0].map { o in values { $0.opacity = o } }),
        (#"{"scale": 0.5}"#, [0.5, 0.75, 1, 0.75, 0.5].map { s in values { $0.scale = s } }),
        (#"{"move": "top"}"#, [-1080, -540, 0, -540, -1080].map { y in values { $0.offsetY = y } }),
        (#""slide""#, [-1920, -960, 0, 960, 1920].map { x in values { $0.offsetX = x } }),
        (
            #"{"offset": [30, -20]}"#,
            [(30, -20), (15, -10), (0, 0), (15, -10), (30, -20)].map { p in
                values {
                    $0.offsetX = p.0
                    $0.offsetY = p.1
                }
            }
        ),
        (#""blur""#, [10, 5, 0, 5, 10].map { b in values { $0.blur = b } }),
        (
            #""twirl""#,
            [
                (0.5, 0, 10, 360, 1), (0.75, 0.5, 5, 180, 0.5), (1, 1, 0, 0, 0), (0.75, 0.5, 5, -180, 0),
                (0.5, 0, 10, -360, 0),
            ]
            .map { t in
                values {
                    ($0.scale, $0.opacity, $0.blur, $0.rotation, $0.brightness) = t
                }
            }
        ),
        (
            #"{"custom": {"rotation": [[-1, 90], [0, 0], [1, -45]]}}"#,
            [90, 45, 0, -22.5, -45].map { r in values { $0.rotation = r } }
        ),
        (
            #"["opacity", {"scale": 0.5}]"#,
            [(0, 0.5), (0.5, 0.75), (1, 1), (0.5, 0.75), (0, 0.5)].map { p in
                values { ($0.opacity, $0.scale) = p }
            }
        ),
        (
            #"{"insertion": {"move": "top"}, "removal": "opacity"}"#,
            [values { $0.offsetY = -1080 }, values { $0.offsetY = -540 }, .identity]
                + [0.5, 0].map { o in values { $0.opacity = o } }
        ),
        (
            #""blurReplace""#,
            [(0.7, 10, 0), (0.85, 5, 0.5), (1, 0, 1), (0.85, 5, 0.5), (0.7, 10, 0)].map { t in
                values { ($0.scale, $0.blur, $0.opacity) = t }
            }
        ),
        (
            #"{"blurReplace": "upUp"}"#,
            [
                (0.7, 10, 0), (0.85, 5, 0.5), (1, 0, 1), (1.2142857142857142, 5, 0.5),
                (1.4285714285714286, 10, 0),
            ]
            .map { t in values { ($0.scale, $0.blur, $0.opacity) = t } }
        ),
        // On a layer that is not a symbol, the symbol effect acts on the whole layer; the offset
        // follows the layer's height, which this test's empty frame makes 0.
        (
            #"{"symbolEffect": "disappear.down"}"#,
            [(0, 0.5), (0.5, 0.75), (1, 1), (0.5, 0.75), (0, 0.5)].map { p in
                values { ($0.opacity, $0.scale) = p }
            }
        ),
    ]

    /// Every modifier by name, so that values are compared field by field within rounding.
    static func fields(of values: ModifierValues) -> [String: Double] {
        Dictionary(
            uniqueKeysWithValues: Mirror(reflecting: values).children.map {
                ($0.label!, $0.value as! Double)
            })
    }

    func decode(_ json: String) throws -> Transition {
        let context = DecodeContext(file: "test.json", baseDirectory: URL(fileURLWithPath: "/tmp"))
        let node = try JSONParser.parse(Array(json.utf8))
        let transition = TransitionDecoder(kinds: LayerRegistry.transitions, context: context).decode(
            node, path: .root)
        XCTAssertEqual(context.diagnostics.map(\.message), [], json)
        return try XCTUnwrap(transition, json)
    }

    func testEveryTransitionGivesItsValuesAtFivePhases() throws {
        var covered = Set<String>()
        for (json, expected) in Self.expectations {
            let transition = try decode(json)
            covered.formUnion(transition.kindsUsed)
            for (phase, want) in zip(Self.phases, expected) {
                let got = transition.values(phase: phase, container: Self.container)
                for (field, value) in Self.fields(of: got) {
                    XCTAssertEqual(
                        value, Self.fields(of: want)[field]!, accuracy: 1e-12, "\(json) at \(phase): \(field)"
                    )
                }
            }
        }
        // A transition that only adds effect stages (a mask) has identity values at every phase:
        // `testEveryMaskTransitionHidesTheLayerAtItsFarPhases` checks it by its pixels instead.
        for kind in LayerRegistry.transitions where !covered.contains(kind.name) {
            let example = try decode(kind.example)
            XCTAssertTrue(
                try Self.isMaskOnly(example), "no phase expectations for transition '\(kind.name)'")
        }
    }

    /// True when `transition` changes no modifier value and adds effect stages part-way.
    static func isMaskOnly(_ transition: Transition) throws -> Bool {
        Self.phases.allSatisfy { transition.values(phase: $0, container: container).isIdentity }
            && !transition.effects(phase: -0.5, container: container).isEmpty
            && !transition.effects(phase: 0.5, container: container).isEmpty
    }

    /// A mask in a list adds its stage beside the others' values; in an asymmetric pair only the
    /// side in play adds it (as docs/job-format.md says of mask transitions).
    func testMasksCombineInListsAndAsymmetricPairs() throws {
        let combined = try decode(#"["opacity", {"iris": 12}]"#)
        XCTAssertEqual(combined.values(phase: -0.5, container: Self.container).opacity, 0.5)
        XCTAssertEqual(combined.effects(phase: -0.5, container: Self.container).count, 1)
        XCTAssertTrue(combined.effects(phase: 0, container: Self.container).isEmpty)
        let pair = try decode(#"{"insertion": "iris", "removal": "opacity"}"#)
        XCTAssertEqual(pair.effects(phase: -0.5, container: Self.container).count, 1)
        XCTAssertTrue(pair.effects(phase: 0.5, container: Self.container).isEmpty)
        XCTAssertEqual(pair.values(phase: 0.5, container: Self.container).opacity, 0.5)
    }

    /// Every transition that only adds effect stages, written as its example on a card that enters
    /// over 1 s and leaves over 1 s (linear): at the far phases nothing of the card is drawn, at
    /// rest the card is exactly as without the transition, and part-way in and out it is drawn
    /// and changed; on 1 and 3 threads alike.
    func testEveryMaskTransitionHidesTheLayerAtItsFarPhases() throws {
        for kind in LayerRegistry.transitions {
            guard try Self.isMaskOnly(try decode(kind.example)) else { continue }
            func job(_ card: String) throws -> Job {
                try LayerRegistry.decode(
                    bytes: Array(
                        """
                        {"kiln": 1, "output": {"width": 240, "height": 160, "fps": 30, "duration": 4},
                         "layers": [
                           {"type": "solid", "color": "#203040"}\(card.isEmpty ? "" : ", " + card)]}
                        """.utf8), file: "mask.json", baseDirectory: URL(fileURLWithPath: "/tmp"))
            }
            let shape =
                ##"{"type": "shape", "shape": "roundedRect", "size": [160, 100], "cornerRadius": 12, "##
                + ##""position": [120, 80], "gradient": ["#ff5a36", "#ffe066", "#36c5ff"], "##
                + ##""gradientStart": [0, 0], "gradientEnd": [1, 1]"##
            let animated = try job(
                shape + #", "appear": 1, "disappear": 2.5, "transition": \#(kind.example), "#
                    + #""transitionAnimation": {"duration": 1, "ease": "linear"}}"#)
            let plain = try job(shape + "}")
            let empty = try job("")
            func pixels(_ job: Job, _ time: Double, threads: Int = 2) -> [UInt8] {
                Fixture.render(job, at: time, threads: threads).byteArray
            }
            let name = kind.name
            XCTAssertEqual(pixels(animated, 1), pixels(empty, 1), "\(name): drawn at phase −1")
            XCTAssertEqual(pixels(animated, 2.2), pixels(plain, 2.2), "\(name): changed at rest")
            for time in [1.5, 3.0] {
                let drawn = pixels(animated, time)
                XCTAssertNotEqual(drawn, pixels(empty, time), "\(name): nothing drawn at \(time)")
                XCTAssertNotEqual(drawn, pixels(plain, time), "\(name): unchanged at \(time)")
                XCTAssertEqual(
                    drawn, pixels(animated, time, threads: 3), "\(name): threads differ at \(time)")
            }
            // Just before the removal ends, at most a trace remains.
            let late = pixels(animated, 3.49), none = pixels(empty, 3.49)
            let differing = zip(late, none).filter { abs(Int($0) - Int($1)) > 8 }.count
            XCTAssertLessThan(differing, late.count / 50, "\(name): still drawn at the far phase")
        }
    }

    static let jobs = Fixture.repositoryRoot.appendingPathComponent("jobs")

    /// Every registered transition has a unique name and an example job in jobs/ that uses it
    /// and is valid.
    func testEveryTransitionHasAnExampleJob() throws {
        let names = LayerRegistry.transitions.map(\.name)
        XCTAssertEqual(Set(names).count, names.count)
        var used = Set<String>()
        for file in try FileManager.default.contentsOfDirectory(atPath: Self.jobs.path)
        where file.hasSuffix(".json") {
            let job = try JobFiles.load(file: Self.jobs.appendingPathComponent(file).path)
            func walk(_ layers: [LayerNode]) {
                for layer in layers {
                    used.formUnion(layer.lifetime?.transition.kindsUsed ?? [])
                    walk(layer.children)
                }
            }
            walk(job.layers)
        }
        for name in names {
            XCTAssertTrue(used.contains(name), "no job in jobs/ uses transition '\(name)'")
        }
    }

    /// jobs/transitions.json has one card per transition, named after it; halfway through its
    /// entrance and its removal each card is drawn (the frame differs from one without it) and
    /// changed by its transition.
    func testTheTransitionsJobDrawsEveryCardMidTransition() throws {
        let job = try JobFiles.load(file: Self.jobs.appendingPathComponent("transitions.json").path)
        let cards = job.layers.filter { $0.lifetime != nil }
        XCTAssertEqual(
            cards.compactMap(\.name).sorted(), LayerRegistry.transitions.map(\.name).sorted())
        let size = SIMD2(Double(job.output.width), Double(job.output.height))
        for (index, card) in job.layers.enumerated() {
            guard let lifetime = card.lifetime, let appear = lifetime.appear,
                let disappear = lifetime.disappear
            else { continue }
            XCTAssertEqual(lifetime.transition.kind, card.name)
            var others = job.layers
            others.remove(at: index)
            let without = Job(
                file: job.file, output: job.output, layers: others, audio: nil, limits: job.limits)
            // Part-way rather than halfway: a card moved half a container away is off the frame.
            for time in [appear + 0.4, disappear + 0.2] {
                let values = try XCTUnwrap(
                    lifetime.values(at: time, container: size), "\(card.path) t=\(time)")
                let masks = !lifetime.effects(at: time, container: size).isEmpty
                XCTAssertEqual(
                    values.isIdentity && !masks, card.name == "identity", "\(card.name ?? "") t=\(time)")
                XCTAssertTrue(
                    Fixture.render(job, at: time).byteArray != Fixture.render(without, at: time).byteArray,
                    "\(card.name ?? "") is not drawn at t=\(time)")
            }
        }
    }
}
