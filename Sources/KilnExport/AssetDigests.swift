import Foundation
import Synchronization

/// The SHA-256 of each file a job reads, computed once per file: a later request for a file
/// whose size, modification time and inode are unchanged is answered from memory. A file that
/// cannot be read gets a digest of its own each time, which matches nothing.
public final class AssetDigests: Sendable {
    private struct Stamp: Equatable {
        let size: Int64
        let modified: timespec
        let inode: UInt64

        static func == (a: Stamp, b: Stamp) -> Bool {
            a.size == b.size && a.inode == b.inode && a.modified.tv_sec == b.modified.tv_sec
                && a.modified.tv_nsec == b.modified.tv_nsec
        }
    }

    private let known = Mutex<[String: (stamp: Stamp, digest: [UInt8])]>([:])
    /// How many files were read in full (not answered from memory), for tests.
    private let reads = Atomic<Int>(0)

    public init() {}

    public var filesRead: Int { reads.load(ordering: .relaxed) }

    public func digest(of url: URL) -> [UInt8] {
        let path = url.path
        guard let stamp = Self.stamp(of: path) else { return Self.unreadable(path) }
        if let entry = known.withLock({ $0[path] }), entry.stamp == stamp { return entry.digest }
        guard let digest = Self.contentDigest(of: path) else { return Self.unreadable(path) }
        reads.add(1, ordering: .relaxed)
        // Stamped before reading: a file rewritten while it was read gets a new stamp and is
        // read again next time.
        known.withLock { $0[path] = (stamp, digest) }
        return digest
    }

    private static func stamp(of path: String) -> Stamp? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Stamp(size: Int64(info.st_size), modified: info.st_mtim, inode: UInt64(info.st_ino))
    }

    private static func contentDigest(of path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var digest = SHA256Digest()
        digest.update(string: "kiln file")
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if count == 0 { break }
            buffer.withUnsafeBytes { digest.update(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
        }
        return digest.finish()
    }

    /// Never equal to another answer: frames that read a file that cannot be read now are
    /// never taken for one another, nor for any frame of another run.
    private static func unreadable(_ path: String) -> [UInt8] {
        Array("kiln unreadable file \(UUID().uuidString)".utf8)
    }
}
