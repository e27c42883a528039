import Foundation
import KilnMedia

/// Minimal ISO-BMFF box walking, enough to check what the muxer produced.
public enum MP4Boxes {
    /// Top-level box types in file order, e.g. ["ftyp", "moov", "mdat"] (handles 64-bit sizes).
    public static func topLevel(path: String) throws(MediaError) -> [String] {
        try BoxFile(path: path).topLevelBoxes().map(\.type)
    }

    /// True iff a `colr` box of colour type `nclx` is inside `moov`.
    public static func moovContainsColr(path: String) throws(MediaError) -> Bool {
        let file = try BoxFile(path: path)
        guard let moov = try file.topLevelBoxes().first(where: { $0.type == "moov" }) else { return false }
        let payload = try file.read(at: moov.payloadOffset, count: moov.payloadSize)
        // A byte search is enough: `colr` followed by `nclx` does not occur by chance in moov metadata.
        let pattern = Array("colrnclx".utf8)
        guard payload.count >= pattern.count else { return false }
        return (0...(payload.count - pattern.count)).contains { start in
            pattern.indices.allSatisfy { payload[start + $0] == pattern[$0] }
        }
    }
}

private struct Box {
    let type: String
    let payloadOffset: UInt64
    let payloadSize: Int
}

private final class BoxFile {
    let path: String
    let handle: FileHandle
    let size: UInt64

    init(path: String) throws(MediaError) {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw MediaError.failure("MP4Boxes", "cannot open \(path)")
        }
        self.path = path
        self.handle = handle
        do { size = try handle.seekToEnd() } catch { throw Self.failure(path, error) }
    }

    deinit { try? handle.close() }

    func topLevelBoxes() throws(MediaError) -> [Box] {
        var boxes: [Box] = []
        var offset: UInt64 = 0
        while offset + 8 <= size {
            let header = try read(at: offset, count: 16 <= size - offset ? 16 : 8)
            var boxSize = header[0..<4].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            let type = String(decoding: header[4..<8], as: UTF8.self)
            var headerSize: UInt64 = 8
            if boxSize == 1 {
                guard header.count == 16 else {
                    throw MediaError.failure("MP4Boxes", "truncated 64-bit box header")
                }
                boxSize = header[8..<16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                headerSize = 16
            } else if boxSize == 0 {
                boxSize = size - offset  // extends to end of file
            }
            guard boxSize >= headerSize, boxSize <= size - offset else {
                throw MediaError.failure(
                    "MP4Boxes", "invalid size \(boxSize) for box '\(type)' at offset \(offset) in \(path)")
            }
            boxes.append(
                Box(type: type, payloadOffset: offset + headerSize, payloadSize: Int(boxSize - headerSize)))
            offset += boxSize
        }
        return boxes
    }

    func read(at offset: UInt64, count: Int) throws(MediaError) -> [UInt8] {
        do {
            try handle.seek(toOffset: offset)
            let data = try handle.read(upToCount: count) ?? Data()
            guard data.count == count else { throw MediaError.failure("MP4Boxes", "short read in \(path)") }
            return [UInt8](data)
        } catch let error as MediaError {
            throw error
        } catch {
            throw Self.failure(path, error)
        }
    }

    private static func failure(_ path: String, _ error: any Error) -> MediaError {
        MediaError.failure("MP4Boxes", "\(path): \(error)")
    }
}
