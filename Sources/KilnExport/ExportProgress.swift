import Foundation
import KilnModel
import KilnScene

/// Progress of one export: reported after each rendered frame (the encoder trails by at most the
/// frame pool) and, for the last frame, once the file is complete.
public struct ExportProgress: Sendable {
    public let frame: Int
    public let totalFrames: Int
    public let elapsedSeconds: Double
    public var framesPerSecond: Double { elapsedSeconds > 0 ? Double(frame) / elapsedSeconds : 0 }
    public var etaSeconds: Double? {
        frame > 0 ? elapsedSeconds / Double(frame) * Double(totalFrames - frame) : nil
    }
}
