import Foundation
import KilnMedia
import KilnRaster
import KilnScene

/// Image layers' files, decoded through the media module (libavformat + libavcodec, resized
/// with swscale).
public struct MediaImageDecoder: ImageDecoding {
    public init() {}

    public func imageSize(at url: URL) throws -> SIMD2<Int> {
        try NonRegularInput.refuse(url)
        let header = try ImageFile.probe(url)
        return SIMD2(header.width, header.height)
    }

    public func decodeImage(at url: URL, resizedTo size: SIMD2<Int>?) throws -> RasterImage {
        try NonRegularInput.refuse(url)
        let decoded = try ImageFile.decode(url, resizedTo: size.map { (width: $0.x, height: $0.y) })
        return decoded.premultiplied
            ? RasterImage(width: decoded.width, height: decoded.height, premultipliedRGBA: decoded.rgba)
            : RasterImage(width: decoded.width, height: decoded.height, straightRGBA: decoded.rgba)
    }
}
