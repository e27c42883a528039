import Foundation
import KilnExport
import KilnMedia
import KilnModel
import KilnRaster
import KilnScene

#if canImport(Glibc)
    import Glibc
#endif

/// One line of the assembly table: its time, the real-time factor and the bytes written.
typealias AssemblyLine = (name: String, seconds: Double, realTime: Double, megabytes: Double)

@MainActor func measureAssembly() -> [AssemblyLine] {
    // Assembly (issue 7): a 10-minute 1080p video joined from ten 60 s segments by stream copy, with
    // and without a 10-minute AAC track encoded alongside. The ten segments are copies of one 60 s
    // encode (ultrafast, a bar moving over a flat background: it is only input), whose encoding time
    // is shown too, as what re-encoding instead of copying would start from.
    var assemblyLines: [AssemblyLine] = []
    if wants("assembly") {
        final class Tone: AudioSampleSource {
            private var position = 0
            func fill(left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>, count: Int) {
                for i in 0..<count {
                    left[i] = Float(
                        0.5 * sin(2 * .pi * 440 * Double(position + i) / Double(AudioFormat.sampleRate)))
                    right[i] = left[i]
                }
                position += count
            }
        }
        func seconds(_ body: () throws -> Void) rethrows -> Double {
            let start = DispatchTime.now().uptimeNanoseconds
            try body()
            return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "kiln-bench-assembly-\(getpid())")
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let segmentSeconds = 60, segmentCount = 10, rate = 30
            let sizeName = (width, height) == (1920, 1080) ? "1080p" : "\(width)×\(height)"
            let input = directory.appendingPathComponent("input.mp4").path
            let settings = VideoSettings(
                width: width, height: height, frameRateNumerator: rate, frameRateDenominator: 1, crf: 18,
                preset: "ultrafast", gop: 60)
            let source = YUV420Frame(width: width, height: height)  // chroma stays neutral grey
            let encodeSeconds = try seconds {
                let writer = try VideoFileWriter(path: input, settings: settings)
                for n in 0..<(segmentSeconds * rate) {
                    // A 64 px bar moving 8 px a frame over a flat background: cheap to draw and to encode.
                    let bar = (n * 8) % (width - 64)
                    for row in 0..<height {
                        let line = source.y + row * source.yStride
                        line.update(repeating: 60, count: width)
                        (line + bar).update(repeating: 200, count: 64)
                    }
                    try writer.append(
                        y: source.y, yStride: source.yStride, u: source.u, v: source.v,
                        uvStride: source.uvStride)
                }
                try writer.finish()
            }
            let segments = try (0..<segmentCount).map { index -> String in
                let path = directory.appendingPathComponent("segment-\(index).mp4").path
                try FileManager.default.copyItem(atPath: input, toPath: path)
                return path
            }
            let total = Double(segmentSeconds * segmentCount)
            let output = directory.appendingPathComponent("assembled.mp4").path
            // What a segmented export does: the soundtrack encoded on its own while segments render.
            let track = directory.appendingPathComponent("track.m4a").path
            let trackSeconds = try seconds {
                try AACTrackFile.write(
                    source: Tone(), frameRateNumerator: rate, frameRateDenominator: 1,
                    videoFrames: segmentSeconds * segmentCount * rate, to: track)
            }
            for (name, audio, copied) in [
                ("assembly, 10 min \(sizeName) from 10 segments (stream copy)", nil, nil),
                ("assembly, same + the 10 min soundtrack copied", nil, track),
                ("assembly, same + AAC encoded there (comparison)", Tone(), nil),
            ] as [(String, Tone?, String?)] {
                unlink(output)
                var summary: AssemblySummary?
                let time = try seconds {
                    summary = try SegmentAssembler.assemble(
                        segments: segments, to: output, audio: audio, audioTrack: copied)
                }
                guard summary?.frameCount == segmentSeconds * segmentCount * rate else {
                    fail("assembly wrote \(summary?.frameCount ?? 0) frames")
                }
                // The copy's cost follows the bytes, not the frames: real footage is many times larger.
                let bytes = (try FileManager.default.attributesOfItem(atPath: output)[.size] as? Int) ?? 0
                assemblyLines.append((name, time, total / time, Double(bytes) / 1e6))
            }
            assemblyLines.append(
                ("soundtrack encode, 10 min (beside the render)", trackSeconds, total / trackSeconds, 0))
            assemblyLines.append(
                (
                    "encode of one 60 s segment (ultrafast, input)", encodeSeconds,
                    Double(segmentSeconds) / encodeSeconds,
                    0
                ))
        } catch {
            fail("assembly: \(error)")
        }
    }
    return assemblyLines
}
