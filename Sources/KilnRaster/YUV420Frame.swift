/// An 8-bit YUV 4:2:0 frame (BT.709, limited range, chroma sited left), the encoder's input.
public final class YUV420Frame: @unchecked Sendable {
    public let width: Int
    public let height: Int
    public let y: UnsafeMutablePointer<UInt8>
    public let u: UnsafeMutablePointer<UInt8>
    public let v: UnsafeMutablePointer<UInt8>
    public var yStride: Int { width }
    public var uvStride: Int { width / 2 }

    public init(width: Int, height: Int) {
        precondition(width > 0 && height > 0 && width % 2 == 0 && height % 2 == 0, "4:2:0 needs even sizes")
        self.width = width
        self.height = height
        // Padding lets SIMD stores of a partial last chunk stay inside the allocation; 64 bytes
        // also cover libswscale's vector loops, which may write that far past a plane's last row.
        let padding = 64
        y = .allocate(capacity: width * height + padding)
        u = .allocate(capacity: width * height / 4 + padding)
        v = .allocate(capacity: width * height / 4 + padding)
        y.initialize(repeating: 16, count: width * height + padding)
        u.initialize(repeating: 128, count: width * height / 4 + padding)
        v.initialize(repeating: 128, count: width * height / 4 + padding)
    }

    deinit {
        y.deallocate()
        u.deallocate()
        v.deallocate()
    }
}
