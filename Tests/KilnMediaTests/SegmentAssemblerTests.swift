import Foundation
import KilnMedia
import KilnTestSupport
import XCTest

/// 48 frames at 30000/1001 fps, 160×96: a flat colour ramping with the frame index and a white bar
/// that moves 3 px a frame, so each decoded frame tells which source frame it is (a frame shown
/// twice, dropped or swapped at a join moves the bar) and x264 has motion to make B-frames from.
private struct BarClip {
    static let width = 160, height = 96, frameCount = 48
    /// Uneven segments; the 2- and 1-frame ones are shorter than x264's B-frame delay, so they start
    /// with no decoder delay while their neighbours start with one.
    static let cuts = [13, 2, 9, 1, 17, 6]
    static var joins: [Int] { cuts.indices.dropFirst().map { cuts[..<$0].reduce(0, +) } }
    static let frameDuration = 1001.0 / 30000.0

    static func color(_ index: Int) -> (r: Double, g: Double, b: Double) {
        (Double(40 + 3 * index), Double(70 + 2 * index), Double(190 - 3 * index))
    }

    static func barX(_ index: Int) -> Int { 4 + 3 * index }

    static func settings(width: Int = width, fps: (Int, Int) = (30000, 1001), preset: String = "veryfast")
        -> VideoSettings
    {
        VideoSettings(
            width: width, height: height, frameRateNumerator: fps.0, frameRateDenominator: fps.1, crf: 18,
            preset: preset, gop: 12)
    }

    static func write(
        _ frames: Range<Int>, to path: String, settings: VideoSettings = settings(),
        audio: (any AudioSampleSource)? = nil
    ) throws {
        let width = settings.width, height = settings.height
        let writer = try VideoFileWriter(path: path, settings: settings, audio: audio)
        var y = [UInt8](repeating: 0, count: width * height)
        var u = [UInt8](repeating: 0, count: width * height / 4)
        var v = [UInt8](repeating: 0, count: width * height / 4)
        for index in frames {
            let c = color(index)
            let yuv = ReferenceBT709.yuvBytes(r: c.r, g: c.g, b: c.b)
            for row in 0..<height {
                for column in 0..<width {
                    let onBar = (barX(index)..<(barX(index) + 4)).contains(column)
                    y[row * width + column] = onBar ? 235 : yuv.y
                    if row % 2 == 0 && column % 2 == 0 {
                        let chroma = (row / 2) * (width / 2) + column / 2
                        u[chroma] = onBar ? 128 : yuv.cb
                        v[chroma] = onBar ? 128 : yuv.cr
                    }
                }
            }
            try writer.append(y: y, yStride: width, u: u, v: v, uvStride: width / 2)
        }
        XCTAssertEqual(try writer.finish(), frames.count)
    }

    /// The monolithic file and the same frames cut into `cuts`, written into `directory`.
    static func files(in directory: TemporaryDirectory) throws -> (whole: String, segments: [String]) {
        let whole = directory.path("whole.mp4")
        try write(0..<frameCount, to: whole)
        var segments: [String] = []
        var start = 0
        for (index, length) in cuts.enumerated() {
            segments.append(directory.path("segment-\(index).mp4"))
            try write(start..<(start + length), to: segments[index])
            start += length
        }
        return (whole, segments)
    }
}

/// A 1 kHz tone, 0.5 amplitude, on both channels, never ending.
private final class ToneSource: AudioSampleSource {
    private var position = 0

    static func value(_ sample: Int) -> Float {
        Float(0.5 * sin(2 * .pi * 1000 * Double(sample) / Double(AudioFormat.sampleRate)))
    }

    func fill(left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>, count: Int) {
        for i in 0..<count {
            left[i] = Self.value(position + i)
            right[i] = left[i]
        }
        position += count
    }
}

/// A packet as ffprobe (an independent demuxer) reports it, in frames.
private struct ProbedPacket {
    let pts: Int
    let dts: Int
    let key: Bool
}

final class SegmentAssemblerTests: XCTestCase {
    override func setUp() { quietFFmpegLogs() }

    func testJoinedSegmentsDecodeToEverySourceFrameOnceInOrder() throws {
        let directory = try TemporaryDirectory()
        let (_, segments) = try BarClip.files(in: directory)
        let output = directory.path("joined.mp4")
        let summary = try SegmentAssembler.assemble(segments: segments, to: output)
        XCTAssertEqual(
            summary,
            AssemblySummary(
                frameCount: 48, segmentFrameCounts: BarClip.cuts, frameRateNumerator: 30000,
                frameRateDenominator: 1001, durationSeconds: 48 * BarClip.frameDuration, audioSamples: nil))

        var problems: [String] = []
        let info = try VideoDecodeBack.decode(path: output) { frame in
            problems += Self.mismatches(frame, expected: frame.index)
        }
        XCTAssertEqual(info.decodedFrameCount, 48)
        XCTAssertEqual(info.decodeErrors, 0)
        XCTAssertEqual(problems, [])
        XCTAssertFalse(info.hasAudio)
    }

    func testJoinedPacketsHaveOneDecodeTimestampPerFrameAndEveryPresentationTimestampOnce() throws {
        let directory = try TemporaryDirectory()
        let (whole, segments) = try BarClip.files(in: directory)
        let output = directory.path("joined.mp4")
        try SegmentAssembler.assemble(segments: segments, to: output)

        let packets = try probePackets(output)
        XCTAssertEqual(packets.count, 48)
        XCTAssertEqual(packets.map(\.pts).sorted(), Array(0..<48))
        XCTAssertEqual(
            zip(packets, packets.dropFirst()).filter { $1.dts != $0.dts + 1 }.count, 0, "\(packets)")
        XCTAssertTrue(packets.allSatisfy { $0.dts <= $0.pts })
        for join in [0] + BarClip.joins {
            XCTAssertTrue(packets[join].key && packets[join].pts == join, "join at \(join): \(packets[join])")
        }
        XCTAssertTrue(
            zip(packets, packets.dropFirst()).contains { $1.pts < $0.pts },
            "the clip must have B-frames, or the decoder delay at the joins is not exercised")
        // The same decoder delay as the monolithic encode, so players see the same stream start.
        XCTAssertEqual(packets.first?.dts, try probePackets(whole).first?.dts)
        XCTAssertLessThan(packets.first?.dts ?? 0, 0)

        let probed = try SegmentFile.probe(path: output)
        XCTAssertEqual(probed.frameCount, 48)
        XCTAssertTrue(probed.startsWithKeyframe)
    }

    func testJoinedFileHasTheDurationKeyframesLayoutAndColorTagsOfAMonolithicOne() throws {
        let directory = try TemporaryDirectory()
        let (whole, segments) = try BarClip.files(in: directory)
        let output = directory.path("joined.mp4")
        try SegmentAssembler.assemble(segments: segments, to: output)
        let info = try VideoDecodeBack.decode(path: output)
        let monolithic = try VideoDecodeBack.decode(path: whole)

        XCTAssertEqual(info.containerDurationSeconds, 48 * BarClip.frameDuration, accuracy: 0.001)
        XCTAssertEqual(info.streamDurationSeconds, 48 * BarClip.frameDuration, accuracy: 0.001)
        XCTAssertEqual(info.containerDurationSeconds, monolithic.containerDurationSeconds, accuracy: 1e-6)
        XCTAssertEqual([info.frameRateNumerator, info.frameRateDenominator], [30000, 1001])
        XCTAssertEqual(info.presentationTimestamps.first ?? -1, 0, accuracy: 1e-9)
        for (earlier, later) in zip(info.presentationTimestamps, info.presentationTimestamps.dropFirst()) {
            XCTAssertEqual(later - earlier, BarClip.frameDuration, accuracy: 1e-6)
        }
        XCTAssertEqual(
            [info.colorPrimaries, info.colorTransfer, info.colorSpace, info.colorRange],
            ["bt709", "bt709", "bt709", "tv"])
        XCTAssertTrue(try MP4Boxes.moovContainsColr(path: output))
        let boxes = try MP4Boxes.topLevel(path: output)
        XCTAssertLessThan(
            try XCTUnwrap(boxes.firstIndex(of: "moov")), try XCTUnwrap(boxes.firstIndex(of: "mdat")),
            "\(boxes)")

        // Keyframes: exactly each segment's own, shifted, so one at every join and none lost.
        var expected: [Int] = []
        var start = 0
        for (path, length) in zip(segments, BarClip.cuts) {
            expected += try VideoDecodeBack.decode(path: path).keyFrameIndices.map { $0 + start }
            start += length
        }
        XCTAssertEqual(info.keyFrameIndices, expected)
        XCTAssertTrue(Set(BarClip.joins).isSubset(of: info.keyFrameIndices), "\(info.keyFrameIndices)")
    }

    func testWithoutFaststartMoovFollowsMdat() throws {
        let directory = try TemporaryDirectory()
        let (_, segments) = try BarClip.files(in: directory)
        let output = directory.path("joined.mp4")
        try SegmentAssembler.assemble(segments: segments, to: output, faststart: false)
        let boxes = try MP4Boxes.topLevel(path: output)
        XCTAssertLessThan(
            try XCTUnwrap(boxes.firstIndex(of: "mdat")), try XCTUnwrap(boxes.firstIndex(of: "moov")),
            "\(boxes)")
        XCTAssertEqual(try VideoDecodeBack.decode(path: output).decodedFrameCount, 48)
    }

    func testAudioTrackIsAsLongAsTheVideoAndCrossesTheJoinsWithoutASeam() throws {
        let directory = try TemporaryDirectory()
        let (_, segments) = try BarClip.files(in: directory)
        let output = directory.path("joined.mp4")
        let summary = try SegmentAssembler.assemble(segments: segments, to: output, audio: ToneSource())
        XCTAssertEqual(summary.audioSamples, Int((48 * 1001 * 48_000 / 30000.0).rounded()))
        try assertSeamlessTone(output)
    }

    /// The soundtrack encoded ahead (`AACTrackFile`, as a segmented export does while its
    /// segments render) and copied in: the same track, sample for sample, as one encoded here.
    func testACopiedSoundtrackEqualsOneEncodedAtAssembly() throws {
        let directory = try TemporaryDirectory()
        let (_, segments) = try BarClip.files(in: directory)
        let track = directory.path("track.m4a")
        let encoded = try AACTrackFile.write(
            source: ToneSource(), frameRateNumerator: 30000, frameRateDenominator: 1001, videoFrames: 48,
            to: track)
        XCTAssertEqual(encoded, Int((48 * 1001 * 48_000 / 30000.0).rounded()))
        let copied = directory.path("copied.mp4"), here = directory.path("here.mp4")
        let summary = try SegmentAssembler.assemble(segments: segments, to: copied, audioTrack: track)
        XCTAssertNil(summary.audioSamples, "nothing encoded at assembly")
        XCTAssertEqual(summary.frameCount, 48)
        try assertSeamlessTone(copied)
        try SegmentAssembler.assemble(segments: segments, to: here, audio: ToneSource())
        let a = try AudioFileReader(path: copied).readAll(), b = try AudioFileReader(path: here).readAll()
        XCTAssertEqual(a.left.count, b.left.count)
        XCTAssertTrue(a.left == b.left && a.right == b.right, "the copied track decodes to the same samples")
        XCTAssertThrowsError(
            try SegmentAssembler.assemble(
                segments: segments, to: directory.path("both.mp4"), audio: ToneSource(), audioTrack: track))
        XCTAssertThrowsError(
            try SegmentAssembler.assemble(
                segments: segments, to: directory.path("bad.mp4"), audioTrack: segments[0]),
            "a video file is not a soundtrack")
    }

    private func assertSeamlessTone(_ output: String) throws {
        let rate = Double(AudioFormat.sampleRate)
        let videoSamples = Int((48 * 1001 * 48_000 / 30000.0).rounded())
        let reader = try AudioFileReader(path: output)
        let samples = try reader.readAll()
        XCTAssertEqual(reader.decodeErrors, 0)
        XCTAssertEqual(reader.info.sampleRate, 48_000)
        XCTAssertEqual(reader.info.channels, 2)
        XCTAssertEqual(Double(samples.left.count), Double(videoSamples), accuracy: 1024)
        XCTAssertEqual(reader.info.durationSeconds, 48 * BarClip.frameDuration, accuracy: 1024 / rate)
        let video = try VideoDecodeBack.decode(path: output)
        XCTAssertTrue(video.hasAudio)
        XCTAssertEqual(video.decodedFrameCount, 48)

        let body = samples.left[2400..<(samples.left.count - 2400)]
        let (frequency, ratio) = AudioMeasure.dominantFrequency(
            body, rate: rate, candidates: [900, 950, 1000, 1050, 1100, 2000])
        XCTAssertEqual(frequency, 1000)
        XCTAssertGreaterThan(ratio, 50)
        // A seam (a gap, a repeat, a phase jump) would leave a residual against the one sine that
        // fits the whole track; 10 ms either side of each join must fit as well as the rest.
        let residual = Self.sineResidual(body, frequency: 1000, rate: rate, firstIndex: 2400)
        let overall = AudioMeasure.rms(residual[...])
        XCTAssertLessThan(overall, 0.005)
        for join in BarClip.joins {
            let at = Int((Double(join) * BarClip.frameDuration * rate).rounded()) - 2400
            let window = residual[max(0, at - 480)..<min(residual.count, at + 480)]
            XCTAssertLessThan(Double(window.map { abs($0) }.max() ?? 1), 0.01, "join at frame \(join)")
            XCTAssertLessThan(AudioMeasure.rms(window), 2 * overall + 0.001, "join at frame \(join)")
        }
    }

    func testProbeReportsEachSegmentsFramesSizeRateAndKeyframeStart() throws {
        let directory = try TemporaryDirectory()
        let (whole, segments) = try BarClip.files(in: directory)
        for (path, length) in zip(segments + [whole], BarClip.cuts + [48]) {
            XCTAssertEqual(
                try SegmentFile.probe(path: path),
                SegmentInfo(
                    frameCount: length, width: 160, height: 96, frameRateNumerator: 30000,
                    frameRateDenominator: 1001, startsWithKeyframe: true, hasAudio: false), path)
        }
        let withAudio = directory.path("audio.mp4")
        try BarClip.write(0..<5, to: withAudio, audio: ToneSource())
        XCTAssertTrue(try SegmentFile.probe(path: withAudio).hasAudio)
        XCTAssertEqual(try SegmentFile.probe(path: withAudio).frameCount, 5)
    }

    func testRefusesSegmentsOfDifferentSizeNamingTheFile() throws {
        let directory = try TemporaryDirectory()
        let first = directory.path("a.mp4"), second = directory.path("b.mp4")
        try BarClip.write(0..<5, to: first)
        try BarClip.write(5..<9, to: second, settings: BarClip.settings(width: 128))
        try assertRefused([first, second], in: directory, naming: second, saying: "128×96, not 160×96")
    }

    func testRefusesADifferentFrameRateOrEncoderParameters() throws {
        let directory = try TemporaryDirectory()
        let first = directory.path("a.mp4"), pal = directory.path("pal.mp4"),
            fast = directory.path("fast.mp4")
        try BarClip.write(0..<5, to: first)
        try BarClip.write(5..<9, to: pal, settings: BarClip.settings(fps: (25, 1)))
        try BarClip.write(5..<9, to: fast, settings: BarClip.settings(preset: "ultrafast"))
        try assertRefused([first, pal], in: directory, naming: pal, saying: "frame rate: 25/1")
        try assertRefused([first, fast], in: directory, naming: fast, saying: "differs from the first")
    }

    func testRefusesFilesThatAreNotVideoAndSegmentsWithAudio() throws {
        let directory = try TemporaryDirectory()
        let video = directory.path("video.mp4"), text = directory.path("notes.mp4")
        let wav = directory.path("tone.wav"), audio = directory.path("audio.mp4")
        try BarClip.write(0..<5, to: video)
        try Data("not a video at all".utf8).write(to: URL(fileURLWithPath: text))
        try TestWAV.write(to: wav, rate: 48_000, channels: 2, seconds: 0.2, signal: TestWAV.tone(440))
        try BarClip.write(5..<9, to: audio, audio: ToneSource())
        try assertRefused([video, text], in: directory, naming: text, saying: "avformat_open_input")
        try assertRefused([wav, video], in: directory, naming: wav, saying: "no video stream")
        try assertRefused([video, audio], in: directory, naming: audio, saying: "audio stream")
        XCTAssertThrowsError(try SegmentFile.probe(path: text)) {
            XCTAssertTrue("\($0)".contains(text), "\($0)")
        }
    }

    func testProbeAndAssemblyTellASegmentThatDoesNotStartWithAKeyframe() throws {
        let ffmpeg = "/usr/bin/ffmpeg"
        guard FileManager.default.isExecutableFile(atPath: ffmpeg) else {
            throw XCTSkip("\(ffmpeg) not installed")
        }
        let directory = try TemporaryDirectory()
        let whole = directory.path("whole.mp4"), headless = directory.path("headless.mp4")
        // No B-frames, so what is left after the IDR frame is a plain run of P-frames.
        try BarClip.write(0..<8, to: whole, settings: BarClip.settings(preset: "ultrafast"))
        // A fixture made by the ffmpeg program (the product itself never runs it): the IDR packet dropped.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ffmpeg)
        process.arguments = [
            "-v", "error", "-y", "-i", whole, "-c", "copy", "-bsf:v", "noise=drop=eq(n\\,0)", headless,
        ]
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        let probed = try SegmentFile.probe(path: headless)
        XCTAssertEqual(probed.frameCount, 7)
        XCTAssertFalse(probed.startsWithKeyframe)
        XCTAssertTrue(try SegmentFile.probe(path: whole).startsWithKeyframe)
        try assertRefused(
            [whole, headless], in: directory, naming: headless, saying: "does not start with a keyframe")
    }

    func testRefusesAnEmptyList() throws {
        let directory = try TemporaryDirectory()
        try assertRefused([], in: directory, naming: "", saying: "no segments")
    }

    // MARK: - Helpers

    /// The refusal comes before anything is written, and names the offending file.
    private func assertRefused(
        _ segments: [String], in directory: TemporaryDirectory, naming file: String, saying text: String,
        line: UInt = #line
    ) throws {
        let output = directory.path("refused-\(UUID().uuidString).mp4")
        XCTAssertThrowsError(try SegmentAssembler.assemble(segments: segments, to: output), line: line) {
            let message = "\($0)"
            XCTAssertTrue($0 is MediaError, message, line: line)
            // String.contains("") is false.
            XCTAssertTrue(file.isEmpty || message.contains(file), message, line: line)
            XCTAssertTrue(text.isEmpty || message.contains(text), message, line: line)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: output), line: line)
    }

    /// Why a decoded frame is not source frame `expected`: the bar's centre (from the columns'
    /// brightness) within a pixel of where it was drawn, the background's colour within 3 levels.
    private static func mismatches(_ frame: DecodedFrame, expected: Int) -> [String] {
        var problems: [String] = []
        let c = BarClip.color(expected)
        let backgroundLuma = ReferenceBT709.yuv(r: c.r, g: c.g, b: c.b).y
        var weight = 0.0, moment = 0.0
        for column in 0..<frame.width {
            var sum = 0.0
            for row in 0..<frame.height { sum += Double(frame.y[row * frame.yStride + column]) }
            let above = max(0, sum / Double(frame.height) - (backgroundLuma + 235) / 2)
            weight += above
            moment += above * Double(column)
        }
        let centre = weight > 0 ? moment / weight : -1
        let drawn = Double(BarClip.barX(expected)) + 1.5
        if abs(centre - drawn) > 1 {
            problems.append("frame \(frame.index): bar at \(centre), drawn at \(drawn)")
        }
        let x = BarClip.barX(expected)
        let mean = x > 40 ? frame.meanRGB(x: 0, width: x - 6) : frame.meanRGB(x: x + 10)
        if max(abs(mean.r - c.r), abs(mean.g - c.g), abs(mean.b - c.b)) > 3 {
            problems.append("frame \(frame.index): colour \(mean), expected \(c)")
        }
        return problems
    }

    /// The signal minus the least-squares sine at `frequency` (sample n of the slice is
    /// track sample `firstIndex + n`).
    private static func sineResidual(
        _ samples: ArraySlice<Float>, frequency: Double, rate: Double, firstIndex: Int
    )
        -> [Float]
    {
        let omega = 2 * .pi * frequency / rate
        var ss = 0.0, cc = 0.0, sc = 0.0, xs = 0.0, xc = 0.0
        for (n, x) in samples.enumerated() {
            let t = omega * Double(firstIndex + n)
            let s = sin(t), c = cos(t)
            ss += s * s
            cc += c * c
            sc += s * c
            xs += Double(x) * s
            xc += Double(x) * c
        }
        let determinant = ss * cc - sc * sc
        let a = (xs * cc - xc * sc) / determinant, b = (xc * ss - xs * sc) / determinant
        return samples.enumerated().map { n, x in
            let t = omega * Double(firstIndex + n)
            return Float(Double(x) - a * sin(t) - b * cos(t))
        }
    }

    /// The first video stream's packets in file order, read by the ffprobe program.
    private func probePackets(_ path: String) throws -> [ProbedPacket] {
        let ffprobe = "/usr/bin/ffprobe"
        guard FileManager.default.isExecutableFile(atPath: ffprobe) else {
            throw XCTSkip("\(ffprobe) not installed")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ffprobe)
        process.arguments = [
            "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts_time,dts_time,flags", "-of",
            "compact=p=0", path,
        ]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        return String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { line in
            var fields: [String: String] = [:]
            for pair in line.split(separator: "|") {
                let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                if parts.count == 2 { fields[parts[0]] = parts[1] }
            }
            func frames(_ key: String) -> Int? {
                fields[key].flatMap(Double.init).map { Int(($0 / BarClip.frameDuration).rounded()) }
            }
            guard let pts = frames("pts_time"), let dts = frames("dts_time") else { return nil }
            return ProbedPacket(pts: pts, dts: dts, key: fields["flags"]?.hasPrefix("K") ?? false)
        }
    }
}
