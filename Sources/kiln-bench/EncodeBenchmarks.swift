import Foundation
import KilnExport
import KilnMedia
import KilnModel
import KilnRaster
import KilnScene

#if canImport(Glibc)
    import Glibc
#endif

@MainActor func measureEncoding() {
    // libx264 on the same rendered frames, one encoder thread so the figure is per core.
    if wants("libx264 veryfast encode", "libx264 medium encode") {
        let renderer = SceneRenderer(layers: layers, camera: nil, canvas: canvas, threads: cores)
        let encodeInput = (0..<options.encodeFrames).map { n -> YUV420Frame in
            let f = YUV420Frame(width: width, height: height)
            renderer.render(at: Double(n) / fps, yuv: f, rgba: nil)
            return f
        }
        for preset in ["veryfast", "medium"] {
            rows.append(
                Row(
                    name: "libx264 \(preset) encode", threads: 1,
                    msPerFrame: x264Milliseconds(encodeInput, preset: preset),
                    pixels: pixels))
        }
    }
}

/// ms per frame for libx264 (one thread, CRF 18) encoding `frames`: the median of three whole
/// encodes, since one encode of a few dozen frames swings by ±20 % on a shared host.
@MainActor func x264Milliseconds(_ frames: [YUV420Frame], preset: String) -> Double {
    let tmp = FileManager.default.temporaryDirectory.appendingPathComponent("kiln-bench-\(getpid()).mp4").path
    defer { unlink(tmp) }
    var passes: [Double] = []
    for _ in 0..<3 {
        do {
            let settings = VideoSettings(
                width: width, height: height, frameRateNumerator: 30, frameRateDenominator: 1, crf: 18,
                preset: preset, gop: 60, encoderThreads: 1, faststart: false)
            let writer = try VideoFileWriter(path: tmp, settings: settings)
            let start = DispatchTime.now().uptimeNanoseconds
            for f in frames {
                try writer.append(y: f.y, yStride: f.yStride, u: f.u, v: f.v, uvStride: f.uvStride)
            }
            try writer.finish()
            passes.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6 / Double(frames.count))
        } catch {
            fail("encode: \(error)")
        }
    }
    return passes.sorted()[1]
}
