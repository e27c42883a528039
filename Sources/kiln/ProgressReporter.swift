import Foundation
import KilnExport
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Draws a one-line bar with frames, fps and ETA on stderr, or prints one JSON object per step
/// on stdout (`"event": "progress"`, then one `"event": "done"`). Safe to call from any thread:
/// `kiln run` reports from the worker's threads.
final class ProgressReporter: Sendable {
    let mode: ProgressMode
    private struct State {
        var lastDraw = -Double.infinity
        /// The bar as last drawn, redrawn under a log line.
        var bar: String?
    }
    private let state = Mutex(State())

    init(mode: ProgressMode) { self.mode = mode }

    func update(_ p: ExportProgress) {
        let fraction = p.fraction
        switch mode {
        case .none: return
        case .json:
            var object: [String: Any] = [
                "event": "progress", "stage": p.stage.rawValue, "frame": p.frame, "written": p.written,
                "total": p.totalFrames, "fraction": rounded(fraction, 4),
                "elapsed": rounded(p.elapsedSeconds, 3),
                "fps": rounded(p.framesPerSecond, 2),
            ]
            if let speed = p.realTimeFactor { object["speed"] = rounded(speed, 3) }
            if let eta = p.etaSeconds { object["eta"] = rounded(eta, 1) }
            emit(jsonLine(object))
        case .bar:
            // The percentage and the count are the same number (frames in the file), so they
            // never disagree; frames rendered ahead of the encoder are shown beside them. The
            // ETA still weighs both (`fraction`).
            var detail = String(format: "%@ %d/%d frames", p.stage.rawValue, p.written, p.totalFrames)
            if p.frame > p.written { detail += String(format: " (%d rendered)", p.frame) }
            detail += String(format: "  %.1f fps", p.framesPerSecond)
            if let speed = p.realTimeFactor { detail += String(format: "  %.2fx real time", speed) }
            draw(
                fraction: p.totalFrames > 0 ? Double(p.written) / Double(p.totalFrames) : 1,
                elapsed: p.elapsedSeconds, last: p.stage == .done, detail: detail, eta: p.etaSeconds)
        }
    }

    /// Progress known only as a fraction (a queued job rendered by a worker), `label` naming it.
    func update(fraction: Double, elapsed: Double, label: String) {
        let eta = fraction > 0 ? elapsed / fraction * (1 - fraction) : nil
        switch mode {
        case .none: return
        case .json:
            var object: [String: Any] = [
                "event": "progress", "fraction": rounded(fraction, 4), "label": label,
                "elapsed": rounded(elapsed, 3),
            ]
            if let eta { object["eta"] = rounded(eta, 1) }
            emit(jsonLine(object))
        case .bar:
            draw(fraction: fraction, elapsed: elapsed, last: fraction >= 1, detail: label, eta: eta)
        }
    }

    /// The closing event: where the file is, how large, how long it took (frames when known).
    func done(output: URL, frames: Int?, seconds: Double, segments: Int? = nil) {
        guard mode == .json else { return }
        let size = try? FileManager.default.attributesOfItem(atPath: output.path)[.size] as? Int
        var object: [String: Any] = [
            "event": "done", "output": output.path, "bytes": size.map { $0 as Any } ?? NSNull(),
            "elapsed": rounded(seconds, 3),
        ]
        if let frames {
            object["frames"] = frames
            object["fps"] = rounded(seconds > 0 ? Double(frames) / seconds : 0, 2)
        }
        if let segments { object["segments"] = segments }
        emit(jsonLine(object))
    }

    /// A line of text on stderr; with a bar on screen, above it (the bar is drawn again).
    func log(_ text: String) {
        let line = Output.message(text)
        state.withLock { s in
            if let bar = s.bar {
                FileHandle.standardError.write(Data(("\r\u{1B}[2K" + line + "\n" + bar).utf8))
            } else {
                FileHandle.standardError.write(Data((line + "\n").utf8))
            }
        }
    }

    func finish() {
        state.withLock { s in
            if s.bar != nil { FileHandle.standardError.write(Data("\n".utf8)) }
            s.bar = nil
        }
    }

    private func draw(fraction: Double, elapsed: Double, last: Bool, detail: String, eta: Double?) {
        state.withLock { s in
            // Redraw at most ten times a second, and always for the end.
            guard elapsed - s.lastDraw >= 0.1 || last else { return }
            s.lastDraw = elapsed
            let clamped = min(1, max(0, fraction))
            let cells = 30
            let filled = Int((clamped * Double(cells)).rounded(.down))
            let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: cells - filled)
            let line = String(
                format: "\r%3d%% %@ %@  ETA %@ ", Int(clamped * 100), bar, detail,
                eta.map { Self.clock($0) } ?? "--:--")
            FileHandle.standardError.write(Data(line.utf8))
            s.bar = line
        }
    }

    /// Unbuffered, so a reading program sees each step as it happens.
    private func emit(_ object: String) {
        state.withLock { _ in FileHandle.standardOutput.write(Data((object + "\n").utf8)) }
    }

    private func rounded(_ value: Double, _ digits: Int) -> Double {
        let scale = pow(10, Double(digits))
        return (value * scale).rounded() / scale
    }

    static func clock(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return s >= 3600
            ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
            : String(format: "%d:%02d", s / 60, s % 60)
    }
}
