import Foundation
import KilnMedia
import XCTest

/// The synthetic clip: one flat colour per frame, with luma ramping with the frame index.
struct FlatColorClip {
    static let frameRate = (numerator: 30000, denominator: 1001)

    let width: Int
    let height: Int
    let frameCount: Int

    func color(ofFrame index: Int) -> (r: Double, g: Double, b: Double) {
        (Double(30 + 4 * index), Double(60 + 3 * index), Double(200 - 3 * index))
    }

    static let standard = FlatColorClip(width: 320, height: 240, frameCount: 48)

    static func settings(width: Int = 320, height: Int = 240, gop: Int = 12) -> VideoSettings {
        VideoSettings(
            width: width, height: height, frameRateNumerator: frameRate.numerator,
            frameRateDenominator: frameRate.denominator, crf: 18, preset: "veryfast", gop: gop)
    }

    /// Writes the clip through VideoFileWriter; returns the frame count reported by finish().
    @discardableResult
    func write(to path: String, settings: VideoSettings, audio: (any AudioSampleSource)? = nil) throws -> Int
    {
        let writer = try VideoFileWriter(path: path, settings: settings, audio: audio)
        let uvWidth = width / 2, uvHeight = height / 2
        var y = [UInt8](repeating: 0, count: width * height)
        var u = [UInt8](repeating: 0, count: uvWidth * uvHeight)
        var v = [UInt8](repeating: 0, count: uvWidth * uvHeight)
        for index in 0..<frameCount {
            let c = color(ofFrame: index)
            let yuv = ReferenceBT709.yuvBytes(r: c.r, g: c.g, b: c.b)
            y.withUnsafeMutableBufferPointer { $0.update(repeating: yuv.y) }
            u.withUnsafeMutableBufferPointer { $0.update(repeating: yuv.cb) }
            v.withUnsafeMutableBufferPointer { $0.update(repeating: yuv.cr) }
            try writer.append(y: y, yStride: width, u: u, v: v, uvStride: uvWidth)
        }
        XCTAssertEqual(writer.framesAppended, frameCount)
        return try writer.finish()
    }
}
