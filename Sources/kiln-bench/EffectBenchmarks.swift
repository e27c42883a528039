import Foundation
import KilnExport
import KilnMedia
import KilnModel
import KilnRaster
import KilnScene

#if canImport(Glibc)
    import Glibc
#endif

@MainActor func measureEffects() {
    // Pixel effects over the rendered frame (1 thread, band by band as the renderer paints): the
    // ripple with two overlapping waves, and the domain warp (two noise lookups + one layer sample).
    do {
        let output = PlanarBand(width: width, rows: canvas.bandHeight)
        let source = PlanarSampler(
            image: unblurred, rows: 0..<height, columns: 0..<width, edges: .transparent)
        func effectMs(_ stage: any PixelStage) -> Double {
            let pipeline = PixelPipeline(stages: [stage], frameFromLocal: .identity)!
            return measure(options.frames) { _ in
                for first in stride(from: 0, to: height, by: canvas.bandHeight) {
                    pipeline.paint(
                        into: output, firstRow: first, rows: min(canvas.bandHeight, height - first),
                        columns: 0..<width,
                        extent: (0..<height, 0..<width), source: source)
                }
            }
        }
        let ripple = Ripple(
            amplitude: 12, frequency: 15, decay: 8, speed: 1200,
            waves: [
                Ripple.Wave(origin: SIMD2(Float(width) * 0.3, Float(height) * 0.4), elapsed: 0.5),
                Ripple.Wave(origin: SIMD2(Float(width) * 0.7, Float(height) * 0.6), elapsed: 0.2),
            ])!
        if wants("ripple, two waves") {
            rows.append(
                Row(
                    name: "ripple, two waves", threads: 1, msPerFrame: effectMs(ripple),
                    pixels: pixels))
        }
        // The worst case: one wave whose front has passed every pixel, and a plain shifted sample
        // (the sampling alone).
        let everywhere = Ripple(
            amplitude: 12, frequency: 15, decay: 8, speed: 1200,
            waves: [Ripple.Wave(origin: SIMD2(Float(width) / 2, Float(height) / 2), elapsed: 5)])!
        if wants("ripple, front past every pixel") {
            rows.append(
                Row(
                    name: "ripple, front past every pixel", threads: 1,
                    msPerFrame: effectMs(everywhere),
                    pixels: pixels))
        }
        let shift = NoiseWarp(mode: .offset(SIMD2(0.3, 0.2)), size: SIMD2(1, 1), strength: 0, flow: 0)
        if wants("bilinear sample (uniform offset)") {
            rows.append(
                Row(
                    name: "bilinear sample (uniform offset)", threads: 1, msPerFrame: effectMs(shift),
                    pixels: pixels))
        }
        let warp = NoiseWarp(
            mode: .domainWarp(NoiseTexture.generated(seed: 7, size: 256)),
            size: SIMD2(Float(width), Float(height)),
            strength: 200, flow: 0.25)
        if wants("domain warp (2 lookups + sample)") {
            rows.append(
                Row(
                    name: "domain warp (2 lookups + sample)", threads: 1, msPerFrame: effectMs(warp),
                    pixels: pixels))
        }
    }
}
