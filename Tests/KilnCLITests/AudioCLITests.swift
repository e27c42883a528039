import Foundation
import KilnMedia
import KilnTestSupport
import XCTest

/// Soundtracks from the command line: rendered and decoded back, identical for any thread count,
/// and bad audio input with its exit code, the JSON path and no output left behind.
final class AudioCLITests: TemporaryDirectoryTestCase {
    func job(audio: String, seconds: Double = 2) throws -> String {
        try write(
            "sound.json",
            """
            {"kiln": 1, "output": {"width": 128, "height": 72, "fps": 25, "duration": \(seconds), "preset": "ultrafast"},
             "layers": [{"type": "solid", "color": "#336699"}],
             "audio": \(audio)}
            """)
    }

    func testRenderedAudioIsPlacedAndAsLongAsTheVideo() throws {
        _ = try tone(seconds: 5)
        let file = try job(audio: #"{"path": "tone.flac", "offset": 0.5}"#)
        let out = directory.appendingPathComponent("sound.mp4").path
        let result = try KilnProcess.run(["render", file, "-o", out, "--progress", "none"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let video = try VideoDecodeBack.decode(path: out)
        assertKilnVideo(video, width: 128, height: 72, frames: 50)
        XCTAssertTrue(video.hasAudio)

        let reader = try AudioFileReader(path: out)
        let (left, right) = try reader.readAll()
        XCTAssertEqual(reader.info.codecName, "aac")
        XCTAssertEqual([reader.info.sampleRate, reader.info.channels], [48_000, 2])
        XCTAssertEqual(reader.info.startSeconds, 0, accuracy: 1e-6)
        XCTAssertEqual(Double(left.count), 2 * 48_000, accuracy: 1024, "one AAC frame of the video's 2 s")
        XCTAssertEqual(reader.decodeErrors, 0)
        func rms(_ s: ArraySlice<Float>) -> Double {
            (s.reduce(0.0) { $0 + Double($1 * $1) } / Double(s.count)).squareRoot()
        }
        XCTAssertLessThan(rms(left[0..<19_200]), 0.001, "silence before the 0.5 s offset")
        XCTAssertGreaterThan(rms(left[28_800..<86_400]), 0.05, "the tone after it")
        XCTAssertGreaterThan(rms(right[28_800..<86_400]), 0.05)
    }

    func testAudioIsTheSameForAnyThreadCount() throws {
        _ = try tone(seconds: 1)
        let file = try job(audio: #"{"path": "tone.flac", "volume": 0.7, "fadeIn": 0.2}"#, seconds: 1)
        var decoded: [[Float]] = []
        for threads in ["1", "3"] {
            let out = directory.appendingPathComponent("t\(threads).mp4").path
            let result = try KilnProcess.run(["render", file, "-o", out, "--threads", threads])
            XCTAssertEqual(result.status, 0, result.stderr)
            let samples = try AudioFileReader(path: out).readAll()
            decoded.append(samples.left + samples.right)
        }
        XCTAssertEqual(decoded[0].count, decoded[1].count)
        XCTAssertTrue(decoded[0] == decoded[1], "decoded audio differs between 1 and 3 threads")
    }

    func testMissingAudioIs66AndWritesNothing() throws {
        let file = try job(audio: #"{"path": "nowhere.wav"}"#)
        let result = try KilnProcess.run([
            "render", file, "-o", directory.appendingPathComponent("o.mp4").path,
        ])
        XCTAssertEqual(result.status, 66, result.stderr)
        XCTAssertTrue(result.stderr.contains("sound.json:"), result.stderr)
        XCTAssertTrue(result.stderr.contains("audio.path"), result.stderr)
        XCTAssertTrue(result.stderr.contains("nowhere.wav"), result.stderr)
        XCTAssertEqual(try contents(), ["sound.json"])
    }

    func testUnreadableAudioAndBadPlacementAre65() throws {
        _ = try write("notes.wav", "this is not audio")
        let bad = try KilnProcess.run(["validate", try job(audio: #"{"path": "notes.wav"}"#)])
        XCTAssertEqual(bad.status, 65, bad.stderr)
        XCTAssertTrue(bad.stderr.contains("audio.path"), bad.stderr)
        XCTAssertTrue(bad.stderr.contains("cannot read audio from 'notes.wav'"), bad.stderr)

        _ = try tone(seconds: 1)
        let placement = try KilnProcess.run([
            "validate", try job(audio: #"{"path": "tone.flac", "trimStart": 2, "volume": -1}"#),
        ])
        XCTAssertEqual(placement.status, 65, placement.stderr)
        XCTAssertTrue(placement.stderr.contains("audio.volume"), placement.stderr)
        let late = try KilnProcess.run([
            "validate", try job(audio: #"{"path": "tone.flac", "trimStart": 2}"#),
        ])
        XCTAssertEqual(late.status, 65, late.stderr)
        XCTAssertTrue(late.stderr.contains("audio.trimStart"), late.stderr)
        XCTAssertTrue(late.stderr.contains("past the end of the audio"), late.stderr)
    }

    /// A voice, looped music ducked under it, and the mix normalised to −16 LUFS: decoded back,
    /// the soundtrack is as long as the video, its loudness is within 1 LU of the target (read by
    /// libebur128 here and by FFmpeg's own ebur128 filter when the ffmpeg program is installed),
    /// and the music (a 250 Hz tone; the voice is 1 kHz) is at least 10 dB lower while the voice
    /// speaks than between its phrases.
    func testAMixDucksTheMusicUnderTheVoiceAndMeetsItsLoudness() throws {
        let voice = WAVWriter.sine(frequency: 1000, amplitude: 0.3, seconds: 6, on: [1.0...2.5, 4.0...5.0])
        try WAVWriter.write(left: voice, right: voice, to: directory.appendingPathComponent("voice.wav"))
        let music = WAVWriter.sine(frequency: 250, amplitude: 0.05, seconds: 1)
        try WAVWriter.write(left: music, right: music, to: directory.appendingPathComponent("music.wav"))
        let file = try job(
            audio: """
                {"tracks": [
                  {"path": "voice.wav", "name": "voice"},
                  {"path": "music.wav", "loop": true, "duck": {"under": "voice", "amount": 14}}],
                 "loudness": -16}
                """, seconds: 6)
        let out = directory.appendingPathComponent("mix.mp4").path
        let result = try KilnProcess.run(["render", file, "-o", out, "--progress", "none"])
        XCTAssertEqual(result.status, 0, result.stderr)
        assertKilnVideo(try VideoDecodeBack.decode(path: out), width: 128, height: 72, frames: 150)
        let (left, right) = try AudioFileReader(path: out).readAll()
        XCTAssertEqual(Double(left.count), 6 * 48_000, accuracy: 1024, "one AAC frame of the video's 6 s")

        let meter = try LoudnessMeter()
        try meter.add(left: left, right: right, count: left.count)
        XCTAssertEqual(meter.integratedLoudness, -16, accuracy: 1)
        if let ffmpeg = try KilnProcess.tool(
            "/usr/bin/ffmpeg", ["-hide_banner", "-nostats", "-i", out, "-af", "ebur128", "-f", "null", "-"])
        {
            let summary = ffmpeg.stderr.components(separatedBy: "Integrated loudness:").last ?? ""
            let value = summary.split(separator: "\n").first { $0.contains("I:") }
                .flatMap { Double($0.split(separator: " ").dropFirst().first ?? "") }
            XCTAssertEqual(try XCTUnwrap(value, ffmpeg.stderr), -16, accuracy: 1, "FFmpeg's own meter")
        }

        func musicLevel(_ from: Double, _ to: Double) -> Double {
            AudioLevels.decibels(ofFrequency: 250, in: left[Int(from * 48_000)..<Int(to * 48_000)])
        }
        let under = [musicLevel(1.05, 2.45), musicLevel(4.05, 4.95)].max()!
        let between = [musicLevel(0.2, 0.8), musicLevel(3.3, 3.8), musicLevel(5.6, 5.9)].min()!
        XCTAssertGreaterThanOrEqual(between - under, 10, "ducked by \(between - under) dB")
    }

    /// The README's podcast demo: the voice made by scripts/make-podcast.py under the transcript.
    /// Three seconds of it at a small size, decoded back with its sound.
    func testPodcastDemoRendersWithItsVoice() throws {
        let jobs = KilnProcess.repositoryRoot.appendingPathComponent("jobs")
        let voice = jobs.appendingPathComponent("podcast/voice.wav").path
        guard FileManager.default.fileExists(atPath: voice) else {
            throw XCTSkip("run scripts/make-podcast.py first (scripts/test.sh does)")
        }
        let demo = try String(contentsOf: jobs.appendingPathComponent("podcast.json"), encoding: .utf8)
        XCTAssertTrue(demo.contains(#""audio": { "tracks": [{ "path": "podcast/voice.wav""#))
        let file = try write(
            "podcast.json",
            """
            {"kiln": 1, "output": {"width": 480, "height": 270, "fps": 30, "duration": 3, "preset": "ultrafast"},
             "audio": {"path": "\(voice)"},
             "layers": [
               {"type": "image", "path": "\(jobs.path)/photos/dusk.png", "size": [480, 270], "fit": "fill",
                "effects": [{"blur": 8}, {"backgroundWarp": {"strength": 50, "edges": "clamp"}}]},
               {"type": "transcript", "path": "\(jobs.path)/podcast/transcript.json", "position": [40, 0],
                "anchor": [0, 0], "width": 300, "height": 270, "fontSize": 16, "spacing": 4}]}
            """)
        let out = directory.appendingPathComponent("podcast.mp4").path
        let result = try KilnProcess.run(["render", file, "-o", out])
        XCTAssertEqual(result.status, 0, result.stderr)
        assertKilnVideo(try VideoDecodeBack.decode(path: out), width: 480, height: 270, frames: 90)
        let (left, _) = try AudioFileReader(path: out).readAll()
        XCTAssertEqual(Double(left.count), 3 * 48_000, accuracy: 1024)
        let speech = left[48_000..<144_000].map { abs($0) }.max() ?? 0
        XCTAssertGreaterThan(speech, 0.05, "the voice is heard after its 0.6 s lead-in")
    }

    /// The audiogram demo as a draft (quarter size, its first 3 s): it renders with its sound, the
    /// draft's mix is normalised to the job's −16 LUFS, and the bars move: frames 1 s apart differ
    /// in the bars' corner while the voice speaks.
    func testAudiogramDemoRendersWithItsVoiceAndMovingBars() throws {
        let jobs = KilnProcess.repositoryRoot.appendingPathComponent("jobs")
        guard FileManager.default.fileExists(atPath: jobs.appendingPathComponent("podcast/voice.wav").path)
        else {
            throw XCTSkip("run scripts/make-podcast.py first (scripts/test.sh does)")
        }
        let out = directory.appendingPathComponent("audiogram.mp4").path
        let result = try KilnProcess.run([
            "render", jobs.appendingPathComponent("audiogram.json").path, "--scale", "0.25", "--range", "0-3",
            "-o", out, "--progress", "none",
        ])
        XCTAssertEqual(result.status, 0, result.stderr)
        // The bars' box: 130×45 around (390, 225) at quarter size, in frames 1 s and 2 s.
        var corners: [Int: [UInt8]] = [:]
        var index = 0
        let video = try VideoDecodeBack.decode(path: out) { f in
            if index == 30 || index == 60 {
                corners[index] = (205..<246).flatMap { y in (325..<455).map { x in f.y[y * f.yStride + x] } }
            }
            index += 1
        }
        assertKilnVideo(video, width: 480, height: 270, frames: 90)
        let (left, right) = try AudioFileReader(path: out).readAll()
        let meter = try LoudnessMeter()
        try meter.add(left: left, right: right, count: left.count)
        XCTAssertEqual(meter.integratedLoudness, -16, accuracy: 1)
        XCTAssertLessThanOrEqual(meter.truePeak, -0.5, "the limiter holds the voice's peaks under -1 dBTP")
        XCTAssertEqual(corners.count, 2)
        XCTAssertNotEqual(corners[30], corners[60], "the bars move with the voice")
    }

    /// make-podcast.py's segments match its voice: each line's start is where speech resumes
    /// after a pause (quiet just before, voice just after).
    func testPodcastSegmentsStartWhereTheVoiceDoes() throws {
        let folder = KilnProcess.repositoryRoot.appendingPathComponent("jobs/podcast")
        let voice = folder.appendingPathComponent("voice.wav").path
        guard FileManager.default.fileExists(atPath: voice) else {
            throw XCTSkip("run scripts/make-podcast.py first (scripts/test.sh does)")
        }
        let (left, _) = try AudioFileReader(path: voice).readAll()
        let json =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: folder.appendingPathComponent("transcript.json"))) as? [String: Any]
        let starts = try XCTUnwrap(json?["segments"] as? [[String: Any]]).compactMap {
            $0["start"] as? Double
        }
        let lines = try String(contentsOf: folder.appendingPathComponent("script.txt"), encoding: .utf8)
            .split(separator: "\n").filter {
                !$0.hasPrefix("#") && !$0.trimmingCharacters(in: .whitespaces).isEmpty
            }
        XCTAssertEqual(starts.count, lines.count)
        func peak(_ from: Double, _ to: Double) -> Float {
            let a = max(0, Int(from * 48_000)), b = min(left.count, Int(to * 48_000))
            return a < b ? left[a..<b].map { abs($0) }.max() ?? 0 : 0
        }
        for start in starts {
            XCTAssertLessThan(peak(start - 0.3, start - 0.02), 0.01, "quiet before the line at \(start) s")
            XCTAssertGreaterThan(peak(start, start + 0.25), 0.05, "voice right after \(start) s")
        }
    }
}
