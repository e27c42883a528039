import Foundation
import KilnRaster

#if canImport(Glibc)
    import Glibc
#endif

/// Appends one line per rendered frame, `FRAME DIGEST` (the frame's YUV planes, before encoding),
/// to a file: `kiln render --frame-hashes` and `kiln worker --frame-hashes`. Because rendering is
/// deterministic, the lines of a render split over many processes equal a single render's. The
/// file is opened for appending and each line is one `write`, so several processes may share it.
public final class FrameHashLog: Sendable {
    public let path: String
    private let fd: Int32

    public init(path: String) throws(ExportError) {
        self.path = path
        fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw .cannotCreateOutput(path: path, reason: AtomicOutputFile.errnoText())
        }
    }

    deinit { close(fd) }

    public static func digest(of frame: YUV420Frame) -> String {
        var digest = ContentDigest()
        digest.update(UnsafeRawBufferPointer(start: frame.y, count: frame.width * frame.height))
        let chroma = frame.chromaWidth * frame.chromaHeight
        digest.update(UnsafeRawBufferPointer(start: frame.u, count: chroma))
        digest.update(UnsafeRawBufferPointer(start: frame.v, count: chroma))
        return digest.hex
    }

    func record(frame n: Int, digest: String) {
        let line = Array("\(n) \(digest)\n".utf8)
        // A failed write only loses a check line; the render itself is unaffected.
        _ = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }

    /// Reads such a file: frame → digest. A frame rendered twice (a retried segment) whose lines
    /// disagree maps to "conflict".
    public static func read(path: String) throws -> [Int: String] {
        var result: [Int: String] = [:]
        for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n") {
            let parts = line.split(separator: " ")
            guard parts.count == 2, let n = Int(parts[0]) else { continue }
            let digest = String(parts[1])
            if let known = result[n], known != digest {
                result[n] = "conflict"
            } else {
                result[n] = digest
            }
        }
        return result
    }
}
