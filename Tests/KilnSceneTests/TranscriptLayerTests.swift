import Foundation
import KilnExport
import KilnModel
import KilnRaster
import KilnTestSupport
import KilnText
import XCTest

@testable import KilnScene

/// The transcript overlay: the current line centred after its spring, the timestamp under it,
/// the cross-fade, thread independence, and bad input.
final class TranscriptLayerTests: ScratchDirectoryTestCase {
    func overlayJob(height: Int = 300, extra: String = "") throws -> Job {
        let transcript = try write(
            "t.json",
            #"{"segments": [{"start": 0, "text": "First line"}, {"start": 2, "text": "Second"}, {"start": 4, "text": "Third one"}]}"#
        )
        return try Fixture.job(
            """
            {"kiln": 1, "output": {"width": 400, "height": 300, "fps": 30, "duration": 6},
             "layers": [{"type": "solid", "color": "#000000"},
                        {"type": "transcript", "path": "\(transcript)", "position": [0, 0], "anchor": [0, 0],
                         "width": 400, "height": \(height), "fontSize": 30, "otherOpacity": 0.3, "otherBlur": 1\(extra)}]}
            """)
    }

    /// Rows holding bright (current-line) pixels.
    func brightRows(_ frame: RGBA8Frame, threshold: UInt8 = 200) -> Range<Int>? {
        var rows: [Int] = []
        for y in 0..<frame.height {
            for x in 0..<frame.width where frame.pixel(x: x, y: y).x >= threshold {
                rows.append(y)
                break
            }
        }
        guard let first = rows.first, let last = rows.last else { return nil }
        return first..<(last + 1)
    }

    func testCurrentLineSettlesCentredWithItsTimestampBelow() throws {
        let job = try overlayJob()
        for time in [1.9, 3.9, 5.9] {
            let frame = Fixture.render(job, at: time)
            let bright = try XCTUnwrap(brightRows(frame), "t = \(time)")
            // The bold line's ink is centred (within its ascender/descender asymmetry).
            XCTAssertEqual(
                Double(bright.lowerBound + bright.upperBound) / 2, 150, accuracy: 12, "t = \(time)")
            // The timestamp (0.7 opacity, dimmer than the line) sits right under it.
            var stampRows = 0
            for y in bright.upperBound..<min(300, bright.upperBound + 40) {
                if (0..<60).contains(where: {
                    frame.pixel(x: $0, y: y).x > 90 && frame.pixel(x: $0, y: y).x < 200
                }) {
                    stampRows += 1
                }
            }
            XCTAssertGreaterThan(stampRows, 5, "a timestamp under the current line at t = \(time)")
        }
    }

    /// With no spacing asked for, the gap under each line is still the timestamp's height: the
    /// timestamp hanging under the current line stays clear of the next line's ink.
    func testTheTimestampHangsClearOfTheNextLine() throws {
        let frame = Fixture.render(try overlayJob(extra: #", "spacing": 0"#), at: 1.9)
        let bright = try XCTUnwrap(brightRows(frame))
        func inked(_ y: Int, _ xs: Range<Int>, above level: UInt8) -> Bool {
            xs.contains { frame.pixel(x: $0, y: y).x > level }
        }
        // Only the timestamp (0.7 opacity) is this bright below the current line; the next line
        // is at 0.3 and starts left too, but only it reaches past the timestamp's "0:00".
        let stamp = (bright.upperBound..<300).filter { inked($0, 0..<50, above: 90) }
        let lastStampRow = try XCTUnwrap(stamp.last, "a timestamp under the current line")
        let nextLine = try XCTUnwrap(
            (lastStampRow..<300).first { inked($0, 60..<400, above: 8) }, "the next line below it")
        XCTAssertGreaterThanOrEqual(
            nextLine - lastStampRow - 1, 6, "clear rows between the timestamp and the next line")
    }

    /// A line whose greedy wrap leaves one word alone wraps balanced (the default), and its
    /// regular picture breaks where its bold one does, so the cross-fade shows one text.
    func testLinesWrapBalancedAndBothWeightsBreakAlike() throws {
        let transcript = try write(
            "t.json",
            #"{"segments": [{"start": 0, "text": "Today we are talking about baking video offline."}]}"#)
        func layer(_ wrap: String) throws -> TranscriptLayer {
            let job = try Fixture.job(
                """
                {"kiln": 1, "output": {"width": 1920, "height": 1080, "fps": 30, "duration": 1},
                 "layers": [{"type": "transcript", "path": "\(transcript)", "width": 1100, "fontSize": 54,
                             "wrap": "\(wrap)"}]}
                """)
            return try XCTUnwrap(job.layers[0].content as? TranscriptLayer)
        }
        func lines(_ layout: TextLayout) -> [String] {
            let utf8 = Array(layout.text.utf8)
            return layout.lines.map {
                String(decoding: utf8[$0.range], as: UTF8.self).trimmingCharacters(
                    in: .whitespacesAndNewlines)
            }
        }
        let greedy = try layer("greedy").pictures
        XCTAssertEqual(lines(greedy.boldLayouts[0]).last, "offline.", "the case balancing is for")
        let balanced = try layer("balanced").pictures
        let bold = lines(balanced.boldLayouts[0])
        XCTAssertEqual(bold.count, 2)
        XCTAssertGreaterThan(bold.last?.split(separator: " ").count ?? 0, 1, "\(bold)")
        XCTAssertEqual(lines(balanced.regularLayouts[0]), bold)
    }

    /// The transcript layers of the shipped demos that show one.
    func shippedTranscripts() throws -> [(String, TranscriptLayer)] {
        let jobs = Fixture.repositoryRoot.appendingPathComponent("jobs")
        return try ["podcast.json", "audiogram.json"].map { file in
            let job = try JobFiles.load(file: jobs.appendingPathComponent(file).path)
            let layer = try XCTUnwrap(
                job.layers.lazy.compactMap { $0.content as? TranscriptLayer }.first, file)
            return (file, layer)
        }
    }

    /// Where each cluster's ink is centred along the line (its glyphs' coverage-weighted
    /// middle), keyed by its offset in its line; clusters without ink (spaces) are left out.
    func inkCentres(_ layout: TextLayout) -> [[Int: Double]] {
        layout.lines.map { line in
            var sums: [Int: (moment: Double, weight: Double)] = [:]
            for glyph in line.runs.flatMap(\.glyphs) {
                let bitmap = glyph.face.bitmap(glyph: glyph.glyph, phase: 0)
                for y in 0..<bitmap.height {
                    for x in 0..<bitmap.width {
                        let a = Double(bitmap.premultipliedRGBA[(y * bitmap.width + x) * 4 + 3])
                        let centre = glyph.position.x.rounded(.down) + Double(bitmap.left + x) + 0.5
                        sums[glyph.cluster - line.range.lowerBound, default: (0, 0)].moment += a * centre
                        sums[glyph.cluster - line.range.lowerBound, default: (0, 0)].weight += a
                    }
                }
            }
            return sums.filter { $0.value.weight > 0 }.mapValues { $0.moment / $0.weight }
        }
    }

    /// At every line change the current line cross-fades between its regular and bold
    /// pictures: each letter's ink is centred in the same place in both, so the fade thickens
    /// one text in place. At their own advances the regular line ended 38–64 px short of the
    /// bold one at 1080p, and both showed, offset, for 4–5 frames of every change.
    func testBothWeightsOfEveryLinePutEachLetterInTheSamePlace() throws {
        for (file, layer) in try shippedTranscripts() {
            let pictures = layer.pictures
            XCTAssertEqual(pictures.boldLayouts.count, layer.transcript.lines.count)
            for (index, (regular, bold)) in zip(pictures.regularLayouts, pictures.boldLayouts).enumerated() {
                let a = inkCentres(regular), b = inkCentres(bold)
                XCTAssertEqual(
                    a.map { $0.keys.sorted() }, b.map { $0.keys.sorted() }, "\(file) line \(index)")
                let drift =
                    zip(a, b).flatMap { a, b in a.compactMap { key, x in b[key].map { abs($0 - x) } } }
                    .max() ?? 0
                XCTAssertLessThan(drift, 2, "\(file) line \(index): a letter's weights apart by \(drift) px")
            }
        }
    }

    /// What the layer draws through every line change of the shipped podcast and audiogram,
    /// frame by frame: a line drawn in both weights at more than 5 % each (the old line fading
    /// back, the new one fading in) puts each letter in one place (ink centres within 2 px, same
    /// baseline), so no frame shows two placements of a line. At their own advances the two
    /// weights were drawn up to 63 px apart, both at 20 % or more, for 4–5 frames of each change.
    func testEveryLineChangeDrawsEachLineInOnePlace() throws {
        let fps = 30.0
        for (file, layer) in try shippedTranscripts() {
            let pictures = layer.pictures
            let regular = pictures.regularLayouts.map(inkCentres), bold = pictures.boldLayouts.map(inkCentres)
            var doubled: [String] = [], framesWithBoth = 0
            for change in layer.transcript.lines.map(\.start) {
                let first = (change * fps).rounded(.down) - 1
                let last = ((change + TranscriptLayer.fade) * fps).rounded(.up) + 1
                for frame in stride(from: first, through: last, by: 1) where frame >= 0 {
                    let time = frame / fps
                    let moment = layer.moment(at: time)
                    for index in layer.tops.indices {
                        let weights = layer.weights(of: index, moment)
                        guard weights.faded > 0.05, weights.bold > 0.05 else { continue }
                        framesWithBoth += 1
                        let baselines =
                            zip(
                                pictures.regularLayouts[index].lines.map(\.baseline),
                                pictures.boldLayouts[index].lines.map(\.baseline)
                            ).map { abs($0 - $1) }.max() ?? 0
                        let apart =
                            zip(regular[index], bold[index]).flatMap { a, b in
                                a.compactMap { key, x in b[key].map { abs($0 - x) } }
                            }.max() ?? 0
                        if apart >= 2 || baselines >= 1 {
                            doubled.append(
                                String(
                                    format:
                                        "%.3f s, line %d (regular %.2f, bold %.2f): letters %.1f px apart",
                                    time, index, weights.faded, weights.bold, apart))
                        }
                    }
                }
            }
            XCTAssertGreaterThanOrEqual(
                framesWithBoth, layer.transcript.lines.count, "\(file): the fades were seen")
            XCTAssertEqual(doubled, [], "\(file): \(doubled.count) drawings of a line in two places")
        }
    }

    /// The same in pixels: drawn sharp, the regular line's ink lies within the bold line's
    /// (strokes thicken in place, the edges of one text), where at its own advances most of it
    /// fell beside the bold strokes and showed as a second, offset text (1.2 % of it outside
    /// the bold ink now, 58 % before).
    func testTheRegularLinesInkLiesWithinTheBoldLines() throws {
        func alpha(_ picture: TextImage) -> (origin: SIMD2<Int>, width: Int, height: Int, a: [Float]) {
            guard let image = picture.coverage else { return (.zero, 0, 0, []) }
            let level = image.levels[0]
            var a = [Float](repeating: 0, count: image.width * image.height)
            for y in 0..<image.height {
                for x in 0..<image.width {
                    a[y * image.width + x] = Float(level.texels[y * level.stride + x] >> 24) / 255
                }
            }
            return (picture.offset, image.width, image.height, a)
        }
        for (file, layer) in try shippedTranscripts() {
            let pictures = layer.pictures
            var worst = 0.0
            for (regularLayout, boldLayout) in zip(pictures.regularLayouts, pictures.boldLayouts) {
                let regular = alpha(TextImage(regularLayout, margin: 8))
                let bold = alpha(TextImage(boldLayout, margin: 8))
                func boldAlpha(_ x: Int, _ y: Int) -> Float {
                    let bx = x - bold.origin.x, by = y - bold.origin.y
                    guard bx >= 0, by >= 0, bx < bold.width, by < bold.height else { return 0 }
                    return bold.a[by * bold.width + bx]
                }
                var ink = 0.0, outside = 0.0
                for y in 0..<regular.height {
                    for x in 0..<regular.width {
                        let r = regular.a[y * regular.width + x]
                        ink += Double(r)
                        outside += Double(max(0, r - boldAlpha(x + regular.origin.x, y + regular.origin.y)))
                    }
                }
                worst = max(worst, outside / max(ink, 1))
            }
            XCTAssertLessThan(worst, 0.05, "\(file): the most regular ink outside the bold line's")
        }
    }

    /// Lines are cut to the viewport, as a scroll view cuts its content.
    func testLinesAreCutToTheViewport() throws {
        let frame = Fixture.render(try overlayJob(height: 100), at: 3)
        var inside = 0
        for y in 0..<300 {
            for x in 0..<400 where frame.pixel(x: x, y: y).x > 20 {
                XCTAssertLessThan(y, 100, "ink below the viewport at (\(x), \(y))")
                inside += 1
            }
        }
        XCTAssertGreaterThan(inside, 100)
    }

    func testTheListSpringsBetweenLines() throws {
        let job = try overlayJob()
        // Just after the change to line 2, the old line is still near the centre and the list moves.
        let before = try XCTUnwrap(brightRows(Fixture.render(job, at: 1.95)))
        let during = Fixture.render(job, at: 2.1)
        let after = try XCTUnwrap(brightRows(Fixture.render(job, at: 3.5)))
        XCTAssertEqual(
            Double(before.lowerBound + before.upperBound) / 2,
            Double(after.lowerBound + after.upperBound) / 2,
            accuracy: 12)
        XCTAssertNotEqual(during.byteArray, Fixture.render(job, at: 3.5).byteArray)
        XCTAssertEqual(
            Fixture.renderYUV(job, at: 2.1, threads: 1), Fixture.renderYUV(job, at: 2.1, threads: 3))
    }

    /// Settled, the list is put on whole pixels (its lines composite without taps): the same
    /// bytes for any thread count and from frame to frame while nothing moves, and putting it
    /// there moves nothing visibly.
    func testSettledListIsStableThreadIndependentAndSnapsWithoutAJump() throws {
        let job = try overlayJob()
        XCTAssertEqual(
            Fixture.renderYUV(job, at: 3.9, threads: 1), Fixture.renderYUV(job, at: 3.9, threads: 3))
        XCTAssertEqual(Fixture.render(job, at: 3.6).byteArray, Fixture.render(job, at: 3.9).byteArray)
        // The spring's tail, frame by frame: where it comes within the snap no pixel jumps.
        var previous = Fixture.render(job, at: 2.9).byteArray
        for frame in 88...117 {
            let current = Fixture.render(job, at: Double(frame) / 30).byteArray
            let largest = zip(previous, current).map { abs(Int($0) - Int($1)) }.max() ?? 0
            XCTAssertLessThanOrEqual(largest, 6, "frame \(frame)")
            previous = current
        }
    }

    /// The cross-fade when the current line changes: the old line goes from its bold, clear
    /// picture to its faded, blurred one over 0.25 s without a jump at either end.
    func testCrossFadeIsContinuous() throws {
        // A spring so quick that the list has settled when the fade is under way.
        let job = try overlayJob(extra: #", "scrollResponse": 0.01"#)
        func difference(_ a: Double, _ b: Double) -> Int {
            zip(Fixture.render(job, at: a).byteArray, Fixture.render(job, at: b).byteArray)
                .map { abs(Int($0) - Int($1)) }.max() ?? 0
        }
        XCTAssertGreaterThan(difference(4.05, 4.2), 60, "the fade is under way")
        // A step of 0.01 s across the fade's end is no larger than one inside the fade (the
        // fade's own 1/25), so nothing jumps when the old line's bold picture goes.
        let inside = difference(4.2, 4.21), across = difference(4.245, 4.255)
        XCTAssertLessThanOrEqual(inside, 12)
        XCTAssertLessThanOrEqual(across, inside + 2)
    }

    /// A long transcript scrolling past holds the pictures of the lines in or near its viewport
    /// and of the current and previous lines, not of every line shown so far: the export's
    /// memory does not grow with the video's duration. Pictures let go and drawn again when a
    /// preview jumps back give the same bytes.
    func testLinePicturesStayBoundedAsALongTranscriptScrolls() throws {
        let lines = 80
        let segments = (0..<lines).map { #"{"start": \#(Double($0) * 0.5), "text": "Line number \#($0)"}"# }
        let transcript = try write("long.json", #"{"segments": [\#(segments.joined(separator: ", "))]}"#)
        let job = try Fixture.job(
            """
            {"kiln": 1, "output": {"width": 320, "height": 200, "fps": 30, "duration": 40},
             "layers": [{"type": "solid", "color": "#000000"},
                        {"type": "transcript", "path": "\(transcript)", "position": [0, 0], "anchor": [0, 0],
                         "width": 320, "height": 200, "fontSize": 24, "otherBlur": 1}]}
            """)
        let layer = try XCTUnwrap(job.layers[1].content as? TranscriptLayer)
        let canvas = Canvas(width: 320, height: 200)
        let early = Fixture.render(job, at: 2.1).byteArray
        // 40 s at 30 fps, as an export prepares them: every line becomes current and scrolls away.
        var most = 0
        for frame in 0..<1200 {
            _ = job.layers[1].prepare(at: Double(frame) / 30, canvas: canvas)
            most = max(most, layer.pictures.heldCount)
        }
        // About eight lines are in or near the 200-pixel viewport; each holds a faded picture,
        // the current and previous ones a bold picture and a timestamp too. Kept, every line's
        // three pictures would be 240.
        XCTAssertLessThanOrEqual(most, 24, "pictures held at once")
        XCTAssertLessThanOrEqual(layer.pictures.heldCount, 24)
        XCTAssertEqual(Fixture.render(job, at: 2.1).byteArray, early, "pictures drawn again are the same")
    }

    func testMissingTranscriptIs66AndMalformedNamesTheLine() throws {
        XCTAssertThrowsError(
            try Fixture.job(
                #"{"kiln": 1, "output": {"width": 64, "height": 64, "fps": 30, "duration": 1}, "layers": [{"type": "transcript", "path": "nowhere.srt"}]}"#
            )
        ) { error in
            guard case .invalid(let diagnostics)? = error as? JobLoadError else { return XCTFail("\(error)") }
            XCTAssertTrue(diagnostics.allSatisfy(\.isMissingInput), "\(diagnostics)")
        }
        let bad = try write("bad.srt", "1\n00:00:01 --> x\nHello\n")
        XCTAssertThrowsError(
            try Fixture.job(
                #"{"kiln": 1, "output": {"width": 64, "height": 64, "fps": 30, "duration": 1}, "layers": [{"type": "transcript", "path": "\#(bad)"}]}"#
            )
        ) { error in
            XCTAssertTrue("\(error)".contains(":2:"), "\(error)")
            XCTAssertTrue("\(error)".contains("layers[0].path"), "\(error)")
        }
    }
}
