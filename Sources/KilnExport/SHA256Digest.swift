import CCrypto
import KilnScene

/// OpenSSL's SHA-256 (libcrypto's EVP interface): a digest that is the same on every host, run
/// and build, unlike Swift's seeded `Hasher`, and collision-resistant, so a cache keyed by it
/// cannot hand back another frame's pictures by accident.
final class SHA256Digest: FrameDigestSink {
    private let context: OpaquePointer

    init() {
        guard let context = EVP_MD_CTX_new(), EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else {
            fatalError("libcrypto could not start a SHA-256 digest (out of memory)")
        }
        self.context = context
    }

    /// A digest that has already read what `other` has read.
    init(copying other: SHA256Digest) {
        guard let context = EVP_MD_CTX_new(), EVP_MD_CTX_copy_ex(context, other.context) == 1 else {
            fatalError("libcrypto could not copy a SHA-256 digest (out of memory)")
        }
        self.context = context
    }

    deinit { EVP_MD_CTX_free(context) }

    func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        EVP_DigestUpdate(context, base, bytes.count)
    }

    /// The 32 bytes; the digest must read nothing after this.
    func finish() -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        EVP_DigestFinal_ex(context, &out, &length)
        return Array(out.prefix(Int(length)))
    }
}
