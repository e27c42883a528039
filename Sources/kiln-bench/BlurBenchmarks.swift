import Foundation
import KilnExport
import KilnMedia
import KilnModel
import KilnRaster
import KilnScene

#if canImport(Glibc)
    import Glibc
#endif

@MainActor func measureBlur() {
    // Gaussian blur of a whole frame (the rendered mesh gradient as premultiplied floats), in place,
    // both phases; 1 thread, and all threads splitting each phase into one part per thread. Each
    // measured blur starts from the same unblurred frame, restored untimed, as a renderer's would.
    let blurFrame = PlanarBand(width: width, rows: height)
    for sigma in [3.0, 30.0] {
        let blur = GaussianBlur(radius: sigma)
        for threads in Set([1, cores]).sorted() where wants("gaussian blur σ=\(Int(sigma)), \(frameName)") {
            let workspace = BlurWorkspace(workers: threads)
            blur.prepare(workspace, rowCount: height, columns: 0..<width)
            var times: [Double] = []
            for i in 0...options.frames {
                for (from, to) in [
                    (unblurred.r, blurFrame.r), (unblurred.g, blurFrame.g), (unblurred.b, blurFrame.b),
                    (unblurred.a, blurFrame.a),
                ] {
                    to.update(from: from, count: unblurred.stride * height)
                }
                let start = DispatchTime.now().uptimeNanoseconds
                DispatchQueue.concurrentPerform(iterations: threads) { part in
                    blur.blurRows(
                        blurFrame, rowCount: height, columns: 0..<width, part: part, of: threads,
                        worker: part,
                        workspace: workspace)
                }
                DispatchQueue.concurrentPerform(iterations: threads) { part in
                    blur.blurColumns(
                        blurFrame, rowCount: height, columns: 0..<width, part: part, of: threads,
                        worker: part,
                        workspace: workspace)
                }
                // The first run is the warm-up: caches, lazy allocations.
                if i > 0 { times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6) }
            }
            let ms = median(times)
            rows.append(
                Row(
                    name: "gaussian blur σ=\(Int(sigma)), \(frameName)", threads: threads, msPerFrame: ms,
                    pixels: pixels))
        }
    }
}
