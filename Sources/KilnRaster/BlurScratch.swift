/// One worker's buffers: padded lines for the row pass, running sums and ring rows for the column
/// pass, the reduced blur's strip and rows for the enlargement. Each grows on first need.
final class BlurScratch {
    /// A 64-byte aligned, zeroed float buffer that only grows.
    private final class Buffer {
        var count = 0
        var pointer = UnsafeMutablePointer<Float>(bitPattern: 64)!

        func reserve(_ floats: Int) -> UnsafeMutablePointer<Float> {
            if floats > count {
                if count > 0 { pointer.deallocate() }
                pointer = UnsafeMutableRawPointer.allocate(byteCount: floats * 4, alignment: 64)
                    .bindMemory(to: Float.self, capacity: floats)
                pointer.initialize(repeating: 0, count: floats)
                count = floats
            }
            return pointer
        }

        deinit { if count > 0 { pointer.deallocate() } }
    }

    private let buffers = (0..<5).map { _ in Buffer() }
    private var strip: PlanarBand?
    /// The row pass's three lines, `capacity` SIMD16 values each.
    private(set) var a = UnsafeMutableRawPointer(bitPattern: 64)!
    private(set) var b = UnsafeMutableRawPointer(bitPattern: 64)!
    private(set) var c = UnsafeMutableRawPointer(bitPattern: 64)!
    private(set) var capacity = 0

    func reserve(_ count: Int) {
        guard count > capacity else { return }
        let floats = count * 16
        a = UnsafeMutableRawPointer(buffers[0].reserve(floats))
        b = UnsafeMutableRawPointer(buffers[1].reserve(floats))
        c = UnsafeMutableRawPointer(buffers[2].reserve(floats))
        capacity = count
    }

    /// The column pass's state.
    func state(floats count: Int) -> UnsafeMutablePointer<Float> { buffers[3].reserve(count) }

    /// The enlargement's rows.
    func enlargement(floats count: Int) -> UnsafeMutablePointer<Float> { buffers[4].reserve(count) }

    /// A band for the reduced blur's vertical pass over one strip.
    func reducedStrip(width: Int, rows: Int) -> PlanarBand {
        if let band = strip, band.width >= width, band.capacityRows >= rows { return band }
        let band = PlanarBand(width: max(width, strip?.width ?? 0), rows: max(rows, strip?.capacityRows ?? 0))
        strip = band
        return band
    }
}
