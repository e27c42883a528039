import Foundation
import KilnExport
import KilnModel
import KilnRaster
import KilnScene
import KilnSymbols
import KilnTestSupport
import XCTest

/// The symbol layer: what its pixels show at the moments the issue names (variable value,
/// replace, effects at rest), its errors, its baseline, and determinism.
final class SymbolLayerTests: ScratchDirectoryTestCase {
    /// A 400×400 black frame with one white symbol of `size` centred, plus `keys`.
    func job(_ keys: String, size: Double = 200, duration: Double = 6) throws -> Job {
        try Fixture.job(
            """
            {"kiln": 1, "output": {"width": 400, "height": 400, "fps": 30, "duration": \(duration)},
             "layers": [{"type": "solid", "color": "#000000"},
                        {"type": "symbol", "size": \(size), \(keys)}]}
            """)
    }

    /// Where a point of the symbol's view box lands in the frame for `job(…)`'s centred symbol.
    func framePoint(_ p: SIMD2<Double>, of artwork: SymbolArtwork, size: Double = 200) -> (x: Int, y: Int) {
        let scale = size * 0.72 / artwork.capHeight
        let box = artwork.size * scale
        let corner = SIMD2(200.0, 200.0) - box / 2
        let q = corner + p * scale
        return (Int(q.x), Int(q.y))
    }

    /// The grey level (red channel) at a point of the view box.
    func level(_ frame: RGBA8Frame, _ p: SIMD2<Double>, of artwork: SymbolArtwork) -> Int {
        let q = framePoint(p, of: artwork)
        return Int(frame.pixel(x: q.x, y: q.y)[0])
    }

    /// Variable value on wifi (dot 0, arcs 1/3, 2/3, 1) lights exactly the layers at or below
    /// it; the others are drawn dimmed, at 0.35. At exactly 1/3 (and 2/3) the arcs of that step
    /// are lit and just below they are dim: thresholds of 0.34 and 0.67 once left them dim at
    /// 1/3 and 2/3. The steps expected are Apple's even thirds, not the catalog's own numbers.
    func testVariableValueLightsExactlyTheLayersAtOrBelowIt() throws {
        for value in [0.5, 1.0 / 3.0, 2.0 / 3.0, (1.0 / 3.0).nextDown, (2.0 / 3.0).nextDown, 1] {
            try assertLit(upTo: value)
        }
    }

    private static let wifiSteps = ["dot": 0, "arc1": 1.0 / 3.0, "arc2": 2.0 / 3.0, "arc3": 1]

    private func assertLit(upTo variable: Double) throws {
        let wifi = try XCTUnwrap(SymbolCatalog.shipped("wifi"))
        let frame = Fixture.render(try job(#""symbol": "wifi", "variableValue": \#(variable)"#), at: 1)
        for layer in wifi.layers {
            // The top of each arc's stroke, half a stroke width in: inside that layer only.
            let bounds = layer.bounds
            let probe =
                layer.name == "dot"
                ? (bounds.min + bounds.max) / 2 : SIMD2((bounds.min.x + bounds.max.x) / 2, bounds.min.y + 4)
            let lit = try XCTUnwrap(Self.wifiSteps[layer.name], layer.name) <= variable
            let value = level(frame, probe, of: wifi)
            if lit {
                XCTAssertGreaterThanOrEqual(value, 250, "\(layer.name) at \(variable)")
            } else {
                XCTAssertEqual(Double(value), 0.35 * 255, accuracy: 6, "\(layer.name) at \(variable)")
            }
        }
    }

    /// Replace shows only the old symbol before its time and only the new one once it is over:
    /// the frames equal those of the two symbols drawn alone.
    func testReplaceShowsOnlyTheOldBeforeAndOnlyTheNewAfter() throws {
        let replacing = try job(
            #""symbol": "play.fill", "replacements": [{"at": 2, "symbol": "pause.fill"}], "contentTransition": "replace.downUp.byLayer""#
        )
        let play = Fixture.render(try job(#""symbol": "play.fill""#), at: 0)
        let pause = Fixture.render(try job(#""symbol": "pause.fill""#), at: 0)
        XCTAssertEqual(Fixture.render(replacing, at: 1.99).byteArray, play.byteArray)
        XCTAssertEqual(Fixture.render(replacing, at: 3.5).byteArray, pause.byteArray)
        let during = Fixture.render(replacing, at: 2.1).byteArray
        XCTAssertNotEqual(during, play.byteArray)
        XCTAssertNotEqual(during, pause.byteArray)
    }

    /// A bounce with repeat 2 moves the symbol, and afterwards the frame is again exactly the
    /// symbol at rest; an indefinite scale returns to exactly the rest picture when switched off.
    func testEffectsEndExactlyAtRest() throws {
        let rest = Fixture.render(try job(#""symbol": "bell""#), at: 0).byteArray
        let bounce = try job(
            #""symbol": "bell", "symbolEffects": [{"effect": "bounce", "at": [1], "repeat": 2}]"#)
        XCTAssertEqual(Fixture.render(bounce, at: 0.99).byteArray, rest)
        XCTAssertNotEqual(Fixture.render(bounce, at: 1.25).byteArray, rest)
        XCTAssertNotEqual(Fixture.render(bounce, at: 1.75).byteArray, rest)
        XCTAssertEqual(Fixture.render(bounce, at: 2.5).byteArray, rest)
        let scale = try job(
            #""symbol": "bell", "symbolEffects": [{"effect": "scale.up", "active": [[1, 2]]}]"#)
        XCTAssertNotEqual(Fixture.render(scale, at: 1.9).byteArray, rest)
        XCTAssertEqual(Fixture.render(scale, at: 4).byteArray, rest)
        let instant = try job(
            #""symbol": "bell", "symbolEffects": [{"effect": "scale.up", "active": [[1, 2]], "animated": false}]"#
        )
        XCTAssertEqual(Fixture.render(instant, at: 1.0).byteArray, Fixture.render(instant, at: 1.5).byteArray)
        XCTAssertEqual(Fixture.render(instant, at: 2.0).byteArray, rest)
    }

    /// Effects on a stack reach every symbol inside it except one that removes them.
    func testStackEffectsPropagateUnlessRemoved() throws {
        let job = try Fixture.job(
            """
            {"kiln": 1, "output": {"width": 400, "height": 200, "fps": 30, "duration": 3},
             "layers": [{"type": "solid", "color": "#000000"},
               {"type": "stack", "spacing": 20, "symbolEffects": ["pulse.wholeSymbol"], "layers": [
                 {"type": "symbol", "symbol": "figure.walk", "size": 80, "symbolEffectsRemoved": true},
                 {"type": "symbol", "symbol": "car", "size": 80}]}]}
            """)
        let start = Fixture.render(job, at: 0), mid = Fixture.render(job, at: 0.5)
        func region(_ frame: RGBA8Frame, _ columns: Range<Int>) -> [UInt8] {
            (0..<200).flatMap { y in
                columns.flatMap { x -> [UInt8] in
                    let p = frame.pixel(x: x, y: y)
                    return [p[0], p[1], p[2], p[3]]
                }
            }
        }
        // The stack is centred: the figure occupies the left part, the car the right.
        XCTAssertEqual(region(start, 0..<150), region(mid, 0..<150))
        XCTAssertNotEqual(region(start, 200..<400), region(mid, 200..<400))
    }

    /// A symbol's baseline is text's: in a baseline-aligned row the symbol's baseline and the
    /// label's first baseline are one line.
    func testSymbolSitsOnTheTextBaseline() throws {
        let job = try Fixture.job(
            """
            {"kiln": 1, "output": {"width": 600, "height": 200, "fps": 30, "duration": 1},
             "layers": [{"type": "stack", "alignment": "firstTextBaseline", "layers": [
                 {"type": "symbol", "symbol": "heart.fill", "size": 60},
                 {"type": "text", "text": "Liked", "size": 60}]}]}
            """)
        let canvas = Canvas(width: 600, height: 200)
        let stack = try XCTUnwrap(job.layers.first)
        let slots = stack.stackSlots(at: 0, canvas: canvas)
        let origins = (stack.content as! StackLayer).layout(slots, at: 0).origins
        let heart = try XCTUnwrap(SymbolCatalog.shipped("heart.fill"))
        let symbolBaseline = try XCTUnwrap(slots[0].baseline)
        XCTAssertEqual(symbolBaseline, heart.baseline * 60 * 0.72 / heart.capHeight, accuracy: 1e-9)
        XCTAssertEqual(
            origins[0].y + symbolBaseline, origins[1].y + (slots[1].baseline ?? .nan), accuracy: 1e-9)
    }

    /// The showcase of every behaviour: the same bytes with one thread and with three.
    func testSymbolsJobIsTheSameOnAnyThreadCount() throws {
        let job = try JobFiles.load(
            file: Fixture.repositoryRoot.appendingPathComponent("jobs/symbols.json").path)
        for time in [1.3, 3.2, 8.4] {
            XCTAssertEqual(
                Fixture.renderYUV(job, at: time, threads: 1), Fixture.renderYUV(job, at: time, threads: 3),
                "t = \(time)")
        }
    }

    /// The moon that enters and leaves its stack as a transition never touches its neighbour:
    /// its sparkles reach beyond its slot on the right, so it stands last, where nothing is. In
    /// every frame of its entrance and its removal, on a half-size draft, the moon's yellow ink
    /// starts at least 4 pixels right of the circle's blue (before, the sparkles ran into it).
    func testEnteringMoonNeverTouchesItsNeighbour() throws {
        let full = try JobFiles.load(
            file: Fixture.repositoryRoot.appendingPathComponent("jobs/symbols.json").path)
        let job = try full.drafted(Draft(size: .scale(0.5)))
        // The cell "disappear.down · as a transition": the middle third of the bottom row.
        let cell = (x: 310..<620, y: 410..<530)
        var checked = 0
        for start in [2.0, 8.0] {
            for time in stride(from: start, to: start + 1.2, by: 1.0 / 30) {
                let frame = Fixture.render(job, at: time)
                var circleRight = Int.min, moonLeft = Int.max
                for y in cell.y {
                    for x in cell.x {
                        let p = SIMD4<Int>(truncatingIfNeeded: frame.pixel(x: x, y: y))
                        if p[2] > 120 && p[0] < 80 { circleRight = max(circleRight, x) }
                        if p[0] > 120 && p[1] > 100 && p[0] > p[2] + 60 { moonLeft = min(moonLeft, x) }
                    }
                }
                XCTAssertGreaterThan(circleRight, Int.min, "the circle at \(time) s")
                guard moonLeft < Int.max else { continue }
                checked += 1
                XCTAssertGreaterThanOrEqual(moonLeft - circleRight, 4, "at \(time) s")
            }
        }
        XCTAssertGreaterThan(checked, 30, "frames with the moon on screen")
    }

    func messages(_ keys: String) -> [String] {
        do {
            _ = try job(keys)
            return []
        } catch {
            guard case .invalid(let diagnostics)? = error as? JobLoadError else { return ["\(error)"] }
            return diagnostics.map { "\($0.path): \($0.message)" }
        }
    }

    func exitCode(_ keys: String) -> Int32? {
        do {
            _ = try job(keys)
            return nil
        } catch {
            return (error as? JobLoadError)?.exitCode
        }
    }

    func testBadSymbolsAreRefusedWithTheirPaths() throws {
        XCTAssertEqual(
            messages(#""symbol": "wify""#),
            [
                "layers[1].symbol: unknown symbol 'wify'; did you mean 'wifi'? (`kiln symbols` lists the shipped "
                    + "ones; `file` draws your own SVG)"
            ])
        XCTAssertEqual(
            messages(#""symbol": "wifi", "symbolEffects": ["bounse"]"#).first?.hasPrefix(
                "layers[1].symbolEffects[0]"),
            true)
        XCTAssertTrue(messages(#""symbol": "wifi", "symbolEffects": ["bounse"]"#).joined().contains("bounce"))
        XCTAssertEqual(messages(#""symbol": "wifi", "file": "x.svg""#).count, 1)
        XCTAssertEqual(
            messages(##""color": "#ffffff""##),
            ["layers[1]: missing 'symbol' (a shipped symbol's name) or 'file' (an SVG of your own)"])
        XCTAssertTrue(
            messages(#""symbol": "wifi", "contentTransition": "replace.sideways""#).first?.hasPrefix(
                "layers[1].contentTransition") ?? false)
        XCTAssertEqual(
            messages(
                #""symbol": "wifi", "replacements": [{"at": 2, "symbol": "bell"}, {"at": 1, "symbol": "car"}]"#
            ),
            ["layers[1].replacements[1].at: replacements must be in time order: 1.0 s is not after 2.0 s"])
        XCTAssertEqual(exitCode(#""file": "no-such-symbol.svg""#), 66)
    }

    /// An SVG of the user's own: drawn when well formed; a malformed one, one without layers and
    /// one with bad path data are refused with the file, line and column (or the offset in `d`).
    func testOwnSymbolFiles() throws {
        let good = try write(
            "dot.svg",
            #"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><g id="dot"><circle cx="50" cy="50" r="30"/></g></svg>"#
        )
        let frame = Fixture.render(try job(#""file": "\#(good)""#), at: 0)
        XCTAssertEqual(frame.pixel(x: 200, y: 200), SIMD4(255, 255, 255, 255))
        let malformed = try write(
            "bad.svg", "<svg viewBox=\"0 0 100 100\">\n  <g id=\"a\"><path d=\"M0 0\"></g>\n</svg>")
        let problem = messages(#""file": "\#(malformed)""#).joined()
        XCTAssertTrue(problem.contains("bad.svg:2:"), problem)
        let empty = try write(
            "empty.svg", #"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"></svg>"#)
        XCTAssertEqual(messages(#""file": "\#(empty)""#).count, 1)
        let badPath = try write(
            "path.svg",
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 100 100\">\n<g id=\"a\">\n<path d=\"M10 10 L 20\"/></g></svg>"
        )
        let pathProblem = messages(#""file": "\#(badPath)""#).joined()
        XCTAssertTrue(pathProblem.contains("path.svg:3:") && pathProblem.contains("offset"), pathProblem)
        XCTAssertEqual(exitCode(#""file": "\#(malformed)""#), 65)
    }
}
