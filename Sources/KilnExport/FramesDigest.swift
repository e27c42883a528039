import KilnMedia

/// The digest of a render's frames that its file carries (`kiln_frames_digest`): the sum, lane by
/// lane, of a digest of each frame's number and pixels (`FrameHashLog.digest`). A sum, not a
/// chain, so the pieces of a split render add up to the single render's value whichever process
/// rendered which frames: equal digests mean equal frames, whatever the thread count, segmenting
/// or encoder.
public struct FramesDigest: Sendable, Equatable {
    private var a: UInt64 = 0
    private var b: UInt64 = 0

    public init() {}

    /// Parses the 32 hex digits of `hex`; nil for anything else.
    public init?(hex: String) {
        guard hex.utf8.count == 32, let a = UInt64(hex.prefix(16), radix: 16),
            let b = UInt64(hex.suffix(16), radix: 16)
        else { return nil }
        self.a = a
        self.b = b
    }

    public mutating func add(frame number: Int, digest: String) {
        var term = ContentDigest()
        term.update(number)
        term.update(digest)
        guard let parsed = FramesDigest(hex: term.hex) else { return }
        add(parsed)
    }

    public mutating func add(_ other: FramesDigest) {
        a &+= other.a
        b &+= other.b
    }

    /// 32 lowercase hex digits.
    public var hex: String {
        func digits(_ v: UInt64) -> String {
            let s = String(v, radix: 16)
            return String(repeating: "0", count: 16 - s.count) + s
        }
        return digits(a) + digits(b)
    }

    /// The tags of a video rendered from `job` (its file's name, not its path: a file handed on
    /// should not tell where its job lived).
    public static func tags(jobFile: String, frames: Int) -> ContainerTags {
        let name = jobFile.split(separator: "/").last.map(String.init) ?? jobFile
        return ContainerTags(
            known: [
                .init(ContainerTags.job, name), .init(ContainerTags.version, KilnVersion.string),
                .init(ContainerTags.frames, String(frames)),
            ],
            late: [.init(ContainerTags.framesDigest, width: 32)])
    }
}
