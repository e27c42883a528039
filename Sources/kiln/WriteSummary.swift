import Foundation

/// What `render` says when it has written a video: the video's own length first, so the
/// render's time is not read as the video's (`(10.0 s, 300 frames) in 12.9 s, 0.78× real time`).
struct WriteSummary {
    let videoSeconds: Double
    let frames: Int
    /// Segments and reuse, already formatted (", 3 segments: 1 reused, 2 rendered").
    let detail: String
    let elapsedSeconds: Double

    var text: String {
        let plural = frames == 1 ? "frame" : "frames"
        var line = String(format: "(%.1f s, %d \(plural)", videoSeconds, frames) + detail + ")"
        line += String(format: " in %.1f s", elapsedSeconds)
        if elapsedSeconds > 0, videoSeconds > 0 {
            line += String(format: ", %.2f× real time", videoSeconds / elapsedSeconds)
        }
        return line
    }
}
