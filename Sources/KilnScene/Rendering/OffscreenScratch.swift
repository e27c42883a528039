import KilnRaster

/// A worker's scratch for offscreen rendering.
final class OffscreenScratch: @unchecked Sendable {
    let pool: BandPool

    init(canvas: Canvas, poison: PremultipliedColor? = nil) {
        pool = BandPool(width: canvas.width, rows: canvas.bandHeight, poison: poison)
    }
}
