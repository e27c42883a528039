import KilnRaster

/// What determines an offscreen's result (`Offscreen.key`). Two offscreens with equal keys
/// render the same pixels, so the second can take the first one's result.
struct OffscreenKey: Equatable {
    let layer: LayerContentKey
    let colors: ColorMatrix?
    let blurRadius: Double
    let colorsAfterBlur: ColorMatrix?
    let extent: PixelExtent
    let packsForSampling: Bool
    let readsReducedCopy: Bool
    let canvas: Canvas
}
