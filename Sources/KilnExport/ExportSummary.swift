import Foundation
import KilnModel
import KilnScene

public struct ExportSummary: Sendable {
    public let output: URL
    public let frames: Int
    public let elapsedSeconds: Double
    /// Frames that reused the still frame before them instead of being drawn.
    public var stillFramesReused = 0
}
