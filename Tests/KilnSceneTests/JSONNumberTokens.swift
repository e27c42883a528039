import Foundation
import KilnModel
import XCTest

/// Finds the number tokens of a JSON text (outside strings) so they can be replaced in place.
enum JSONNumberTokens {
    static func ranges(in bytes: [UInt8]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                }
                index += 1
            } else if byte == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                let start = index
                while index < bytes.count, isNumberByte(bytes[index]) { index += 1 }
                ranges.append(start..<index)
            } else {
                index += 1
            }
        }
        return ranges
    }

    /// `bytes` with each range replaced by its text (a range chosen twice takes its last text).
    static func replacing(_ replacements: [(Range<Int>, String)], in bytes: [UInt8]) -> [UInt8] {
        var byStart: [Int: (Range<Int>, String)] = [:]
        for replacement in replacements { byStart[replacement.0.lowerBound] = replacement }
        var result = bytes
        for (range, text) in byStart.values.sorted(by: { $0.0.lowerBound > $1.0.lowerBound }) {
            result.replaceSubrange(range, with: Array(text.utf8))
        }
        return result
    }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."),
            UInt8(ascii: "e"), UInt8(ascii: "E"):
            true
        default: false
        }
    }
}
