import Foundation
import KilnModel
import KilnScene

/// How far a piece of an export is: frames rendered, and frames written to the file. The two
/// differ because libx264 holds frames back to look ahead (some 10 at veryfast, 40 and more at
/// slower presets) and hands the last ones over only at the flush: counting rendered frames
/// alone, the estimate reached zero with the flush still to come; counting written frames
/// alone, a short piece sat at 0 % until its flush.
public struct FramesDone: Sendable, Equatable {
    public var rendered = 0
    public var written = 0
    /// Of the rendered frames, those that took the pictures of the still frame before them.
    public var stillsReused = 0

    public init(rendered: Int = 0, written: Int = 0) { (self.rendered, self.written) = (rendered, written) }

    /// Rendering and writing each count for half of a frame's work.
    public func fraction(of total: Int) -> Double {
        total > 0 ? min(1, Double(rendered + written) / Double(2 * total)) : 1
    }
}

/// What an export is doing: rendering frames (the encoder keeps pace behind), flushing the
/// encoder's last frames into the file, finishing a split render's soundtrack, joining its
/// segments, or done.
public enum ExportStage: String, Sendable {
    case render, encode, audio, assemble, done
}

/// Progress of one export: reported as frames are rendered and as they reach the file, and
/// once more when the file is complete.
public struct ExportProgress: Sendable {
    /// Frames rendered.
    public let frame: Int
    /// Frames written to the file.
    public let written: Int
    public let totalFrames: Int
    public let elapsedSeconds: Double
    /// Frames already done when the clock started (segments kept from an interrupted run): they
    /// took no time now, so the rate and the estimate count only the work since.
    public let framesBefore: Int
    public let stage: ExportStage
    /// The video's frame rate, for the real-time factor; 0 when unknown.
    public let videoFrameRate: Double

    public init(
        frame: Int, written: Int? = nil, totalFrames: Int, elapsedSeconds: Double, framesBefore: Int = 0,
        stage: ExportStage? = nil, videoFrameRate: Double = 0
    ) {
        (self.frame, self.totalFrames, self.elapsedSeconds) = (frame, totalFrames, elapsedSeconds)
        self.written = written ?? frame
        self.framesBefore = min(framesBefore, frame, self.written)
        self.stage = stage ?? (frame < totalFrames ? .render : self.written < totalFrames ? .encode : .done)
        self.videoFrameRate = videoFrameRate
    }

    public init(
        _ done: FramesDone, totalFrames: Int, elapsedSeconds: Double, framesBefore: Int = 0,
        stage: ExportStage? = nil, videoFrameRate: Double = 0
    ) {
        self.init(
            frame: done.rendered, written: done.written, totalFrames: totalFrames,
            elapsedSeconds: elapsedSeconds, framesBefore: framesBefore, stage: stage,
            videoFrameRate: videoFrameRate)
    }

    /// Seconds of video made per second of wall time (2.0: twice as fast as playback); nil before
    /// any frame or without the frame rate.
    public var realTimeFactor: Double? {
        guard videoFrameRate > 0, framesPerSecond > 0 else { return nil }
        return framesPerSecond / videoFrameRate
    }

    /// 0…1: rendering and writing each count for half.
    public var fraction: Double { FramesDone(rendered: frame, written: written).fraction(of: totalFrames) }

    /// Frames rendered per second since the clock started.
    public var framesPerSecond: Double {
        elapsedSeconds > 0 ? Double(frame - framesBefore) / elapsedSeconds : 0
    }

    /// Seconds to go at the pace so far, the encoder's flush included; nil before any work.
    public var etaSeconds: Double? {
        let before = FramesDone(rendered: framesBefore, written: framesBefore).fraction(of: totalFrames)
        let since = fraction - before
        return since > 0 ? elapsedSeconds / since * (1 - fraction) : nil
    }
}
