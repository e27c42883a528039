/// An 8-bit YUV 4:2:0 frame (BT.709, limited range, chroma sited left), the encoder's input.
///
/// Odd sides are allowed, as in FFmpeg's yuv420p: the chroma planes then cover the last column
/// or row with one more sample (⌈w/2⌉ × ⌈h/2⌉), filtered from the edge pixels repeated.
public final class YUV420Frame: @unchecked Sendable {
    public let width: Int
    public let height: Int
    public let y: UnsafeMutablePointer<UInt8>
    public let u: UnsafeMutablePointer<UInt8>
    public let v: UnsafeMutablePointer<UInt8>
    public var yStride: Int { width }
    public var uvStride: Int { chromaWidth }
    public var chromaWidth: Int { (width + 1) / 2 }
    public var chromaHeight: Int { (height + 1) / 2 }

    public init(width: Int, height: Int) {
        precondition(width > 0 && height > 0, "a frame needs pixels")
        self.width = width
        self.height = height
        // Padding lets SIMD stores of a partial last chunk stay inside the allocation; 64 bytes
        // also cover libswscale's vector loops, which may write that far past a plane's last row.
        let padding = 64
        let chroma = ((width + 1) / 2) * ((height + 1) / 2) + padding
        y = .allocate(capacity: width * height + padding)
        u = .allocate(capacity: chroma)
        v = .allocate(capacity: chroma)
        y.initialize(repeating: 16, count: width * height + padding)
        u.initialize(repeating: 128, count: chroma)
        v.initialize(repeating: 128, count: chroma)
    }

    deinit {
        y.deallocate()
        u.deallocate()
        v.deallocate()
    }
}
