import Foundation
import KilnModel
import KilnScene

public struct ExportSummary: Sendable {
    public let output: URL
    public let frames: Int
    public let elapsedSeconds: Double
}
