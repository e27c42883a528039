/// A 128-bit digest for cache keys and frame comparison (not for security: nothing here defends
/// against a crafted collision). Two FNV-1a style lanes with different bases, fed 64-bit words so
/// a 1080p frame (3 MB of YUV) costs about a millisecond. Stable across runs, hosts and builds,
/// unlike Swift's seeded `Hasher`.
public struct ContentDigest: Sendable {
    private var a: UInt64 = 0xcbf2_9ce4_8422_2325
    private var b: UInt64 = 0x6c62_272e_07bb_0142
    private static let prime: UInt64 = 0x0000_0100_0000_01b3

    public init() {}

    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        var i = 0
        let count = bytes.count
        while i + 8 <= count {
            let word = bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            a = (a ^ word) &* Self.prime
            b = (b ^ (word &+ 0x9e37_79b9_7f4a_7c15)) &* Self.prime
            b = b ^ (b >> 29)
            i += 8
        }
        while i < count {
            let byte = UInt64(bytes[i])
            a = (a ^ byte) &* Self.prime
            b = (b ^ (byte &+ 0x9e37_79b9_7f4a_7c15)) &* Self.prime
            i += 1
        }
        // The length separates "ab" + "c" from "a" + "bc" when fields are fed one after another.
        a = (a ^ UInt64(count)) &* Self.prime
        b = (b ^ UInt64(count)) &* Self.prime
    }

    public mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    public mutating func update(_ text: String) {
        update(Array(text.utf8))
    }

    public mutating func update(_ value: Int) {
        withUnsafeBytes(of: Int64(value).littleEndian) { update($0) }
    }

    /// 32 lowercase hex digits.
    public var hex: String {
        func digits(_ v: UInt64) -> String {
            let s = String(v, radix: 16)
            return String(repeating: "0", count: 16 - s.count) + s
        }
        return digits(a) + digits(b)
    }

}
