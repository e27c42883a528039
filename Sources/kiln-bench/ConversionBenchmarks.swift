import Foundation
import KilnExport
import KilnMedia
import KilnModel
import KilnRaster
import KilnScene

#if canImport(Glibc)
    import Glibc
#endif

@MainActor func measureConversion() {
    // Conversion alone, 1 thread: Kiln's fused float→dither→YUV pass against libswscale RGBA→YUV.
    // The fused pass runs on a band that is still in cache, as in the pipeline, so it is measured
    // band by band over the frame; swscale gets the whole RGBA frame, as it would.
    let bandRows = canvas.bandHeight
    let band = PlanarBand(width: width, rows: bandRows)
    for row in 0..<bandRows {
        for x in 0..<width {
            let p = rgba.pixel(x: x, y: height / 2 + row)
            let i = row * band.stride + x
            (band.r[i], band.g[i], band.b[i], band.a[i]) = (
                Float(p[0]) / 255, Float(p[1]) / 255, Float(p[2]) / 255, 1
            )
        }
    }
    let scratch = Quantizer.Scratch(width: width)
    func convertFrame(yuv: YUV420Frame?, rgba: RGBA8Frame?) {
        for first in stride(from: 0, to: height - bandRows + 1, by: bandRows) {
            Quantizer.write(
                band: band, firstRow: first, rows: bandRows, yuv: yuv, rgba: rgba, scratch: scratch)
        }
    }
    if wants("convert float → YUV (fused SIMD)") {
        let fusedMs = measure(options.frames) { _ in convertFrame(yuv: frame, rgba: nil) }
        rows.append(
            Row(name: "convert float → YUV (fused SIMD)", threads: 1, msPerFrame: fusedMs, pixels: pixels))
    }
    if wants("convert float → RGBA8 (previews)") {
        let scratchRGBA = RGBA8Frame(width: width, height: height)
        let toRGBAms = measure(options.frames) { _ in convertFrame(yuv: nil, rgba: scratchRGBA) }
        rows.append(
            Row(name: "convert float → RGBA8 (previews)", threads: 1, msPerFrame: toRGBAms, pixels: pixels))
    }
    if wants("convert RGBA8 → YUV (swscale)") {
        do {
            let sws = try SwscaleConverter(width: width, height: height)
            let swsMs = measure(options.frames) { _ in
                sws.convert(
                    rgba: rgba.bytes, rgbaStride: rgba.stride, y: frame.y, yStride: frame.yStride, u: frame.u,
                    v: frame.v,
                    uvStride: frame.uvStride)
            }
            rows.append(
                Row(name: "convert RGBA8 → YUV (swscale)", threads: 1, msPerFrame: swsMs, pixels: pixels))
        } catch {
            fail("swscale: \(error)")
        }
    }
}
