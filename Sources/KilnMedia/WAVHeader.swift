import Foundation

/// A WAV file's length from its RIFF chunks, read in pure Swift without decoding: the duration
/// a job's soundtrack is checked against before anything decodes it. The walk to the `data`
/// chunk is bounded, so a file padded with junk is refused at once instead of being crawled
/// through eight bytes at a time (as libavformat's WAV demuxer does).
public enum WAVHeader {
    /// Chunks (fmt, LIST, fact, JUNK…) allowed before `data`.
    static let maximumChunks = 64

    /// Seconds of audio in the `data` chunk; nil when the file is not a RIFF WAVE file (another
    /// format, or RF64, left to FFmpeg).
    public static func duration(path: String) throws(MediaError) -> Double? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        let fileSize = (try? handle.seekToEnd()).map(Int.init) ?? 0
        func bytes(at offset: Int, _ count: Int) -> [UInt8] {
            guard (try? handle.seek(toOffset: UInt64(offset))) != nil,
                let data = try? handle.read(upToCount: count)
            else { return [] }
            return Array(data)
        }
        let riff = bytes(at: 0, 12)
        guard riff.count == 12, riff[0..<4].elementsEqual("RIFF".utf8),
            riff[8..<12].elementsEqual("WAVE".utf8)
        else { return nil }
        var byteRate = 0
        var offset = 12
        for _ in 0..<maximumChunks {
            let header = bytes(at: offset, 8)
            guard header.count == 8 else { break }
            let id = header[0..<4], size = littleEndian(header[4..<8])
            // Chunk ids are four printable ASCII characters; zeros are padding, not a chunk.
            guard id.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else {
                throw corrupt(path, "byte \(offset) holds no RIFF chunk (id bytes \(Array(id)))")
            }
            if id.elementsEqual("fmt ".utf8) {
                let format = bytes(at: offset + 8, 16)
                guard format.count == 16 else { throw corrupt(path, "the fmt chunk is truncated") }
                byteRate = littleEndian(format[8..<12])
            } else if id.elementsEqual("data".utf8) {
                guard byteRate > 0 else {
                    throw corrupt(path, "the data chunk comes before a usable fmt chunk")
                }
                // A streaming writer leaves the size unset (0 or 0xFFFFFFFF): the data runs to the end.
                let available = max(0, fileSize - offset - 8)
                let dataSize = size == 0 || size == 0xFFFF_FFFF ? available : min(size, available)
                return Double(dataSize) / Double(byteRate)
            }
            offset += 8 + size + (size & 1)
        }
        throw corrupt(path, "no data chunk within the first \(maximumChunks) chunks")
    }

    private static func littleEndian(_ bytes: ArraySlice<UInt8>) -> Int {
        bytes.reversed().reduce(0) { $0 << 8 | Int($1) }
    }

    private static func corrupt(_ path: String, _ reason: String) -> MediaError {
        .failure(
            "WAVHeader.duration",
            "\(URL(fileURLWithPath: path).lastPathComponent) is not a usable WAV file: \(reason)")
    }
}
