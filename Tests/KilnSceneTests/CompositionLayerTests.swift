import Foundation
import KilnExport
import KilnModel
import KilnRaster
import KilnTestSupport
import XCTest

@testable import KilnScene

/// The `composition` layer: its time mapping against a reference, the same pixels as its layers
/// placed inline, variables passed in, cycles and depth refused with their paths, threads and
/// drafts.
final class CompositionLayerTests: ScratchDirectoryTestCase {
    // MARK: Time mapping

    /// trim.start + (t − offset) · speed, looped by subtracting whole lengths (floor), nil outside.
    static func referenceLocalTime(
        _ t: Double, trim: (Double, Double), offset: Double, speed: Double, loop: Bool
    ) -> Double? {
        let played = (t - offset) * speed, length = trim.1 - trim.0
        if played < 0 { return nil }
        if loop { return trim.0 + played - length * (played / length).rounded(.down) }
        return played < length ? trim.0 + played : nil
    }

    func testTheTimeMappingMatchesAReference() {
        var random = SplitMix(state: 38)
        var checked = 0
        for _ in 0..<400 {
            let start = Double(random.next() % 400) / 100
            let length = 0.1 + Double(random.next() % 500) / 100
            let offset = Double(random.next() % 600) / 100
            let speed = [0.25, 0.5, 1, 1.5, 2, 4][Int(random.next() % 6)]
            let loop = random.next() % 2 == 0
            let timing = PlaybackTiming(
                trimStart: start, trimEnd: start + length, offset: offset, speed: speed, loop: loop)
            for n in 0..<300 {
                let t = Double(n) / 30
                let played = (t - offset) * speed
                // Away from the boundaries, where the nanosecond slack decides.
                let into = loop ? played - length * (played / length).rounded(.down) : played
                guard abs(played) > 1e-6, abs(into) > 1e-6, abs(into - length) > 1e-6 else { continue }
                let expected = Self.referenceLocalTime(
                    t, trim: (start, start + length), offset: offset, speed: speed, loop: loop)
                let got = timing.localTime(at: t)
                XCTAssertEqual(got == nil, expected == nil, "t=\(t) \(timing)")
                if let got, let expected { XCTAssertEqual(got, expected, accuracy: 1e-9, "t=\(t) \(timing)") }
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 50_000)
    }

    func testTheTimingsBoundaries() {
        let once = PlaybackTiming(trimStart: 1, trimEnd: 3, offset: 2, speed: 2, loop: false)
        XCTAssertNil(once.localTime(at: 1.999))
        XCTAssertEqual(once.localTime(at: 2), 1)
        // A rounding error short of the offset counts as there.
        XCTAssertEqual(once.localTime(at: 2 - 1e-12), 1)
        XCTAssertEqual(once.localTime(at: 2.5), 2)
        XCTAssertNil(once.localTime(at: 3), "the trimmed end is not shown")
        XCTAssertNil(once.localTime(at: 1000))
        let looped = PlaybackTiming(trimStart: 1, trimEnd: 3, offset: 2, speed: 2, loop: true)
        XCTAssertEqual(looped.localTime(at: 3), 1)
        XCTAssertEqual(looped.localTime(at: 3.25), 1.5)
        XCTAssertEqual(looped.localTime(at: 2 + 71.0 / 30 * 0.5) ?? -1, 1 + (71.0 / 30 - 2), accuracy: 1e-12)
    }

    // MARK: Pixels

    /// Frames compared without printing megabytes of bytes when they differ.
    func assertSame(_ a: [UInt8], _ b: [UInt8], _ message: String = "", line: UInt = #line) {
        XCTAssertTrue(a == b, "the frames differ \(message)", line: line)
        if a != b, a.count == b.count {
            let worst = zip(a, b).map { abs(Int($0) - Int($1)) }.max() ?? 0
            XCTFail("largest difference \(worst) code values", line: line)
        }
    }

    /// The layers a composition holds, also written into a group for the inline comparison.
    static let cardLayers = """
        [{"type": "shape", "shape": "roundedRect", "size": [300, 90], "position": [170, 70],
          "cornerRadius": 45, "fill": {"var": "accent"},
          "effects": [{"shadow": {"color": "#000000aa", "radius": 12, "x": 0, "y": 8}}]},
         {"type": "shape", "shape": "circle", "size": [60, 60], "position": [60, 70], "fill": "#ffffff",
          "scale": {"keyframes": [{"t": 0, "v": 0.2}, {"t": 1, "v": 1, "ease": "easeOut"}]}},
         {"type": "shape", "size": [160, 18], "position": {"keyframes": [{"t": 0, "v": [120, 70]}, {"t": 1.2, "v": [220, 70]}]},
          "cornerRadius": 9, "fill": "#ffffffcc", "appear": 0.3, "transition": "opacity",
          "effects": [{"blur": 2}]}]
        """

    /// What is placed over the background both ways: position, rotation, opacity, blend mode and
    /// an effect on the whole.
    static let placement = """
        "position": [330, 200], "rotation": 4, "opacity": 0.9, "blendMode": "screen",
        "effects": [{"saturation": 1.4}]
        """

    static let background = """
        {"type": "meshGradient", "width": 2, "height": 2, "points": [[0,0],[1,0],[0,1],[1,1]],
         "colors": ["#1d2b64", "#6a3093", "#0f6e74", "#f8cdda"]}
        """

    func inlineJob(accent: String = "#3366ff") throws -> Job {
        try Fixture.job(
            """
            {"kiln": 1, "output": {"width": 640, "height": 360, "fps": 30, "duration": 3},
             "layers": [\(Self.background),
               {"type": "group", "size": [360, 140], "clip": "rect", \(Self.placement),
                "layers": \(Self.cardLayers.replacingOccurrences(of: "{\"var\": \"accent\"}", with: "\"\(accent)\""))}]}
            """)
    }

    func compositionJob(accent: String? = "#3366ff", extra: String = "") throws -> Job {
        let passing = accent.map { ", \"variables\": {\"accent\": \"\($0)\"}" } ?? ""
        return try Fixture.job(
            """
            {"kiln": 1, "output": {"width": 640, "height": 360, "fps": 30, "duration": 3},
             "compositions": {"card": {"size": [360, 140], "duration": 2,
                                       "variables": {"accent": {"type": "color", "default": "#ff0000"}},
                                       "layers": \(Self.cardLayers)}},
             "layers": [\(Self.background),
               {"type": "composition", "composition": "card", \(Self.placement)\(passing)\(extra)}]}
            """)
    }

    /// The same layers, in a group of the composition's size at the same place, give the same
    /// bytes: a composition is that group with its own clock (here the same one).
    func testACompositionRendersTheSamePixelsAsItsLayersInline() throws {
        let inline = try inlineJob(), nested = try compositionJob()
        for t in [0, 0.35, 0.9, 1.5, 1.99] {
            assertSame(
                Fixture.render(nested, at: t, threads: 3).byteArray,
                Fixture.render(inline, at: t, threads: 3).byteArray,
                "t=\(t)")
        }
    }

    /// A group that lets its children through (`compositingGroup: false`) does so inside a
    /// composition as it does inline.
    func testAPassThroughGroupInsideACompositionActsAsInline() throws {
        let passThrough = { (layers: String) in
            #"[{"type": "group", "size": [360, 140], "compositingGroup": false, "opacity": 0.5, "layers": "#
                + layers + "}]"
        }
        let cards = Self.cardLayers.replacingOccurrences(of: "{\"var\": \"accent\"}", with: "\"#3366ff\"")
        let inline = try Fixture.job(
            """
            {"kiln": 1, "output": {"width": 640, "height": 360, "fps": 30, "duration": 3},
             "layers": [\(Self.background),
               {"type": "group", "size": [360, 140], "clip": "rect", \(Self.placement),
                "layers": \(passThrough(cards))}]}
            """)
        let nested = try Fixture.job(
            """
            {"kiln": 1, "output": {"width": 640, "height": 360, "fps": 30, "duration": 3},
             "compositions": {"card": {"size": [360, 140], "duration": 2, "layers": \(passThrough(cards))}},
             "layers": [\(Self.background), {"type": "composition", "composition": "card", \(Self.placement)}]}
            """)
        for t in [0.35, 1.5] {
            assertSame(
                Fixture.render(nested, at: t).byteArray, Fixture.render(inline, at: t).byteArray, "t=\(t)")
        }
    }

    func testVariablesReachTheComposition() throws {
        let green = try compositionJob(accent: "#22cc66")
        assertSame(
            Fixture.render(green, at: 1).byteArray,
            Fixture.render(try inlineJob(accent: "#22cc66"), at: 1).byteArray)
        XCTAssertFalse(
            Fixture.render(green, at: 1).byteArray == Fixture.render(try compositionJob(), at: 1).byteArray)
        // Nothing passed: the declared default.
        XCTAssertEqual(
            Fixture.render(try compositionJob(accent: nil), at: 1).byteArray,
            Fixture.render(try inlineJob(accent: "#ff0000"), at: 1).byteArray)
    }

    /// Outside the time it plays, only the background shows; inside, the composition's time is
    /// the mapped one (offset 1, trim from 0.5, double speed: timeline 1.25 is its 1.0).
    func testOffsetTrimAndSpeedPickTheFrameAndNothingShowsOutside() throws {
        let mapped = try compositionJob(extra: #", "offset": 1, "trim": {"start": 0.5}, "speed": 2"#)
        let plain = try compositionJob()
        let empty = try Fixture.job(
            """
            {"kiln": 1, "output": {"width": 640, "height": 360, "fps": 30, "duration": 3},
             "layers": [\(Self.background)]}
            """)
        let nothing = Fixture.render(empty).byteArray
        assertSame(Fixture.render(mapped, at: 0.9).byteArray, nothing)
        assertSame(Fixture.render(mapped, at: 1.25).byteArray, Fixture.render(plain, at: 1).byteArray)
        assertSame(Fixture.render(mapped, at: 1.5).byteArray, Fixture.render(plain, at: 1.5).byteArray)
        // It plays 1.5 s of its own in 0.75 s: gone from 1.75 on.
        assertSame(Fixture.render(mapped, at: 1.8).byteArray, nothing)
        assertSame(Fixture.render(plain, at: 2.5).byteArray, nothing, "played to its end")
        let looped = try compositionJob(
            extra: #", "offset": 1, "trim": {"start": 0.5}, "speed": 2, "loop": true"#)
        assertSame(Fixture.render(looped, at: 2).byteArray, Fixture.render(plain, at: 1).byteArray)
    }

    /// A job file played full frame at offset 1 shows what that job renders on its own a second
    /// earlier, byte for byte.
    func testAFileCompositionShowsWhatThatJobRendersOnItsOwn() throws {
        let lower = try write(
            "lower.json",
            """
            {"kiln": 1, "output": {"path": "lower.mp4", "width": 320, "height": 180, "fps": 30, "duration": 2},
             "variables": {"label": "Ada", "accent": {"type": "color", "default": "#3366ff"}},
             "layers": [{"type": "solid", "color": "#20202080"},
                        {"type": "shape", "size": [200, 40], "position": [160, 120], "cornerRadius": 20,
                         "fill": {"var": "accent"},
                         "scaleX": {"keyframes": [{"t": 0, "v": 0}, {"t": 1, "v": 1, "ease": "easeInOut"}]}}]}
            """)
        let alone = try JobFiles.load(file: lower)
        let main = try write(
            "main.json",
            """
            {"kiln": 1, "output": {"width": 320, "height": 180, "fps": 30, "duration": 4},
             "layers": [{"type": "composition", "file": "lower.json", "offset": 1}]}
            """)
        let job = try JobFiles.load(file: main)
        XCTAssertEqual(job.inputFiles.map(\.lastPathComponent), ["lower.json"])
        XCTAssertEqual(job.compositionFiles.map(\.url.lastPathComponent), ["lower.json"])
        for t in [0.0, 0.5, 1.0, 1.75] {
            assertSame(
                Fixture.render(job, at: 1 + t).byteArray, Fixture.render(alone, at: t).byteArray, "t=\(t)")
        }
        assertSame(Fixture.render(job, at: 3.5).byteArray, Fixture.render(job, at: 0.5).byteArray)
    }

    func testOneThreadAndManyGiveTheSameBytesAndADraftIsTheInlineDraft() throws {
        let nested = try compositionJob(extra: #", "offset": 0.2, "speed": 1.5"#)
        for t in [0.4, 1.1] {
            assertSame(
                Fixture.renderYUV(nested, at: t, threads: 1), Fixture.renderYUV(nested, at: t, threads: 4))
        }
        let draft = Draft(size: .scale(0.5))
        let half = try nested.drafted(draft), inlineHalf = try inlineJob().drafted(draft)
        let plain = try compositionJob().drafted(draft)
        XCTAssertEqual(half.output.width, 320)
        // At its mapped time the draft is the inline draft: solids and meshes take the scene's
        // box, blur radii the draft's scale, inside a composition as outside.
        assertSame(Fixture.render(plain, at: 0.9).byteArray, Fixture.render(inlineHalf, at: 0.9).byteArray)
        XCTAssertEqual(Fixture.render(half, at: 0.2 + 0.6 / 1.5).byteArray.count, 320 * 180 * 4)
    }

    /// A solid and a mesh gradient inside a composition fill the composition's box, not the frame.
    func testSceneContentFillsTheCompositionsBox() throws {
        let job = try Fixture.job(
            """
            {"kiln": 1, "output": {"width": 200, "height": 100, "fps": 30, "duration": 1},
             "compositions": {"box": {"size": [50, 40], "duration": 1, "layers": [{"type": "solid", "color": "#ffffff"}]}},
             "layers": [{"type": "solid", "color": "#000000"},
                        {"type": "composition", "composition": "box", "position": [20, 10], "anchor": [0, 0]}]}
            """)
        let frame = Fixture.render(job)
        func red(_ x: Int, _ y: Int) -> UInt8 { frame.pixel(x: x, y: y).x }
        XCTAssertEqual(red(25, 15), 255)
        XCTAssertEqual(red(69, 49), 255)
        XCTAssertEqual(red(71, 15), 0)
        XCTAssertEqual(red(25, 51), 0)
    }

    // MARK: Validation

    func messages(_ body: () throws -> Job) -> [Diagnostic] {
        do {
            _ = try body()
            XCTFail("expected the job to be refused")
        } catch let error as JobLoadError {
            if case .invalid(let diagnostics) = error { return diagnostics }
            XCTFail("\(error)")
        } catch {
            XCTFail("\(error)")
        }
        return []
    }

    func testACycleBetweenFilesIsRefusedNamingBothPaths() throws {
        _ = try write(
            "a.json",
            """
            {"kiln": 1, "output": {"width": 64, "height": 64, "fps": 30, "duration": 1},
             "layers": [{"type": "composition", "file": "b.json"}]}
            """)
        _ = try write(
            "b.json",
            """
            {"kiln": 1, "output": {"width": 64, "height": 64, "fps": 30, "duration": 1},
             "layers": [{"type": "solid", "color": "#000"}, {"type": "composition", "file": "a.json"}]}
            """)
        let a = directory.appendingPathComponent("a.json").path
        let diagnostics = messages { try JobFiles.load(file: a) }
        let cycle = try XCTUnwrap(diagnostics.first { $0.message.contains("cycle") }, "\(diagnostics)")
        XCTAssertTrue(cycle.message.contains("a.json layers[0].file plays b.json"), cycle.message)
        XCTAssertTrue(cycle.message.contains("b.json layers[1].file plays a.json"), cycle.message)
        XCTAssertTrue(cycle.file.hasSuffix("b.json"), cycle.file)
        XCTAssertEqual(cycle.path.description, "layers[1].file")

        _ = try write(
            "self.json",
            """
            {"kiln": 1, "output": {"width": 64, "height": 64, "fps": 30, "duration": 1},
             "layers": [{"type": "composition", "file": "./self.json"}]}
            """)
        let own = messages {
            try JobFiles.load(file: self.directory.appendingPathComponent("self.json").path)
        }
        XCTAssertTrue(
            own.contains {
                $0.message.contains("composition cycle") && $0.path.description == "layers[0].file"
            }, "\(own)")
    }

    func testInlineCompositionsThatPlayEachOtherAreRefused() {
        let diagnostics = messages {
            try Fixture.job(
                """
                {"kiln": 1, "output": {"width": 64, "height": 64, "fps": 30, "duration": 1},
                 "compositions": {
                   "a": {"size": [10, 10], "duration": 1, "layers": [{"type": "composition", "composition": "b"}]},
                   "b": {"size": [10, 10], "duration": 1, "layers": [{"type": "composition", "composition": "a"}]}},
                 "layers": [{"type": "composition", "composition": "a"}]}
                """)
        }
        let cycle = diagnostics.first { $0.message.contains("composition cycle") }
        XCTAssertNotNil(cycle, "\(diagnostics)")
        XCTAssertTrue(
            cycle?.message.contains("compositions.a.layers[0].composition plays compositions.b") ?? false)
        XCTAssertTrue(
            cycle?.message.contains("compositions.b.layers[0].composition plays compositions.a") ?? false)
    }

    func testCompositionsNestedTooDeeplyAreRefused() {
        let chain = (0..<10).map { n in
            n == 9
                ? "\"c9\": {\"size\": [8, 8], \"duration\": 1, \"layers\": []}"
                : "\"c\(n)\": {\"size\": [8, 8], \"duration\": 1, \"layers\": [{\"type\": \"composition\", \"composition\": \"c\(n + 1)\"}]}"
        }.joined(separator: ",")
        let job = { (top: Int) in
            try Fixture.job(
                """
                {"kiln": 1, "output": {"width": 64, "height": 64, "fps": 30, "duration": 1},
                 "compositions": {\(chain)}, "layers": [{"type": "composition", "composition": "c\(top)"}]}
                """)
        }
        XCTAssertNoThrow(try job(2), "8 deep is allowed")
        let diagnostics = messages { try job(0) }
        XCTAssertTrue(diagnostics.contains { $0.message.contains("nest more than 8 deep") }, "\(diagnostics)")
    }

    /// The nesting limit bounds the whole tree: each composition starts at the depth of the
    /// layer that plays it, so four compositions of ten nested groups each are 44 deep.
    func testTheNestingLimitCountsTheLayersOfEveryDocument() {
        func groups(_ depth: Int, around inner: String) -> String {
            depth == 0 ? inner : #"{"type": "group", "layers": ["# + groups(depth - 1, around: inner) + "]}"
        }
        let chain = (0..<4).map { n in
            let inner =
                n == 3
                ? #"{"type": "solid", "color": "red"}"#
                : #"{"type": "composition", "composition": "c\#(n + 1)"}"#
            return
                "\"c\(n)\": {\"size\": [8, 8], \"duration\": 1, \"layers\": [\(groups(10, around: inner))]}"
        }.joined(separator: ",")
        let diagnostics = messages {
            try Fixture.job(
                """
                {"kiln": 1, "output": {"width": 64, "height": 64, "fps": 30, "duration": 1},
                 "compositions": {\(chain)}, "layers": [{"type": "composition", "composition": "c0"}]}
                """)
        }
        XCTAssertTrue(diagnostics.contains { $0.message.contains("nesting depth") }, "\(diagnostics)")
    }

    func testTheNestedJobIsValidatedWithItsOwnFileAndPaths() throws {
        _ = try write(
            "broken.json",
            """
            {"kiln": 1, "output": {"width": 64, "height": 64, "fps": 30, "duration": 1},
             "variables": {"size": {"type": "number", "default": 10, "min": 0, "max": 50}},
             "layers": [{"type": "shape", "size": [10, 10], "fill": "#zzz"}]}
            """)
        let main = try write(
            "main.json",
            """
            {"kiln": 1, "output": {"width": 64, "height": 64, "fps": 30, "duration": 1},
             "layers": [{"type": "composition", "file": "broken.json", "variables": {"size": 80, "colour": "red"}}]}
            """)
        let diagnostics = messages { try JobFiles.load(file: main) }
        let inner = diagnostics.first { $0.file.hasSuffix("broken.json") }
        XCTAssertEqual(inner?.path.description, "layers[0].fill", "\(diagnostics)")
        XCTAssertTrue(
            diagnostics.contains { $0.path.description == "layers[0].variables.size" }, "\(diagnostics)")
        XCTAssertTrue(
            diagnostics.contains {
                $0.path.description == "layers[0].variables.colour" && $0.message.contains("no variable")
            }, "\(diagnostics)")
        let bounded = messages {
            try Fixture.job(
                """
                {"kiln": 1, "output": {"width": 64, "height": 64, "fps": 30, "duration": 1},
                 "compositions": {"c": {"size": [8, 8], "duration": 1, "layers": []}},
                 "layers": [{"type": "composition", "composition": "c", "offset": 1e308, "speed": 1e308}]}
                """)
        }
        XCTAssertEqual(bounded.map(\.path.description), ["layers[0].offset", "layers[0].speed"])
    }

    func testUnknownCompositionsAndBothSourcesAreRefused() {
        let unknown = messages {
            try Fixture.job(
                """
                {"kiln": 1, "output": {"width": 64, "height": 64, "fps": 30, "duration": 1},
                 "compositions": {"intro": {"size": [8, 8], "duration": 1, "layers": []}},
                 "layers": [{"type": "composition", "composition": "intr"}]}
                """)
        }
        XCTAssertTrue(unknown.contains { $0.message.contains("did you mean 'intro'") }, "\(unknown)")
        let both = messages {
            try Fixture.job(
                """
                {"kiln": 1, "output": {"width": 64, "height": 64, "fps": 30, "duration": 1},
                 "layers": [{"type": "composition"}]}
                """)
        }
        XCTAssertTrue(both.contains { $0.message.contains("missing 'file'") }, "\(both)")
    }

    /// The nested layers are the job's layers for its memory budget: a composition played three
    /// times counts three times the offscreen images of one.
    func testNestedLayersAreChargedToTheJobsBudget() throws {
        let limits = try ResourceLimits(overrides: ["memory-megabytes": 8])
        let job = """
            {"kiln": 1, "output": {"width": 640, "height": 360, "fps": 30, "duration": 1},
             "compositions": {"c": {"size": [64, 64], "duration": 1,
                                    "layers": [{"type": "solid", "color": "#fff", "effects": [{"blur": 3}]}]}},
             "layers": [{"type": "composition", "composition": "c"}, {"type": "composition", "composition": "c"},
                        {"type": "composition", "composition": "c"}]}
            """
        let diagnostics = messages {
            try JobFiles.decode(
                bytes: Array(job.utf8), file: "t.json",
                baseDirectory: URL(fileURLWithPath: NSTemporaryDirectory()),
                options: JobLoadOptions(limits: limits))
        }
        XCTAssertTrue(
            diagnostics.contains { $0.message.contains("3 offscreen images of 3 layers") }, "\(diagnostics)")
    }

    /// Compositions that each play the next many times (a billion laughs) stop at the job's
    /// layer limit: every placement's layers count, so the work is bounded by it, not by 100⁸.
    func testFanOutStopsAtTheLayerLimit() throws {
        let place = { (name: String) in
            Array(repeating: "{\"type\": \"composition\", \"composition\": \"\(name)\"}", count: 100)
                .joined(separator: ",")
        }
        let levels = (0..<8).map { n in
            "\"l\(n)\": {\"size\": [8, 8], \"duration\": 1, \"layers\": [\(n == 7 ? "" : place("l\(n + 1)"))]}"
        }.joined(separator: ",")
        let started = Date()
        let diagnostics = messages {
            try Fixture.job(
                """
                {"kiln": 1, "output": {"width": 64, "height": 64, "fps": 30, "duration": 1},
                 "compositions": {\(levels)}, "layers": [\(place("l0"))]}
                """)
        }
        XCTAssertTrue(
            diagnostics.contains { $0.message.contains("number of layers") }, "\(diagnostics.prefix(3))")
        XCTAssertLessThan(Date().timeIntervalSince(started), 10)
    }
}
