import Foundation
import Synchronization

/// Messages written to a descriptor, one line each, from any thread; a closed peer is ignored
/// (the worker ignores SIGPIPE), since its end is seen through its exit status.
final class LineWriter: Sendable {
    private let fd = Mutex<Int32>(-1)

    init(fd: Int32) { self.fd.withLock { $0 = fd } }

    func send(_ message: String) {
        let bytes = Array((message.replacingOccurrences(of: "\n", with: " ") + "\n").utf8)
        fd.withLock { fd in
            guard fd >= 0 else { return }
            var offset = 0
            while offset < bytes.count {
                let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return }
                offset += n
            }
        }
    }

    func close() {
        fd.withLock { fd in
            if fd >= 0 { Glibc.close(fd) }
            fd = -1
        }
    }
}
