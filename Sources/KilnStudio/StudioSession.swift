import Foundation
import KilnExport
import KilnMedia
import KilnModel
import KilnRaster

/// The job the studio shows: the file's last readable bytes, reloaded when the file changes,
/// and frames rendered from them with the page's variable values and pinned numbers.
public final class StudioSession: @unchecked Sendable {
    // @unchecked: every stored var is read and written under `lock`.

    /// What a frame request asks for (already bounded by the routes).
    public struct FrameRequest: Hashable, Sendable {
        public var seconds: Double
        public var scale: Double
        public var variables: [String: String]
        /// JSON path text → the number written there (`layers[1].effects[0].ripple.amplitude`).
        public var pins: [String: Double]
        public var format: ImageFormat
    }

    public struct Problem: Error, CustomStringConvertible {
        public let description: String
        /// True when the request was turned away unrendered because enough are already waiting.
        public var busy = false
        /// True when a save or undo was refused because the file is not the one the page saw.
        public var conflict = false
    }

    /// What re-reading the job file found.
    public enum Reload: Equatable, Sendable {
        case unchanged
        case loaded
        /// The file changed but does not load (or cannot be read): one line per error.
        case failed([String])
    }

    public let file: String
    let options: JobLoadOptions
    let threads: Int
    private let lock = NSLock()
    /// Loading a job decodes its pictures and a render uses every core, so both happen one at a
    /// time, for the page's requests and the file watcher alike.
    let renders: RenderQueue
    private var readBytes: [UInt8]?
    /// The newest bytes that loaded; frames render from these while the file is invalid.
    private var goodBytes: [UInt8]?
    /// Only the output settings of the last good job: the summary needs no more, and keeping the
    /// job would keep its decoded pictures.
    private var goodOutput: OutputSettings?
    private var problem: String?
    private var version = 0
    private var cached: (key: String, job: Job)?
    /// Saves and undos one at a time, each checking the file before it writes.
    let saves = NSLock()
    /// The file's text before and after each save of this session, newest last, for Undo.
    private var undoable: [(before: [UInt8], after: [UInt8])] = []

    /// Where the session tells the terminal what it wrote (saves and undos).
    let log: @Sendable (String) -> Void

    public init(
        file: String, options: JobLoadOptions, threads: Int? = nil,
        waitingRenders: Int = RenderQueue.defaultWaiting, log: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.file = file
        self.log = log
        self.options = options
        self.threads = max(1, threads ?? ProcessInfo.processInfo.activeProcessorCount)
        renders = RenderQueue(waiting: waitingRenders)
    }

    /// Reads the file and, when its bytes changed, loads it and bumps the version (also when
    /// the new bytes are invalid: the page then shows the problem and keeps its last frame).
    /// True when something changed.
    @discardableResult
    public func reloadIfChanged() -> Reload {
        let bytes: [UInt8]
        do {
            bytes = try JobLoader.readBytes(file: file, limits: options.limits)
        } catch {
            return record(bytes: nil, problem: error.description) ? .failed(Self.lines(error)) : .unchanged
        }
        if lock.withLock({ bytes == readBytes }) { return .unchanged }
        let loaded = renders.always { () -> Result<OutputSettings, JobLoadError> in
            do throws(JobLoadError) {
                return .success(try decode(bytes).output)
            } catch {
                return .failure(error)
            }
        }
        switch loaded {
        case .success(let output):
            return record(bytes: bytes, output: output, problem: nil) ? .loaded : .unchanged
        case .failure(let error):
            return record(bytes: bytes, output: nil, problem: error.description)
                ? .failed(Self.lines(error)) : .unchanged
        }
    }

    /// The error as the other commands print it: a line per diagnostic.
    static func lines(_ error: JobLoadError) -> [String] {
        if case .invalid(let diagnostics) = error { return diagnostics.map(\.description) }
        return [error.description]
    }

    private func record(bytes: [UInt8]?, output: OutputSettings? = nil, problem: String?) -> Bool {
        lock.withLock {
            if bytes == nil, self.problem == problem, readBytes == nil, version > 0 { return false }
            readBytes = bytes
            if let output, let bytes {
                goodBytes = bytes
                goodOutput = output
                cached = nil
            }
            self.problem = problem
            version += 1
            return true
        }
    }

    /// The bytes the page's values apply to (the last good load) and the version the page sees;
    /// nil bytes while the file on disk does not load, as a save must start from what is there.
    func shown() -> (bytes: [UInt8]?, version: Int) {
        lock.withLock { (readBytes == goodBytes ? goodBytes : nil, version) }
    }

    func lockedUndo<T>(_ body: (inout [(before: [UInt8], after: [UInt8])]) -> T) -> T {
        lock.withLock { body(&undoable) }
    }

    /// Decodes `bytes` as the job file would load with the studio's options: how a save checks
    /// that what it writes loads, reads only under the asset roots and keeps its variables valid.
    func check(_ bytes: [UInt8]) throws(JobLoadError) {
        _ = try decode(bytes)
    }

    /// The current job for the page: its timing and size, its variables, the version and any problem.
    public func summary() -> [String: Any] {
        lock.withLock {
            var object: [String: Any] = [
                "file": URL(fileURLWithPath: file).lastPathComponent, "version": version,
            ]
            if let problem { object["problem"] = problem }
            if let o = goodOutput, let bytes = goodBytes {
                object["width"] = o.width
                object["height"] = o.height
                object["frames"] = o.frameCount
                object["duration"] = o.durationSeconds
                object["fps"] = Double(o.frameRate.numerator) / Double(o.frameRate.denominator)
                object["variables"] = StudioVariable.declared(in: bytes).map(\.json)
            }
            object["undoable"] = undoable.count
            return object
        }
    }

    /// The number at `pathText` in the last good document, for a new pin's starting value.
    public func number(at pathText: String) throws(Problem) -> Double {
        guard let path = JSONPath(parsing: pathText) else {
            throw Problem(description: "'\(pathText)' is not a JSON path (write it as errors print it)")
        }
        guard let bytes = lock.withLock({ goodBytes }),
            var node = try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
        else { throw Problem(description: "the job has not loaded") }
        for component in path.components {
            switch component {
            case .key(let key):
                guard let child = (node as? [String: Any])?[key] else {
                    throw Problem(
                        description: "\(path) is not in the job (a missing parameter can still be pinned)")
                }
                node = child
            case .index(let index):
                guard let array = node as? [Any], array.indices.contains(index) else {
                    throw Problem(description: "\(path) is not in the job")
                }
                node = array[index]
            }
        }
        guard let number = node as? NSNumber, !(node is String) else {
            throw Problem(
                description: "\(path) is not a number (an animated value pins by its keyframe's path)")
        }
        return number.doubleValue
    }

    /// The frame `kiln preview --at SECONDS` writes for the same values (`--scale` when below 1),
    /// encoded as asked. A time at or past the end shows the last frame. Loading the job with the
    /// request's values happens in the render queue too: each load decodes the job's pictures, and
    /// many requests with distinct values would otherwise hold one copy each at once.
    public func frame(_ request: FrameRequest) throws(Problem) -> [UInt8] {
        let rendered = renders.ifRoom { () -> Result<[UInt8], Problem> in
            do throws(Problem) {
                return .success(try render(request))
            } catch {
                return .failure(error)
            }
        }
        guard let rendered else {
            throw Problem(
                description: "the studio is busy: \(renders.waiting) frames are already waiting; ask again",
                busy: true)
        }
        return try rendered.get()
    }

    private func render(_ request: FrameRequest) throws(Problem) -> [UInt8] {
        let job = try job(for: request)
        let preview = FramePreview(job: job, threads: threads)
        let index = preview.frameIndex(atSeconds: max(0, request.seconds)) ?? job.output.frameCount - 1
        let image: RGBA8Frame
        do {
            image = try preview.render(frame: index)
        } catch {
            throw Problem(description: error.description)
        }
        // As StillImageFile writes `kiln preview`'s file, so the bytes are the same.
        do {
            return try StillImageEncoder.encode(
                request.format, rgba: image.bytes, width: image.width, height: image.height,
                stride: image.stride)
        } catch {
            throw Problem(description: error.description)
        }
    }

    /// The job with the request's variables and pins, drafted to its scale; the last one is kept
    /// (a scrub or playback asks for many frames of the same job).
    private func job(for request: FrameRequest) throws(Problem) -> Job {
        let key = [
            "\(request.scale)", request.variables.sorted { $0.key < $1.key }.description,
            request.pins.sorted { $0.key < $1.key }.description,
        ].joined(separator: "|")
        guard let bytes = lock.withLock({ () -> [UInt8]? in goodBytes }) else {
            throw Problem(description: lock.withLock { problem } ?? "the job has not loaded")
        }
        let versionKey = "\(lock.withLock { version })|" + key
        if let cached = lock.withLock({ cached }), cached.key == versionKey { return cached.job }
        var document = bytes
        if !request.pins.isEmpty {
            do throws(ParameterSweep.Problem) {
                let pins = request.pins.sorted { $0.key < $1.key }
                let sweep = ParameterSweep(
                    variations: try pins.map { path, value throws(ParameterSweep.Problem) in
                        try ParameterSweep.variation("\(path)=\(value)")
                    })
                document = try sweep.document(bytes, combination: Array(repeating: 0, count: pins.count))
            } catch {
                throw Problem(description: error.description)
            }
        }
        var options = options
        options.variables.merge(request.variables) { $1 }
        let job: Job
        do {
            job = try decode(document, options: options)
        } catch {
            throw Problem(description: StudioPathProblem.masked(error, variables: request.variables))
        }
        let drafted: Job
        do {
            drafted = request.scale < 1 ? try job.drafted(Draft(size: .scale(request.scale))) : job
        } catch {
            throw Problem(description: error.message)
        }
        lock.withLock { cached = (versionKey, drafted) }
        return drafted
    }

    private func decode(_ bytes: [UInt8], options: JobLoadOptions? = nil) throws(JobLoadError) -> Job {
        let url = URL(fileURLWithPath: file)
        return try JobFiles.decode(
            bytes: bytes, file: file, baseDirectory: url.deletingLastPathComponent().standardizedFileURL,
            options: options ?? self.options)
    }
}
