import CFFmpeg
import KilnMedia

/// One decoded frame as straight-alpha RGBA8, rows packed (`width * 4` bytes each).
public struct DecodedRGBAFrame: Sendable {
    public let index: Int
    public let width: Int
    public let height: Int
    public let rgba: [UInt8]

    public init(index: Int, width: Int, height: Int, rgba: [UInt8]) {
        self.index = index
        self.width = width
        self.height = height
        self.rgba = rgba
    }

    public func pixel(x: Int, y: Int) -> SIMD4<UInt8> {
        let i = (y * width + x) * 4
        return SIMD4(rgba[i], rgba[i + 1], rgba[i + 2], rgba[i + 3])
    }

    /// `frame` converted with `scaler` (set up for its format and size, to RGBA).
    static func converting(_ frame: UnsafeMutablePointer<AVFrame>, index: Int, with scaler: ScaleContext)
        -> DecodedRGBAFrame
    {
        let width = Int(frame.pointee.width), height = Int(frame.pointee.height)
        // swscale may write a vector past the last row.
        var bytes = [UInt8](repeating: 0, count: width * height * 4 + 64)
        bytes.withUnsafeMutableBufferPointer { buffer in
            scaler.scale(
                frame: frame, destination: planes(buffer.baseAddress),
                destinationStrides: [Int32(width * 4), 0, 0, 0])
        }
        return DecodedRGBAFrame(
            index: index, width: width, height: height, rgba: Array(bytes.prefix(width * height * 4)))
    }
}
