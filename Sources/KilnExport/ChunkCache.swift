import Foundation
import KilnMedia

/// A content-addressed store of encoded chunks (issue 37, part 3), shared safely by processes
/// and hosts on one file system: an entry is written to a temp file beside it and renamed into
/// place (two writers of one key both succeed, with the same bytes), and carries its key, its
/// length and the SHA-256 of its payload, so a truncated, altered or misplaced entry is found,
/// removed and reported as missing, never used. Failures to write (a full or read-only disk)
/// are returned as warnings: the export goes on uncached.
public struct ChunkCache: Sendable {
    public let folder: URL

    public init(folder: URL) {
        self.folder = folder
    }

    /// `$XDG_CACHE_HOME/kiln/chunks`, or `~/.cache/kiln/chunks`.
    public static var defaultFolder: URL {
        let environment = ProcessInfo.processInfo.environment
        let base =
            environment["XDG_CACHE_HOME"].flatMap { $0.hasPrefix("/") ? URL(fileURLWithPath: $0) : nil }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache")
        return base.appendingPathComponent("kiln").appendingPathComponent("chunks")
    }

    /// The key of a chunk of `frames` (their digests, in order) encoded with `settings`.
    public static func key(frames: [FrameDigest], settings: VideoSettings) -> ChunkKey {
        var digest = SHA256Digest()
        digest.update(string: "kiln chunk")
        digest.update(word: UInt64(FrameDigest.renderVersion))
        digest.update(string: "\(settings.codec)")
        for value in [
            settings.width, settings.height, settings.frameRateNumerator, settings.frameRateDenominator,
            settings.gop,
        ] {
            digest.update(word: UInt64(truncatingIfNeeded: value))
        }
        digest.update(word: settings.crf.bitPattern)
        digest.update(string: settings.preset)
        digest.update(word: UInt64(frames.count))
        for frame in frames { digest.update(bytes: frame.bytes) }
        return ChunkKey(bytes: digest.finish())
    }

    static let magic = Array("kiln chunk 1\n".utf8)
    static let headerSize = magic.count + 8 + 32 + 32

    private func url(of key: ChunkKey) -> URL {
        let hex = key.description
        return folder.appendingPathComponent(String(hex.prefix(2))).appendingPathComponent(hex)
    }

    /// The payload stored under `key`, or nil. An entry that fails its checks is removed and
    /// named in `discarded`.
    public func payload(for key: ChunkKey, discarded: ((String) -> Void)? = nil) -> [UInt8]? {
        let entry = url(of: key)
        guard let bytes = try? [UInt8](Data(contentsOf: entry)) else { return nil }
        guard let payload = Self.checkedPayload(bytes, key: key) else {
            try? FileManager.default.removeItem(at: entry)
            discarded?("discarded a damaged cache entry \(entry.lastPathComponent)")
            return nil
        }
        // Its modification time is its last use, for least-recently-used pruning.
        _ = entry.withUnsafeFileSystemRepresentation { path in path.map { utimensat(AT_FDCWD, $0, nil, 0) } }
        return payload
    }

    static func checkedPayload(_ bytes: [UInt8], key: ChunkKey) -> [UInt8]? {
        guard bytes.count >= headerSize, Array(bytes[0..<magic.count]) == magic else { return nil }
        var offset = magic.count
        let length = bytes[offset..<(offset + 8)].enumerated().reduce(UInt64(0)) {
            $0 | UInt64($1.element) << (8 * UInt64($1.offset))
        }
        offset += 8
        let checksum = Array(bytes[offset..<(offset + 32)])
        offset += 32
        guard Array(bytes[offset..<(offset + 32)]) == key.bytes else { return nil }
        offset += 32
        guard UInt64(bytes.count - offset) == length else { return nil }
        let payload = Array(bytes[offset...])
        guard sha256(payload) == checksum else { return nil }
        return payload
    }

    static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        let digest = SHA256Digest()
        bytes.withUnsafeBytes { digest.update($0) }
        return digest.finish()
    }

    /// Stores `payload` under `key`; the reason when it could not (the caller carries on
    /// without the cache).
    @discardableResult
    public func store(_ payload: [UInt8], for key: ChunkKey) -> String? {
        let entry = url(of: key)
        var bytes = Self.magic
        withUnsafeBytes(of: UInt64(payload.count).littleEndian) { bytes.append(contentsOf: $0) }
        bytes += Self.sha256(payload) + key.bytes + payload
        let temporary = entry.deletingLastPathComponent().appendingPathComponent(
            ".\(entry.lastPathComponent).\(getpid()).\(UUID().uuidString).tmp")
        do {
            try FileManager.default.createDirectory(
                at: entry.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Self.writeSynced(bytes, to: temporary)
            guard rename(temporary.path, entry.path) == 0 else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: entry.path])
            }
            return nil
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            return "could not store a chunk in the cache \(folder.path): \(error.localizedDescription)"
        }
    }

    private static func writeSynced(_ bytes: [UInt8], to url: URL) throws {
        let fd = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(fd) }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, $0.count - written) }
            if count < 0 {
                if errno == EINTR { continue }
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
            written += count
        }
        guard fsync(fd) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }

    public struct Stats: Equatable, Sendable {
        public var entries = 0
        public var bytes = 0
    }

    private func entries() -> [(url: URL, bytes: Int, used: Date)] {
        let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey, .isRegularFileKey]
        guard
            let walker = FileManager.default.enumerator(
                at: folder, includingPropertiesForKeys: keys, options: [.skipsHiddenFiles])
        else { return [] }
        var found: [(URL, Int, Date)] = []
        for case let url as URL in walker {
            guard let values = try? url.resourceValues(forKeys: Set(keys)), values.isRegularFile == true
            else { continue }
            found.append((url, values.fileSize ?? 0, values.contentModificationDate ?? .distantPast))
        }
        return found
    }

    public func stats() -> Stats {
        entries().reduce(into: Stats()) {
            $0.entries += 1
            $0.bytes += $1.bytes
        }
    }

    /// Removes the least recently used entries until the cache holds at most `maxBytes`;
    /// returns how many were removed.
    @discardableResult
    public func prune(toAtMost maxBytes: Int) -> Int {
        var all = entries().sorted { $0.used < $1.used }
        var total = all.reduce(0) { $0 + $1.bytes }
        var removed = 0
        while total > maxBytes, !all.isEmpty {
            let oldest = all.removeFirst()
            if (try? FileManager.default.removeItem(at: oldest.url)) != nil { removed += 1 }
            total -= oldest.bytes
        }
        return removed
    }

    /// Removes every entry; returns how many.
    @discardableResult
    public func clear() -> Int {
        prune(toAtMost: 0)
    }
}

/// The SHA-256 naming one cache entry.
public struct ChunkKey: Hashable, Sendable, CustomStringConvertible {
    public let bytes: [UInt8]

    public var description: String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}
