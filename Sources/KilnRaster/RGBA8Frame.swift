/// An 8-bit RGBA frame, non-premultiplied: opaque (over black) for previews, or with the frame's
/// own alpha when rendered with `straightAlpha` (ProRes 4444, GIF, WebP, PNG sequences).
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
