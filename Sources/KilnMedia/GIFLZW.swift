/// GIF's variable-width LZW (GIF89a appendix F): codes of `minimumCodeSize + 1` up to 12 bits,
/// packed least significant bit first, a clear code when the 4096-entry table is full.
///
/// The table is a direct array indexed by (prefix code, next index): 2^20 slots, each valid
/// only for the `epoch` it was written in, so a clear costs nothing instead of wiping 4 MB.
final class GIFLZW {
    private static let maximumCodes = 4096
    private var codes = [UInt16](repeating: 0, count: 1 << 20)
    private var epochs = [UInt32](repeating: 0, count: 1 << 20)
    private var epoch: UInt32 = 0

    /// The LZW data of `indices` (each below 2^`minimumCodeSize`), as the minimum code size byte,
    /// 255-byte sub-blocks and the terminating empty block, appended to `output`.
    func encode(_ indices: UnsafeBufferPointer<UInt8>, minimumCodeSize: Int, into output: inout [UInt8]) {
        precondition((2...8).contains(minimumCodeSize))
        output.append(UInt8(minimumCodeSize))
        var packed: [UInt8] = []
        packed.reserveCapacity(indices.count / 2 + 16)
        var bits: UInt64 = 0, bitCount = 0
        func put(_ code: Int, _ size: Int) {
            bits |= UInt64(code) << UInt64(bitCount)
            bitCount += size
            while bitCount >= 8 {
                packed.append(UInt8(truncatingIfNeeded: bits))
                bits >>= 8
                bitCount -= 8
            }
        }
        let clear = 1 << minimumCodeSize, end = clear + 1
        var size = minimumCodeSize + 1, next = end + 1
        epoch &+= 1
        if epoch == 0 {
            // Every 2^32 clears the stamps wrap: start from a clean table.
            epochs.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
            epoch = 1
        }
        put(clear, size)
        guard var prefix = indices.first.map(Int.init) else {
            put(end, size)
            flush(&packed, bits: bits, bitCount: bitCount, into: &output)
            return
        }
        var epoch = self.epoch
        codes.withUnsafeMutableBufferPointer { codes in
            epochs.withUnsafeMutableBufferPointer { epochs in
                for index in indices.dropFirst() {
                    let key = prefix << 8 | Int(index)
                    if epochs[key] == epoch {
                        prefix = Int(codes[key])
                        continue
                    }
                    put(prefix, size)
                    if next < Self.maximumCodes {
                        // The decoder widens its codes once its table reaches 2^size entries,
                        // one code later than the encoder adds that entry.
                        if next == 1 << size { size += 1 }
                        codes[key] = UInt16(next)
                        epochs[key] = epoch
                        next += 1
                    } else {
                        put(clear, size)
                        epoch &+= 1
                        if epoch == 0 {
                            epochs.update(repeating: 0)
                            epoch = 1
                        }
                        size = minimumCodeSize + 1
                        next = end + 1
                    }
                    prefix = Int(index)
                }
            }
        }
        self.epoch = epoch
        put(prefix, size)
        put(end, size)
        flush(&packed, bits: bits, bitCount: bitCount, into: &output)
    }

    private func flush(_ packed: inout [UInt8], bits: UInt64, bitCount: Int, into output: inout [UInt8]) {
        if bitCount > 0 { packed.append(UInt8(truncatingIfNeeded: bits)) }
        var start = 0
        while start < packed.count {
            let count = min(255, packed.count - start)
            output.append(UInt8(count))
            output.append(contentsOf: packed[start..<(start + count)])
            start += count
        }
        output.append(0)
    }
}
