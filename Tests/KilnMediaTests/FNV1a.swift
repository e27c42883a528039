import Foundation
import XCTest

/// FNV-1a, enough to compare decoded planes between runs.
struct FNV1a {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func add(_ bytes: UnsafeBufferPointer<UInt8>, rowLength: Int, rows: Int, stride: Int) {
        for row in 0..<rows {
            for byte in bytes[(row * stride)..<(row * stride + rowLength)] {
                value = (value ^ UInt64(byte)) &* 0x100_0000_01b3
            }
        }
    }
}
