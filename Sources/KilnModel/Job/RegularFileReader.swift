import Foundation

/// Reads a whole regular file without ever blocking on a FIFO or device: opened non-blocking,
/// checked with `fstat` on the descriptor itself (so the file cannot be swapped between the
/// check and the read), then read.
public enum RegularFileReader {
    public enum Failure: Error, Equatable {
        case missing
        case notRegular(String)
        case tooLarge(Int)
        case unreadable(String)
    }

    public static func read(path: String, limit: Int) -> Result<[UInt8], Failure> {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            return .failure(errno == ENOENT ? .missing : .unreadable(String(cString: strerror(errno))))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .failure(.unreadable(String(cString: strerror(errno)))) }
        if let kind = FileKind.nonRegular(mode: info.st_mode) { return .failure(.notRegular(kind)) }
        guard Int(info.st_size) <= limit else { return .failure(.tooLarge(Int(info.st_size))) }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var filled = 0
        while true {
            if filled == bytes.count {
                // The file grew after fstat: read on, still within the limit.
                guard bytes.count < limit else { break }
                bytes += [UInt8](repeating: 0, count: min(max(4096, bytes.count), limit - bytes.count))
            }
            let n = bytes.withUnsafeMutableBytes {
                Glibc.read(fd, $0.baseAddress! + filled, $0.count - filled)
            }
            if n < 0 {
                if errno == EINTR { continue }
                return .failure(.unreadable(String(cString: strerror(errno))))
            }
            if n == 0 { break }
            filled += n
        }
        return .success(Array(bytes[..<filled]))
    }
}
