import Foundation
import KilnMedia
import KilnTestSupport
import XCTest

/// The AAC track: decode → resample → place → encode → mux, checked by decoding the MP4 back.
final class AudioTrackTests: XCTestCase {
    private let rate = Double(AudioFormat.sampleRate)
    /// 48 frames at 30000/1001 fps: 1.6016 s of video.
    private let clip = FlatColorClip.standard
    private var videoSeconds: Double { Double(clip.frameCount) * 1001 / 30000 }

    override func setUp() { quietFFmpegLogs() }

    private func render(_ wav: String, _ placement: AudioPlacement, in directory: TemporaryDirectory) throws
        -> (info: AudioStreamInfo, left: [Float], right: [Float], video: VideoStreamInfo)
    {
        let path = directory.path("out-\(UUID().uuidString).mp4")
        let source = try PlacedAudioFile(path: wav, placement: placement)
        try clip.write(to: path, settings: FlatColorClip.settings(), audio: source)
        let reader = try AudioFileReader(path: path)
        let samples = try reader.readAll()
        XCTAssertEqual(reader.decodeErrors, 0)
        return (reader.info, samples.left, samples.right, try VideoDecodeBack.decode(path: path))
    }

    func testToneSurvivesEncodeAndDecodeAt48kStereo() throws {
        let directory = try TemporaryDirectory()
        let wav = directory.path("tone.wav")
        // 44.1 kHz stereo in, so the resampler is exercised too.
        try TestWAV.write(to: wav, rate: 44_100, channels: 2, seconds: 3, signal: TestWAV.tone(1000))
        let out = try render(wav, AudioPlacement(), in: directory)

        XCTAssertEqual(out.info.codecName, "aac")
        XCTAssertEqual(out.info.sampleRate, 48_000)
        XCTAssertEqual(out.info.channels, 2)
        XCTAssertTrue(out.video.hasAudio)
        let middle = out.left[4800..<57600]
        let (frequency, ratio) = AudioMeasure.dominantFrequency(
            middle, rate: rate, candidates: [900, 950, 980, 1000, 1020, 1050, 1100, 2000])
        XCTAssertEqual(frequency, 1000)
        XCTAssertGreaterThan(ratio, 50, "the 1 kHz tone should dominate its neighbours")
        XCTAssertEqual(AudioMeasure.rms(middle), 0.5 / 2.0.squareRoot(), accuracy: 0.02)
        XCTAssertEqual(AudioMeasure.rms(out.right[4800..<57600]), 0.5 / 2.0.squareRoot(), accuracy: 0.02)
    }

    func testAudioLastsAsLongAsTheVideoWithinOneAACFrame() throws {
        let directory = try TemporaryDirectory()
        let long = directory.path("long.wav"), short = directory.path("short.wav")
        try TestWAV.write(to: long, rate: 48_000, channels: 2, seconds: 3, signal: TestWAV.tone(440))
        try TestWAV.write(to: short, rate: 48_000, channels: 1, seconds: 0.5, signal: TestWAV.tone(440))
        for wav in [long, short] {
            let out = try render(wav, AudioPlacement(), in: directory)
            let decodedSeconds = Double(out.left.count) / rate
            XCTAssertEqual(decodedSeconds, videoSeconds, accuracy: 1024 / rate, wav)
            XCTAssertEqual(out.info.durationSeconds, videoSeconds, accuracy: 1024 / rate, wav)
            XCTAssertEqual(out.video.decodedFrameCount, clip.frameCount)
        }
    }

    func testShortAudioIsPaddedWithSilence() throws {
        let directory = try TemporaryDirectory()
        let wav = directory.path("short.wav")
        try TestWAV.write(to: wav, rate: 48_000, channels: 1, seconds: 0.5, signal: TestWAV.tone(440))
        let out = try render(wav, AudioPlacement(), in: directory)
        XCTAssertGreaterThan(AudioMeasure.rms(out.left[4800..<19200]), 0.2)
        XCTAssertLessThan(AudioMeasure.rms(out.left[28800...]), 0.001)
    }

    func testAudioAndVideoStartTogetherAndTheOffsetPlacesTheOnset() throws {
        let directory = try TemporaryDirectory()
        let wav = directory.path("onset.wav")
        // Silence, then a tone from 0.4 s in the file; placed at 0.25 s → heard from 0.65 s.
        try TestWAV.write(
            to: wav, rate: 44_100, channels: 1, seconds: 1.2, signal: TestWAV.tone(1000, from: 0.4))
        let out = try render(wav, AudioPlacement(offset: 0.25), in: directory)
        XCTAssertEqual(out.info.startSeconds, 0, accuracy: 1e-6, "the audio stream starts at 0")
        XCTAssertEqual(out.video.presentationTimestamps.first ?? -1, 0, accuracy: 1e-6)
        let onset = try XCTUnwrap(AudioMeasure.onset(out.left, rate: rate, level: 0.1))
        XCTAssertEqual(onset, 0.65, accuracy: 0.006)
    }

    func testTrimVolumeAndFades() throws {
        let directory = try TemporaryDirectory()
        let wav = directory.path("tone.wav")
        // 1 kHz for the first second of the file, 2 kHz after.
        try TestWAV.write(to: wav, rate: 48_000, channels: 2, seconds: 3) { t, _ in
            0.5 * sin(2 * .pi * (t < 1 ? 1000 : 2000) * t)
        }
        let trimmed = try render(
            wav, AudioPlacement(trimStart: 1.0, trimEnd: 1.5, volume: 0.5), in: directory)
        let body = trimmed.left[4800..<19200]
        XCTAssertEqual(
            AudioMeasure.dominantFrequency(body, rate: rate, candidates: [1000, 2000]).frequency, 2000)
        XCTAssertEqual(AudioMeasure.rms(body), 0.25 / 2.0.squareRoot(), accuracy: 0.01, "volume 0.5")
        XCTAssertLessThan(AudioMeasure.rms(trimmed.left[26400...]), 0.001, "silence after trimEnd")

        let faded = try render(wav, AudioPlacement(fadeIn: 0.5), in: directory)
        let full = 0.5 / 2.0.squareRoot()
        XCTAssertLessThan(
            AudioMeasure.rms(faded.left[0..<1200]), 0.05 * full, "the fade-in starts near silence")
        XCTAssertEqual(AudioMeasure.rms(faded.left[11400..<12600]), 0.5 * full, accuracy: 0.02, "half way")
        XCTAssertEqual(AudioMeasure.rms(faded.left[28800..<33600]), full, accuracy: 0.02)
    }

    func testCommonFormatsDecodeThroughTheSameReader() throws {
        let ffmpeg = "/usr/bin/ffmpeg"
        guard FileManager.default.isExecutableFile(atPath: ffmpeg) else {
            throw XCTSkip("\(ffmpeg) not installed")
        }
        let directory = try TemporaryDirectory()
        let wav = directory.path("tone.wav")
        try TestWAV.write(to: wav, rate: 44_100, channels: 2, seconds: 1.5, signal: TestWAV.tone(1000))
        // Fixtures made by the ffmpeg program (the product itself never runs it).
        for (name, codec) in [
            ("tone.mp3", "libmp3lame"), ("tone.flac", "flac"), ("tone.opus", "libopus"), ("tone.m4a", "aac"),
        ] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: ffmpeg)
            process.arguments = ["-v", "error", "-y", "-i", wav, "-c:a", codec, directory.path(name)]
            try process.run()
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 0, name)
            let reader = try AudioFileReader(path: directory.path(name))
            let samples = try reader.readAll()
            XCTAssertEqual(Double(samples.left.count) / rate, 1.5, accuracy: 0.06, name)
            let (frequency, _) = AudioMeasure.dominantFrequency(
                samples.left[4800..<48000], rate: rate, candidates: [900, 1000, 1100])
            XCTAssertEqual(frequency, 1000, name)
        }
    }

    func testAFileWithoutAudioIsAnError() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("video.mp4")
        try clip.write(to: path, settings: FlatColorClip.settings())
        XCTAssertThrowsError(try AudioFileReader(path: path)) { error in
            XCTAssertTrue("\(error)".contains("no audio stream"), "\(error)")
        }
        let text = directory.path("notes.wav")
        try Data("not audio at all".utf8).write(to: URL(fileURLWithPath: text))
        XCTAssertThrowsError(try AudioFileReader(path: text))
    }
}
