import Foundation

/// Pure-Swift header parsing for `ImageFile.probe`. It runs before any FFmpeg object exists, so a
/// file that claims a huge size is refused without a decoder allocating anything.
enum ImageHeader {
    static func read(_ url: URL) throws(ImageFileError) -> (format: ImageFormat, width: Int, height: Int) {
        let reader = try HeaderReader(url: url)
        let head = try reader.bytes(at: 0, count: 12)
        if head.isEmpty { throw .corrupt(path: reader.path, reason: "the file is empty") }
        if head.starts(with: pngSignature) {
            return try size(of: .png, reader.path, png(reader))
        }
        if head.starts(with: [0xFF, 0xD8, 0xFF]) {
            return try size(of: .jpeg, reader.path, jpeg(reader))
        }
        if head.count == 12, head.starts(with: Array("RIFF".utf8)),
            head.dropFirst(8).elementsEqual("WEBP".utf8)
        {
            return try size(of: .webp, reader.path, webp(reader))
        }
        throw .unsupportedFormat(path: reader.path)
    }

    /// FFmpeg 5.1's `ff_get_buffer` refuses a picture unless av_image_check_size2 accepts its width
    /// rounded up to STRIDE_ALIGN (at most 64): 8 bytes per pixel plus 1024 per row, times the rows
    /// plus 128, must stay below INT_MAX. Mirrored here so `probe` refuses what `decode` could not
    /// decode (a 16384x16384 picture is over that bound; the largest square is 16255x16255).
    private static func fitsFFmpegFrame(width: Int, height: Int) -> Bool {
        let alignedWidth = (width + 63) & ~63
        return (8 * alignedWidth + 1024) * (height + 128) < Int(Int32.max)
    }

    private static func size(of format: ImageFormat, _ path: String, _ size: (width: Int, height: Int))
        throws(ImageFileError) -> (format: ImageFormat, width: Int, height: Int)
    {
        let (width, height) = size
        guard width > 0, height > 0 else {
            throw .corrupt(path: path, reason: "the header gives a size of \(width)x\(height)")
        }
        guard width <= ImageFile.maxDimension, height <= ImageFile.maxDimension,
            fitsFFmpegFrame(width: width, height: height)
        else {
            throw .tooLarge(path: path, width: width, height: height, limit: ImageFile.maxDimension)
        }
        return (format, width, height)
    }

    // MARK: PNG

    private static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The IHDR chunk must come first (PNG spec 5.6) and is 13 bytes; its CRC is checked so that a
    /// damaged size field reads as corruption rather than as a real size.
    private static func png(_ reader: HeaderReader) throws(ImageFileError) -> (width: Int, height: Int) {
        let header = Array(try reader.bytes(at: 8, count: 25))
        guard header.count == 25 else {
            throw .corrupt(path: reader.path, reason: "the file ends inside the PNG header")
        }
        guard bigEndian(header, 0, 4) == 13, header[4..<8].elementsEqual("IHDR".utf8) else {
            throw .corrupt(path: reader.path, reason: "the first PNG chunk is not a 13-byte IHDR")
        }
        guard crc32(header[4..<21]) == bigEndian(header, 21, 4) else {
            throw .corrupt(path: reader.path, reason: "the PNG IHDR checksum does not match")
        }
        let width = bigEndian(header, 8, 4), height = bigEndian(header, 12, 4)
        // PNG sizes are 31-bit; a set top bit is damage, not a size.
        guard width <= Int(Int32.max), height <= Int(Int32.max) else {
            throw .corrupt(path: reader.path, reason: "the PNG IHDR size \(width)x\(height) is invalid")
        }
        return (width, height)
    }

    private static func crc32(_ bytes: ArraySlice<UInt8>) -> Int {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return Int(crc ^ 0xFFFF_FFFF)
    }

    // MARK: JPEG

    /// Walks marker segments from the SOI to the first frame header (SOFn), seeking over segment
    /// payloads, so large EXIF or ICC segments are skipped rather than read.
    private static func jpeg(_ reader: HeaderReader) throws(ImageFileError) -> (width: Int, height: Int) {
        func byte(_ offset: Int) throws(ImageFileError) -> UInt8 {
            guard let value = try reader.bytes(at: offset, count: 1).first else {
                throw .corrupt(path: reader.path, reason: "the file ends before the JPEG frame header")
            }
            return value
        }
        var offset = 2
        while true {
            // Like libjpeg and FFmpeg, skip stray bytes and fill bytes (0xFF runs) before a marker.
            guard try byte(offset) == 0xFF else {
                offset += 1
                continue
            }
            offset += 1
            var marker = try byte(offset)
            while marker == 0xFF {
                offset += 1
                marker = try byte(offset)
            }
            offset += 1
            switch marker {
            case 0x00, 0x01, 0xD0...0xD7:
                // A stuffed zero or a parameterless marker: nothing to skip.
                continue
            case 0xD8, 0xD9, 0xDA:
                throw .corrupt(
                    path: reader.path, reason: "the JPEG has no frame header before its image data")
            default:
                let segment = Array(try reader.bytes(at: offset, count: 7))
                guard segment.count >= 2 else {
                    throw .corrupt(path: reader.path, reason: "the file ends inside a JPEG marker segment")
                }
                let length = bigEndian(segment, 0, 2)
                guard length >= 2 else {
                    throw .corrupt(path: reader.path, reason: "a JPEG marker segment has length \(length)")
                }
                if isFrameHeader(marker) {
                    guard length >= 7, segment.count == 7 else {
                        throw .corrupt(path: reader.path, reason: "the JPEG frame header is truncated")
                    }
                    // Height 0 defers the height to a DNL marker after the first scan; the size is
                    // then unknown here, and Kiln treats it as unusable.
                    return (width: bigEndian(segment, 5, 2), height: bigEndian(segment, 3, 2))
                }
                offset += length
            }
        }
    }

    /// SOF0–SOF15 except DHT (C4), JPG (C8) and DAC (CC), plus JPEG-LS SOF55 (F7), which FFmpeg's
    /// MJPEG decoder also reads.
    private static func isFrameHeader(_ marker: UInt8) -> Bool {
        switch marker {
        case 0xC4, 0xC8, 0xCC: false
        case 0xC0...0xCF, 0xF7: true
        default: false
        }
    }

    // MARK: WebP

    /// The first chunk after `RIFF....WEBP` is VP8 (lossy), VP8L (lossless) or VP8X (extended, with
    /// the canvas size). Animated WebP is refused: FFmpeg 5.1's WebP decoder cannot decode it.
    private static func webp(_ reader: HeaderReader) throws(ImageFileError) -> (width: Int, height: Int) {
        let chunk = Array(try reader.bytes(at: 12, count: 18))
        func need(_ count: Int) throws(ImageFileError) {
            guard chunk.count >= count else {
                throw .corrupt(path: reader.path, reason: "the file ends inside the WebP header")
            }
        }
        try need(8)
        let payload = 8
        switch String(decoding: chunk[0..<4], as: UTF8.self) {
        case "VP8 ":
            // Frame tag (3 bytes, bit 0 clear on a key frame), start code 9D 01 2A, then 14-bit
            // width and height each followed by 2 scaling bits (RFC 6386 section 9.1).
            try need(payload + 10)
            guard chunk[payload] & 1 == 0,
                chunk[(payload + 3)..<(payload + 6)].elementsEqual([0x9D, 0x01, 0x2A])
            else {
                throw .corrupt(path: reader.path, reason: "the WebP VP8 frame header is invalid")
            }
            return (
                littleEndian(chunk, payload + 6, 2) & 0x3FFF, littleEndian(chunk, payload + 8, 2) & 0x3FFF
            )
        case "VP8L":
            // Signature 0x2F, then width - 1 and height - 1 in 14 bits each, least significant first.
            try need(payload + 5)
            guard chunk[payload] == 0x2F else {
                throw .corrupt(path: reader.path, reason: "the WebP VP8L signature is invalid")
            }
            let bits = littleEndian(chunk, payload + 1, 4)
            return ((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)
        case "VP8X":
            // Flags (animation is bit 1), 3 reserved bytes, then canvas width - 1 and height - 1 in
            // 24 bits each.
            try need(payload + 10)
            if chunk[payload] & 0x02 != 0 { throw .unsupportedFormat(path: reader.path) }
            return (littleEndian(chunk, payload + 4, 3) + 1, littleEndian(chunk, payload + 7, 3) + 1)
        default:
            throw .corrupt(path: reader.path, reason: "the first WebP chunk is not VP8, VP8L or VP8X")
        }
    }

    // MARK: Bytes

    private static func bigEndian(_ bytes: [UInt8], _ offset: Int, _ count: Int) -> Int {
        bytes[offset..<(offset + count)].reduce(0) { $0 << 8 | Int($1) }
    }

    private static func littleEndian(_ bytes: [UInt8], _ offset: Int, _ count: Int) -> Int {
        bytes[offset..<(offset + count)].reversed().reduce(0) { $0 << 8 | Int($1) }
    }
}

/// Reads an image file's header through a 4 KiB window with pread, so only the bytes the parsers
/// look at (plus the rest of their window) are read.
private final class HeaderReader {
    private static let windowSize = 4096
    let path: String
    private let descriptor: Int32
    private var window: [UInt8] = []
    private var windowStart = 0
    private var atEndOfFile = false

    init(url: URL) throws(ImageFileError) {
        path = url.path
        guard url.isFileURL else { throw .unreadable(path: url.absoluteString, reason: "not a file URL") }
        // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused below anyway.
        let descriptor = url.withUnsafeFileSystemRepresentation { name in
            name.map { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC) } ?? -1
        }
        guard descriptor >= 0 else { throw .unreadable(path: path, reason: Self.reason(errno)) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let error = errno
            close(descriptor)
            throw .unreadable(path: path, reason: Self.reason(error))
        }
        let type = status.st_mode & S_IFMT
        guard type == S_IFREG else {
            close(descriptor)
            throw .unreadable(path: path, reason: type == S_IFDIR ? "is a directory" : "not a regular file")
        }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// `count` bytes from `offset`, fewer at the end of the file.
    func bytes(at offset: Int, count: Int) throws(ImageFileError) -> ArraySlice<UInt8> {
        precondition(count <= Self.windowSize, "a header read must fit in one window")
        let windowEnd = windowStart + window.count
        if offset < windowStart || (offset + count > windowEnd && !(atEndOfFile && offset >= windowStart)) {
            try fill(from: offset)
        }
        let start = min(offset - windowStart, window.count)
        return window[start..<min(start + count, window.count)]
    }

    private func fill(from offset: Int) throws(ImageFileError) {
        var buffer = [UInt8](repeating: 0, count: Self.windowSize)
        var filled = 0
        while filled < buffer.count {
            let result = buffer.withUnsafeMutableBytes {
                pread(descriptor, $0.baseAddress! + filled, $0.count - filled, off_t(offset + filled))
            }
            if result < 0 {
                if errno == EINTR { continue }
                throw .unreadable(path: path, reason: Self.reason(errno))
            }
            if result == 0 { break }
            filled += result
        }
        window = Array(buffer.prefix(filled))
        windowStart = offset
        atEndOfFile = filled < buffer.count
    }

    private static func reason(_ error: Int32) -> String {
        switch error {
        case ENOENT: "no such file"
        case EACCES: "permission denied"
        case EISDIR: "is a directory"
        default: String(cString: strerror(error))
        }
    }
}
