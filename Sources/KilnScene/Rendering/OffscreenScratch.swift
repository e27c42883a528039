/// A worker's scratch for offscreen rendering.
final class OffscreenScratch: @unchecked Sendable {
    let pool: BandPool

    init(canvas: Canvas) {
        pool = BandPool(width: canvas.width, rows: canvas.bandHeight)
    }
}
