import Foundation
import KilnMedia

#if canImport(Glibc)
    import Glibc
#endif

/// Writes frames as numbered RGBA PNGs (`frame_00001.png`, …: one-based, at least five digits)
/// into a folder, through FFmpeg's PNG encoder (`PNGCodec`, sRGB-tagged), keeping transparency.
final class PNGSequenceWriter: FrameSink, @unchecked Sendable {
    /// The temp folder, opened without following links; each frame is a new file created in it.
    let folder: OutputDirectory
    var onFrameWritten: ((Int) -> Void)?
    private(set) var framesWritten = 0

    init(folder: OutputDirectory) {
        self.folder = folder
    }

    /// `frame_00001.png` for the first frame.
    static func fileName(ofFrame index: Int) -> String {
        let digits = String(index + 1)
        return "frame_" + String(repeating: "0", count: max(0, 5 - digits.count)) + digits + ".png"
    }

    /// Whether `name` is one `fileName(ofFrame:)` makes.
    static func isFrameFileName(_ name: String) -> Bool {
        guard name.hasPrefix("frame_"), name.hasSuffix(".png") else { return false }
        let digits = name.dropFirst(6).dropLast(4)
        return digits.count >= 5 && digits.allSatisfy(\.isASCII) && digits.allSatisfy(\.isNumber)
    }

    func append(_ frame: RenderedFrame) throws(MediaError) {
        guard let rgba = frame.rgba else {
            throw MediaError(
                function: "PNGSequenceWriter.append", code: -1, message: "no RGBA frame rendered")
        }
        let bytes = try PNGCodec.encode(
            rgba: rgba.bytes, width: rgba.width, height: rgba.height, stride: rgba.stride)
        let name = Self.fileName(ofFrame: framesWritten)
        let fd = folder.createFile(name)
        let failure =
            fd < 0 ? AtomicOutputFile.errnoText() : AtomicOutputFile.writeAll(bytes, to: fd)
        if fd >= 0 { close(fd) }
        if let failure {
            throw MediaError(
                function: "PNGSequenceWriter.append", code: -1,
                message: "cannot write \(folder.path)/\(name): \(failure)")
        }
        framesWritten += 1
        onFrameWritten?(framesWritten)
    }

    func complete(lateTags: [String: String]) throws(MediaError) {}

    func abort() {}
}
