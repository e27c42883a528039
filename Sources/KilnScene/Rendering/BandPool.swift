import KilnRaster

/// Bands borrowed for intermediate results (a layer before compositing, a group's children, a
/// clip mask). One per worker; it grows to the deepest nesting on the first frame and is reused
/// after, so steady-state rendering allocates nothing.
public final class BandPool: @unchecked Sendable {
    public let width: Int
    public let rows: Int
    private var bands: [PlanarBand] = []
    private var depth = 0

    /// When set, every band lent is first filled with this colour: a test renders with it to
    /// show that nothing a band held before reaches the picture.
    let poison: PremultipliedColor?

    public convenience init(width: Int, rows: Int) {
        self.init(width: width, rows: rows, poison: nil)
    }

    init(width: Int, rows: Int, poison: PremultipliedColor?) {
        self.width = width
        self.rows = rows
        self.poison = poison
    }

    /// Lends a band for the duration of `body`.
    public func withBand<R>(_ body: (PlanarBand) -> R) -> R {
        if depth == bands.count { bands.append(PlanarBand(width: width, rows: rows)) }
        let band = bands[depth]
        if let poison { band.fill(poison, rows: rows) }
        depth += 1
        defer { depth -= 1 }
        return body(band)
    }
}
