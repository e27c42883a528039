import Foundation
import KilnMedia
import KilnTestSupport
import XCTest

/// A video clip's sound in the soundtrack: placed as the clip's frames are (trim, offset,
/// speed), mixed with a music track and a voice, in step with the picture at every cut.
final class ClipSoundTests: TemporaryDirectoryTestCase {
    /// Short tone bursts at given times of a sound, then silence.
    final class Bursts: AudioSampleSource {
        let starts: [Int], frequency: Double
        var position = 0
        init(at seconds: [Double], frequency: Double) {
            starts = seconds.map { Int($0 * 48_000) }
            self.frequency = frequency
        }
        func fill(left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>, count: Int) {
            for i in 0..<count {
                let k = position + i
                let on = starts.contains { k >= $0 && k < $0 + 2_400 }
                left[i] = on ? 0.5 * Float(sin(2 * Double.pi * frequency * Double(k) / 48_000)) : 0
                right[i] = left[i]
            }
            position += count
        }
    }

    /// Where each burst of `frequency` starts in `samples`: the first 128-sample step at which the
    /// tone's level over the next 256 samples rises past −20 dB after a quiet stretch.
    func onsets(of frequency: Double, in samples: [Float]) -> [Double] {
        var found: [Double] = [], quiet = true
        var start = 0
        while start + 256 <= samples.count {
            let level = AudioLevels.decibels(ofFrequency: frequency, in: samples[start..<(start + 256)])
            if quiet && level > -20 {
                found.append(Double(start) / 48_000)
                quiet = false
            } else if level < -40 {
                quiet = true
            }
            start += 128
        }
        return found
    }

    func testAClipsSoundStaysWithItsFramesInTheMix() throws {
        // The clip's frame 10, 30 and 50 (0.4, 1.2, 2.0 s at 25 fps) each start a 1 kHz burst.
        let clip = directory.appendingPathComponent("clip.mp4").path
        try BarcodeClip.writeConstantRate(
            path: clip, frames: 75, fps: 25, audio: Bursts(at: [0.4, 1.2, 2.0], frequency: 1_000))
        let voice = WAVWriter.sine(frequency: 3_000, amplitude: 0.4, seconds: 5, on: [3.5...3.6])
        try WAVWriter.write(left: voice, right: voice, to: directory.appendingPathComponent("voice.wav"))
        let music = WAVWriter.sine(frequency: 250, amplitude: 0.05, seconds: 1)
        try WAVWriter.write(left: music, right: music, to: directory.appendingPathComponent("music.wav"))
        // The same clip twice: from 1 s, trimmed at 0.2 s, at speed 1 (bursts at 1.2, 2.0, 2.8 s);
        // and from 4 s at speed 2 (its first burst, 0.4 s into the clip, at 4.2 s and 2 kHz).
        let file = try write(
            "clips.json",
            """
            {"kiln": 1, "output": {"width": 64, "height": 48, "fps": 30, "duration": 5, "preset": "ultrafast"},
             "audio": [{"path": "voice.wav", "name": "voice"},
                       {"path": "music.wav", "loop": true, "duck": {"under": "voice"}}],
             "layers": [
               {"type": "video", "path": "clip.mp4", "offset": 1, "trim": {"start": 0.2, "end": 2.6}},
               {"type": "video", "path": "clip.mp4", "offset": 4, "speed": 2, "trim": {"start": 0, "end": 1},
                "appear": 4}]}
            """)
        let out = directory.appendingPathComponent("clips.mp4").path
        let result = try KilnProcess.run(["render", file, "-o", out, "--progress", "none"])
        XCTAssertEqual(result.status, 0, result.stderr)
        var numbers: [Int: Int] = [:]
        var index = 0
        let video = try VideoDecodeBack.decode(path: out) { frame in
            numbers[index] = BarcodeClip.number(luma: { frame.y[$1 * frame.yStride + $0] })
            index += 1
        }
        assertKilnVideo(video, width: 64, height: 48, frames: 150)
        let (left, _) = try AudioFileReader(path: out).readAll()
        XCTAssertEqual(Double(left.count), 5 * 48_000, accuracy: 1024)

        let aacFrame = 1024.0 / 48_000
        let clicks = onsets(of: 1_000, in: left)
        XCTAssertEqual(clicks.count, 3, "\(clicks)")
        for (click, expected) in zip(clicks, [1.2, 2.0, 2.8]) {
            XCTAssertEqual(click, expected, accuracy: aacFrame, "a clip burst")
            // The frame shown when the burst starts is the clip frame that starts it.
            let frame = Int((expected * 30).rounded())
            XCTAssertEqual(numbers[frame], Int(((expected - 1 + 0.2) * 25).rounded()), "frame \(frame)")
        }
        let fast = onsets(of: 2_000, in: left)
        XCTAssertEqual(fast.count, 1, "\(fast)")
        XCTAssertEqual(
            fast.first ?? 0, 4.2, accuracy: aacFrame, "at double speed, an octave up, twice as soon")
        let speech = onsets(of: 3_000, in: left)
        XCTAssertEqual(speech.first ?? 0, 3.5, accuracy: aacFrame, "the voice track")
        let musicUnder = AudioLevels.decibels(
            ofFrequency: 250, in: left[Int(3.52 * 48_000)..<Int(3.59 * 48_000)])
        let musicAlone = AudioLevels.decibels(
            ofFrequency: 250, in: left[Int(0.3 * 48_000)..<Int(0.9 * 48_000)])
        XCTAssertGreaterThanOrEqual(musicAlone - musicUnder, 10, "the music ducks under the voice")
    }

    func testAMutedClipAddsNoSound() throws {
        let clip = directory.appendingPathComponent("clip.mp4").path
        try BarcodeClip.writeConstantRate(
            path: clip, frames: 25, fps: 25, audio: Bursts(at: [0.2], frequency: 1_000))
        for (muted, expectAudio) in [(true, false), (false, true)] {
            let file = try write(
                "muting.json",
                """
                {"kiln": 1, "output": {"width": 64, "height": 48, "fps": 25, "duration": 1, "preset": "ultrafast"},
                 "layers": [{"type": "video", "path": "clip.mp4", "muted": \(muted)}]}
                """)
            let out = directory.appendingPathComponent("muted-\(muted).mp4").path
            let result = try KilnProcess.run(["render", file, "-o", out, "--progress", "none"])
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertEqual(try VideoDecodeBack.decode(path: out).hasAudio, expectAudio, "muted \(muted)")
        }
        // A format without sound shows the clip silent instead of refusing it as it refuses `audio`.
        let gif = directory.appendingPathComponent("clip.gif").path
        let result = try KilnProcess.run([
            "render", directory.appendingPathComponent("muting.json").path, "-o", gif, "--progress", "none",
        ])
        // The job names no format, so -o's extension picks GIF, which shows the clip silent.
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertFalse(try VideoDecodeBack.decode(path: gif).hasAudio)
        let silent = try write(
            "silent.json",
            """
            {"kiln": 1, "output": {"path": "silent.gif", "width": 64, "height": 48, "fps": 25, "duration": 1},
             "layers": [{"type": "video", "path": "clip.mp4"}]}
            """)
        let rendered = try KilnProcess.run(["render", silent, "--progress", "none"])
        XCTAssertEqual(rendered.status, 0, rendered.stderr)
        XCTAssertTrue(
            FileManager.default.fileExists(atPath: directory.appendingPathComponent("silent.gif").path))
    }
}
