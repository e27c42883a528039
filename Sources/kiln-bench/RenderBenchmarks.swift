import Foundation
import KilnExport
import KilnMedia
import KilnModel
import KilnRaster
import KilnScene

#if canImport(Glibc)
    import Glibc
#endif

/// Rendering: the animated mesh gradient (1 thread and all threads), six rotated clipped photo
/// cards (the compositing path) and the serial part of a mesh frame.
@MainActor func measureRendering() {
    // Render (mesh tessellation + raster + fused dither/YUV), 1 thread and all threads.
    for threads in Set([1, cores]).sorted() where wants("render mesh gradient → YUV") {
        let renderer = SceneRenderer(layers: layers, camera: nil, canvas: canvas, threads: threads)
        // As in an export: each frame prepares the next one alongside its bands.
        let ms = measure(options.frames) {
            renderer.render(at: Double($0) / fps, prefetching: Double($0 + 1) / fps, yuv: frame, rgba: nil)
        }
        rows.append(Row(name: "render mesh gradient → YUV", threads: threads, msPerFrame: ms, pixels: pixels))
    }

    // Six rotated photo cards (jobs/photos, decoded and resized to the card at load), each a group
    // clipped to a rounded rectangle, over a solid: the compositing path (image sampling, group
    // bands, clip masks, source-over).
    if wants("six rotated clipped photo cards, composite", "six rotated clipped photo cards → YUV") {
        do {
            let photos = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("jobs/photos")
            let names = ["sunset", "ocean", "forest", "dusk", "desert", "aurora"]
            var cards: [String] = []
            for i in 0..<6 {
                let x = 260 + (i % 3) * 700, y = 290 + (i / 3) * 500
                cards.append(
                    """
                    {"type": "group", "size": [420, 300], "clip": "roundedRect", "cornerRadius": 28,
                     "position": [\(x), \(y)], "rotation": \(i * 7 - 17),
                     "layers": [{"type": "image", "path": "\(photos.appendingPathComponent(names[i] + ".png").path)",
                                 "size": [420, 300], "fit": "fill"}]}
                    """)
            }
            let text = """
                {"kiln": 1, "output": {"width": \(width), "height": \(height), "fps": 30, "duration": 1},
                 "layers": [{"type": "solid", "color": "#0b0a1a"}, \(cards.joined(separator: ","))]}
                """
            let job = try JobFiles.decode(
                bytes: Array(text.utf8), file: "bench-cards.json", baseDirectory: URL(fileURLWithPath: "/"))
            let cardsRenderer = SceneRenderer(job: job, canvas: canvas, threads: 1)
            let compositeMs = measure(options.frames) { _ in cardsRenderer.render(at: 0, yuv: nil, rgba: nil)
            }
            rows.append(
                Row(
                    name: "six rotated clipped photo cards, composite", threads: 1, msPerFrame: compositeMs,
                    pixels: pixels))
            let ms = measure(options.frames) { _ in cardsRenderer.render(at: 0, yuv: frame, rgba: nil) }
            rows.append(
                Row(name: "six rotated clipped photo cards → YUV", threads: 1, msPerFrame: ms, pixels: pixels)
            )
        } catch {
            fail("cards job: \(error)")
        }
    }

    // The serial part of a frame: evaluating the layer's animated values, tessellating and binning.
    if wants("prepare mesh (tessellate + bin)") {
        let meshContent = layers[0].content as! any LayerRendering
        let prepareMs = measure(options.frames) {
            _ = meshContent.prepare(at: Double($0) / fps, canvas: canvas)
        }
        rows.append(
            Row(name: "prepare mesh (tessellate + bin)", threads: 1, msPerFrame: prepareMs, pixels: pixels))
    }
}
