import Foundation
import KilnExport

#if canImport(Glibc)
    import Glibc
#endif

/// Draws a one-line bar with frames, fps and ETA on stderr, or prints one JSON object per step.
final class ProgressReporter: @unchecked Sendable {
    let mode: ProgressMode
    private var lastDraw = 0.0
    private var drewBar = false

    init(mode: ProgressMode) { self.mode = mode }

    func update(_ p: ExportProgress) {
        switch mode {
        case .none: return
        case .json:
            var object = "{\"frame\":\(p.frame),\"total\":\(p.totalFrames),"
            object += String(format: "\"elapsed\":%.3f,\"fps\":%.2f", p.elapsedSeconds, p.framesPerSecond)
            if let eta = p.etaSeconds { object += String(format: ",\"eta\":%.1f", eta) }
            // Unbuffered, so a reading program sees each step as it happens.
            FileHandle.standardOutput.write(Data((object + "}\n").utf8))
        case .bar:
            // Redraw at most ten times a second, and always for the last frame.
            guard p.elapsedSeconds - lastDraw >= 0.1 || p.frame == p.totalFrames else { return }
            lastDraw = p.elapsedSeconds
            let fraction = p.totalFrames > 0 ? Double(p.frame) / Double(p.totalFrames) : 1
            let cells = 30
            let filled = Int((fraction * Double(cells)).rounded(.down))
            let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: cells - filled)
            let eta = p.etaSeconds.map { Self.clock($0) } ?? "--:--"
            let line = String(
                format: "\r%3d%% %@ %d/%d frames  %.1f fps  ETA %@ ", Int(fraction * 100), bar, p.frame,
                p.totalFrames, p.framesPerSecond, eta)
            FileHandle.standardError.write(Data(line.utf8))
            drewBar = true
        }
    }

    func finish() {
        if drewBar { FileHandle.standardError.write(Data("\n".utf8)) }
        drewBar = false
    }

    static func clock(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return s >= 3600
            ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
            : String(format: "%d:%02d", s / 60, s % 60)
    }
}
