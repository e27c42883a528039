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

/// An 8-bit RGBA frame, non-premultiplied and opaque: what previews and PNGs get.
public final class RGBA8Frame: @unchecked Sendable {
    public let width: Int
    public let height: Int
    public let bytes: UnsafeMutablePointer<UInt8>
    public var stride: Int { width * 4 }

    public init(width: Int, height: Int) {
        precondition(width > 0 && height > 0)
        self.width = width
        self.height = height
        bytes = .allocate(capacity: width * height * 4)
        bytes.initialize(repeating: 255, count: width * height * 4)
    }

    deinit { bytes.deallocate() }

    public func pixel(x: Int, y: Int) -> SIMD4<UInt8> {
        let p = bytes + y * stride + x * 4
        return SIMD4(p[0], p[1], p[2], p[3])
    }

    public var byteArray: [UInt8] { Array(UnsafeBufferPointer(start: bytes, count: width * height * 4)) }
}
