import KilnMedia

/// One decoded 8-bit 4:2:0 frame; the planes are only valid inside the `onFrame` callback.
public struct DecodedFrame {
    public let index: Int
    public let width: Int
    public let height: Int
    public let y: UnsafeBufferPointer<UInt8>
    public let u: UnsafeBufferPointer<UInt8>
    public let v: UnsafeBufferPointer<UInt8>
    public let yStride: Int
    public let uvStride: Int

    public init(
        index: Int, width: Int, height: Int, y: UnsafeBufferPointer<UInt8>, u: UnsafeBufferPointer<UInt8>,
        v: UnsafeBufferPointer<UInt8>, yStride: Int, uvStride: Int
    ) {
        self.index = index
        self.width = width
        self.height = height
        self.y = y
        self.u = u
        self.v = v
        self.yStride = yStride
        self.uvStride = uvStride
    }

    /// BT.709 limited-range inverse to 8-bit RGB of one pixel (nearest chroma sample), for colour checks.
    public func rgb(x: Int, y row: Int) -> (r: Double, g: Double, b: Double) {
        let chroma = (row / 2) * uvStride + x / 2
        return BT709.rgb(y: Double(self.y[row * yStride + x]), cb: Double(u[chroma]), cr: Double(v[chroma]))
    }

    /// Mean RGB over a rectangle (whole frame by default), in 0…255.
    public func meanRGB(x: Int = 0, y top: Int = 0, width: Int? = nil, height: Int? = nil) -> (
        r: Double, g: Double, b: Double
    ) {
        let columns = x..<min(x + (width ?? self.width - x), self.width)
        let rows = top..<min(top + (height ?? self.height - top), self.height)
        guard !columns.isEmpty, !rows.isEmpty else { return (0, 0, 0) }
        var sum = (r: 0.0, g: 0.0, b: 0.0)
        for row in rows {
            for column in columns {
                let pixel = rgb(x: column, y: row)
                sum.r += pixel.r
                sum.g += pixel.g
                sum.b += pixel.b
            }
        }
        let count = Double(columns.count * rows.count)
        return (sum.r / count, sum.g / count, sum.b / count)
    }
}
