import Foundation
import KilnMedia
import KilnRaster

/// Owns the writer on its own thread; frames travel through two queues (free → filled → free).
final class EncoderThread: @unchecked Sendable {
    private let writer: any FrameSink
    private let condition = NSCondition()
    private var free: [RenderedFrame]
    private var filled: [RenderedFrame] = []
    private var closed = false
    private var error: MediaError?
    private var thread: Thread?
    private let done = DispatchSemaphore(value: 0)

    init(writer: any FrameSink, frames: [RenderedFrame]) {
        self.writer = writer
        self.free = frames
    }

    func start() {
        let thread = Thread { [self] in
            loop()
            done.signal()
        }
        thread.name = "kiln-encoder"
        thread.start()
        self.thread = thread
    }

    /// Blocks until a frame is free; nil once the encoder has failed.
    func takeFreeFrame() -> RenderedFrame? {
        condition.lock()
        defer { condition.unlock() }
        while free.isEmpty && error == nil { condition.wait() }
        return error == nil ? free.removeLast() : nil
    }

    func submit(_ frame: RenderedFrame) {
        condition.lock()
        filled.append(frame)
        condition.broadcast()
        condition.unlock()
    }

    /// Waits for every submitted frame to be encoded; returns the first error, if any.
    func finish() -> MediaError? {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
        done.wait()
        return error
    }

    private func loop() {
        while true {
            condition.lock()
            while filled.isEmpty && !closed { condition.wait() }
            if filled.isEmpty {
                condition.unlock()
                return
            }
            let frame = filled.removeFirst()
            condition.unlock()
            var failure: MediaError?
            do {
                try writer.append(frame)
            } catch {
                failure = error
            }
            condition.lock()
            free.append(frame)
            if let failure {
                error = failure
                filled.removeAll()
                closed = true
            }
            condition.broadcast()
            condition.unlock()
            if failure != nil { return }
        }
    }
}
