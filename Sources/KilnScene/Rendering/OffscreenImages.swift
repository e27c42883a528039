import KilnRaster

/// Offscreen images kept from frame to frame, so steady-state rendering does not allocate.
///
/// The `index`-th offscreen of each frame renders into the `index`-th image and packed copy.
/// When it has a key (`Offscreen.key`: a still picture under a constant blur, say) the key is
/// kept with them, and the next frame's `index`-th offscreen with an equal key takes the kept
/// result instead of rendering again: the blurred cover under the podcast's moving warp is
/// painted and blurred once, not every frame. A different key, or none, renders and replaces
/// it, so at most one result is kept per offscreen, in the buffers it uses anyway. Equal keys
/// mean equal pixels, so keeping changes when work happens, never the bytes.
final class OffscreenImages: @unchecked Sendable {
    /// nil where an image was let go (`releaseImage`).
    private var images: [PlanarBand?] = []
    private var packed: [PackedTexels] = []
    /// What the `index`-th image and packed copy hold, if known, and the reduced copy's sampler
    /// (it reads the packed copy only).
    private var kept: [Kept?] = []

    struct Kept {
        let key: OffscreenKey
        let reduced: ReducedBlurSampler?
        /// Whether the image holds the reduced copy the band pass enlarges
        /// (`Offscreen.compositesReduced`) rather than the full-size result.
        let inBands: Bool
        /// Frames the result has served, the one it was rendered for included.
        var frames = 1
    }

    /// A result the band pass enlarges that has served this many frames is rendered once more
    /// at full size (`Offscreen.keepsFullImage`): a picture blurred the same way for this long
    /// is likely still (a blurred cover), and reading a kept full-size result costs a frame less
    /// than enlarging it again, while a clip that changes every frame or two never pays for it.
    static let framesBeforeFullImage = 2

    /// The blurs' workspace, shared by the offscreens of a frame, which render one after another.
    let blurWorkspace: BlurWorkspace

    init(threads: Int) {
        blurWorkspace = BlurWorkspace(workers: threads)
    }

    /// The bytes these buffers will hold once `offscreens` have rendered into them: each image
    /// and packed copy grows to the largest asked of it and is kept, so this is what the frame
    /// costs, counted before anything is allocated.
    func bytesHeld(after offscreens: [Offscreen], canvas: Canvas) -> Double {
        var total = 0.0
        for (index, offscreen) in offscreens.enumerated() {
            let rows = Double(max(offscreen.extent.rows.count, 1))
            let width = Double(offscreen.imageWidth(canvas: canvas))
            let held = index < images.count ? images[index] : nil
            let imageRows = Double(
                Self.rowsToHold(offscreen.extent.rows.count, held: held?.capacityRows, limit: canvas.height))
            let imageWidth = max(width, Double(held?.width ?? 0))
            // Four Float32 planes, each row padded by 8 to 16 floats.
            total += 16 * (imageWidth + 16) * imageRows
            if offscreen.needsTexels {
                total += 16 * Double(offscreen.extent.columns.count + 3) * (rows + 3)
            }
        }
        return total
    }

    /// Rows of an image that must hold `rows` where one of `held` rows is kept (nil: none). An
    /// offscreen that grows frame by frame (a layer twirling or scaling in) grows its image by
    /// half at least, up to the frame's `limit`, rather than to each frame's size: every
    /// allocation is written once whole (zeroed, its pages faulted in), and a card growing over
    /// a second reallocated ten 10 MB images.
    static func rowsToHold(_ rows: Int, held: Int?, limit: Int) -> Int {
        guard let held else { return max(rows, 1) }
        if held >= rows { return held }
        return max(rows, min(held + held / 2, max(limit, 1)))
    }

    /// The `index`-th packed copy of this frame.
    func texels(_ index: Int) -> PackedTexels {
        while packed.count <= index { packed.append(PackedTexels()) }
        return packed[index]
    }

    /// The `index`-th image of this frame, at least `width` wide with at least `rows` rows; when
    /// it grows, by `rowsToHold` (`limit`: the frame's height).
    func image(_ index: Int, width: Int, rows: Int, limit: Int) -> PlanarBand {
        while images.count <= index { images.append(nil) }
        if let held = images[index], held.capacityRows >= rows, held.width >= width { return held }
        let held = images[index]
        let image = PlanarBand(
            width: max(width, held?.width ?? 0),
            rows: Self.rowsToHold(rows, held: held?.capacityRows, limit: limit))
        images[index] = image
        forget(index)
        return image
    }

    /// Lets the `index`-th image go: a result kept in its packed copy alone (a blur read as its
    /// reduced copy) no longer needs the full-size image it was painted and blurred in, which is
    /// most of a frame's memory (45 MB for the podcast's cover). It is allocated again only if
    /// that offscreen has to render again.
    func releaseImage(_ index: Int) {
        if index < images.count { images[index] = nil }
    }

    /// The reduced-copy sampler kept with the `index`-th buffers when they hold the result for
    /// `key`; nil when they do not.
    func kept(_ index: Int, for key: OffscreenKey) -> Kept? {
        guard index < kept.count, let entry = kept[index], entry.key == key else { return nil }
        return entry
    }

    /// Records what the `index`-th buffers now hold (nil: not known).
    func keep(_ index: Int, key: OffscreenKey?, reduced: ReducedBlurSampler?, inBands: Bool) {
        while kept.count <= index { kept.append(nil) }
        kept[index] = key.map { Kept(key: $0, reduced: reduced, inBands: inBands) }
    }

    /// Counts one more frame served by the `index`-th kept result.
    func served(_ index: Int) {
        kept[index]?.frames += 1
    }

    private func forget(_ index: Int) {
        if index < kept.count { kept[index] = nil }
    }
}
