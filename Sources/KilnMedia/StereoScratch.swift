/// Two growable Float planes reused between calls, so steady-state decoding allocates nothing.
final class StereoScratch {
    private(set) var planes: [UnsafeMutablePointer<Float>] = []
    private(set) var capacity = 0

    func reserve(_ count: Int) {
        guard count > capacity else { return }
        release()
        capacity = max(count, 4096)
        planes = (0..<AudioFormat.channels).map { _ in
            UnsafeMutablePointer<Float>.allocate(capacity: capacity)
        }
    }

    func release() {
        planes.forEach { $0.deallocate() }
        planes = []
        capacity = 0
    }

    deinit { release() }
}
