import CFFmpeg
import Foundation

/// What a video file says about how it was made, as container metadata (MP4 and MOV `mdta` keys
/// through `movflags use_metadata_tags`, WebM SimpleTags), so `kiln review` can tell a file's
/// job when no queue knows it (its render time is an attribute of the file, `RenderTimeAttribute`,
/// as it differs between runs). GIF and animated WebP carry none.
///
/// Values known only once every frame is written (the frames' digest) go into
/// the file first as placeholders of their final width and are overwritten in place after the
/// trailer: WebM writes its tags with the header, so they cannot simply be set late.
public struct ContainerTags: Sendable, Equatable {
    /// Keys and values known before the first frame, in the order they are written.
    public var known: [Tag]
    /// Keys whose values are filled in after the trailer, each exactly `width` characters long.
    public var late: [LateTag]

    public struct Tag: Sendable, Equatable {
        public var key: String
        public var value: String
        public init(_ key: String, _ value: String) {
            self.key = key
            self.value = value
        }
    }

    public struct LateTag: Sendable, Equatable {
        public var key: String
        public var width: Int
        public init(_ key: String, width: Int) {
            self.key = key
            self.width = width
        }
    }

    public init(known: [Tag] = [], late: [LateTag] = []) {
        self.known = known
        self.late = late
    }

    public static let job = "kiln_job"
    public static let version = "kiln_version"
    public static let frames = "kiln_frames"
    public static let framesDigest = "kiln_frames_digest"

    /// The placeholder written for late tag `index`: text no encoder emits by chance, `width` long.
    static func placeholder(_ index: Int, width: Int) -> String {
        let stem = "@kiln-late-\(index)"
        return stem + String(repeating: "@", count: max(0, width - stem.count))
    }

    func apply(to formatContext: UnsafeMutablePointer<AVFormatContext>) throws(MediaError) {
        for tag in known {
            try check(av_dict_set(&formatContext.pointee.metadata, tag.key, tag.value, 0), "av_dict_set")
        }
        for (index, tag) in late.enumerated() {
            try check(
                av_dict_set(
                    &formatContext.pointee.metadata, tag.key, Self.placeholder(index, width: tag.width), 0),
                "av_dict_set")
        }
    }

    /// Overwrites each late tag's placeholder in the finished file at `path` with its value (a
    /// value of another width, or a placeholder the container did not keep, is an error: the file
    /// would otherwise claim a render time of "@kiln-late-0").
    func fill(_ values: [String: String], in path: String) throws(MediaError) {
        var wanted: [(placeholder: [UInt8], value: [UInt8])] = []
        for (index, tag) in late.enumerated() {
            let value = values[tag.key] ?? ""
            guard value.utf8.count == tag.width else {
                throw MediaError.failure(
                    "ContainerTags.fill", "\(tag.key) must be \(tag.width) bytes, got \"\(value)\"")
            }
            wanted.append((Array(Self.placeholder(index, width: tag.width).utf8), Array(value.utf8)))
        }
        guard !wanted.isEmpty else { return }
        let fd = open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else {
            throw MediaError.failure(
                "ContainerTags.fill", "cannot reopen the file: \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var found = Array(repeating: false, count: wanted.count)
        let longest = wanted.map(\.placeholder.count).max() ?? 0
        let chunk = 1 << 20
        var buffer = [UInt8](repeating: 0, count: chunk + longest)
        func scan(_ range: Range<off_t>) throws(MediaError) {
            var offset = range.lowerBound
            while offset < range.upperBound {
                let length = min(buffer.count, Int(range.upperBound - offset))
                let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, length, offset) }
                guard count > 0 else { return }
                try replace(in: count, at: offset)
                guard count == buffer.count else { return }
                // Chunks overlap by the longest placeholder, so one across a boundary is still seen.
                offset += off_t(chunk)
            }
        }
        func replace(in count: Int, at offset: off_t) throws(MediaError) {
            for (index, item) in wanted.enumerated() {
                var at = 0
                while let hit = Self.find(item.placeholder, in: buffer, from: at, count: count) {
                    let written = item.value.withUnsafeBytes {
                        pwrite(fd, $0.baseAddress, $0.count, offset + off_t(hit))
                    }
                    guard written == item.value.count else {
                        throw MediaError.failure(
                            "ContainerTags.fill", "cannot write a tag: \(String(cString: strerror(errno)))")
                    }
                    found[index] = true
                    at = hit + item.placeholder.count
                }
            }
        }
        // The tags are in the header (WebM, MP4 with moov first) or the trailer (MP4 with moov
        // last): the ends are read first, the whole file only if a placeholder is not there.
        let size = lseek(fd, 0, SEEK_END)
        let ends: off_t = 4 << 20
        try scan(0..<min(size, ends + off_t(longest)))
        if size > ends { try scan(max(ends, size - ends)..<size) }
        if found.contains(false), size > 2 * ends { try scan(ends..<(size - ends + off_t(longest))) }
        if let missing = found.firstIndex(of: false) {
            throw MediaError.failure("ContainerTags.fill", "the container did not keep \(late[missing].key)")
        }
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int, count: Int) -> Int? {
        haystack.withUnsafeBytes { bytes in
            needle.withUnsafeBytes { pattern in
                let base = bytes.baseAddress!
                var at = start
                // memchr finds each candidate first byte at memory speed; memcmp checks the rest.
                while at + pattern.count <= count, let hit = memchr(base + at, Int32(needle[0]), count - at) {
                    let offset = base.distance(to: UnsafeRawPointer(hit))
                    guard offset + pattern.count <= count else { return nil }
                    if memcmp(hit, pattern.baseAddress!, pattern.count) == 0 { return offset }
                    at = offset + 1
                }
                return nil
            }
        }
    }

    /// Every container tag of the file at `path` (its format context's metadata), names in
    /// lower case.
    public static func read(path: String) throws(MediaError) -> [String: String] {
        var context: UnsafeMutablePointer<AVFormatContext>?
        try check(avformat_open_input(&context, path, nil, nil), "avformat_open_input")
        defer { avformat_close_input(&context) }
        guard let context else { throw MediaError.failure("avformat_open_input", "returned NULL") }
        return dictionary(context.pointee.metadata)
    }

    static func dictionary(_ metadata: OpaquePointer?) -> [String: String] {
        var result: [String: String] = [:]
        var entry: UnsafeMutablePointer<AVDictionaryEntry>? = nil
        while let next = av_dict_get(metadata, "", entry, AV_DICT_IGNORE_SUFFIX) {
            // Matroska writes tag names in capitals: kiln_job comes back as KILN_JOB.
            result[String(cString: next.pointee.key).lowercased()] = String(cString: next.pointee.value)
            entry = next
        }
        return result
    }
}
