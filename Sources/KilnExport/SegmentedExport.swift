import Foundation
import KilnMedia
import KilnModel
import KilnScene

/// An export split into frame ranges (scale-out.md): each range is encoded on its own to a
/// hidden file beside the output, committed atomically under a name keyed by the job's
/// fingerprint, the range and Kiln's version; then the pieces are joined by stream copy with the
/// audio encoded once for the whole timeline. A finished piece is never rendered again, so an
/// interrupted export resumes where it stopped, and any number of workers may render the pieces.
public struct SegmentedExport: Sendable {
    public let export: VideoExport
    public let fingerprint: String
    public let plan: SegmentPlan
    /// Where encoded pieces are kept between exports, keyed by their frames' digests
    /// (`ChunkCache`); nil: pieces are only resumed, by the job's fingerprint.
    public var chunkCache: ChunkCache?
    /// Tells why the cache could not be read or written (the export goes on without it).
    public var cacheWarning: (@Sendable (String) -> Void)?
    /// Reads each asset once for every piece's key.
    private let assets = AssetDigests()

    public init(export: VideoExport, fingerprint: String, plan: SegmentPlan) {
        self.export = export
        self.fingerprint = fingerprint
        self.plan = plan
    }

    public var output: URL { export.output }

    /// The key of piece `index`: a changed job, range or Kiln version never matches an old piece.
    public func key(ofSegment index: Int) -> String {
        var digest = ContentDigest()
        digest.update("kiln \(KilnVersion.string) segment")
        digest.update(fingerprint)
        digest.update(plan.ranges[index].lowerBound)
        digest.update(plan.ranges[index].upperBound)
        return digest.hex
    }

    /// Hidden, beside the output (same file system, so the rename that commits it is atomic).
    public func url(ofSegment index: Int) -> URL {
        let number = String(format: "%04d-of-%04d", index + 1, plan.count)
        return output.deletingLastPathComponent().appendingPathComponent(
            "\(Self.prefix(for: output))\(number)-\(key(ofSegment: index)).mp4")
    }

    static func prefix(for output: URL) -> String { ".\(output.lastPathComponent).seg-" }

    /// The longest output file name (bytes) whose derived names still fit in a file name
    /// (NAME_MAX, 255): the longest is a segment piece's temp file, `.` + `.NAME.seg-` +
    /// `NNNNN-of-NNNNN-` + 32 hex digits + `.mp4` + `.kiln-PID-TOKEN@HOST.mp4`, 88 bytes and the
    /// host name more than NAME itself. A longer name would fail only once rendering began.
    public static var longestOutputName: Int { 255 - 88 - AtomicOutputFile.host.utf8.count }

    /// The soundtrack, encoded once for the whole timeline while the segments render, beside them.
    public var audioURL: URL {
        var digest = ContentDigest()
        digest.update("kiln \(KilnVersion.string) soundtrack")
        digest.update(fingerprint)
        digest.update(export.job.output.frameCount)
        return output.deletingLastPathComponent().appendingPathComponent(
            "\(Self.audioPrefix(for: output))\(digest.hex).m4a")
    }

    static func audioPrefix(for output: URL) -> String { ".\(output.lastPathComponent).audio-" }

    /// True when the job has no soundtrack, or its encoded file exists and is as long as the video
    /// (within one AAC frame); a file that is not is removed.
    public var isAudioFinished: Bool {
        guard export.job.audio != nil else { return true }
        let expected = export.job.output.durationSeconds
        return checkPiece(audioURL.lastPathComponent) { path in
            guard let reader = try? AudioFileReader(path: path) else { return false }
            return reader.info.codecName == "aac"
                && abs(reader.info.durationSeconds - expected) <= 1024.0 / Double(AudioFormat.sampleRate)
        }
    }

    /// The output's folder, opened without following links (`OutputDirectory`).
    func openDirectory() throws(ExportError) -> OutputDirectory {
        do {
            return try OutputDirectory(output.deletingLastPathComponent().path)
        } catch {
            throw .cannotCreateOutput(path: output.path, reason: error.description)
        }
    }

    /// Whether the piece `name` beside the output is a regular file (never a link, whatever it
    /// points to) that `isComplete` accepts, read through its open descriptor; anything else
    /// there is removed so the piece is made again.
    func checkPiece(_ name: String, isComplete: (String) -> Bool) -> Bool {
        guard let directory = try? openDirectory(), directory.status(of: name) != nil else { return false }
        if let fd = directory.openRegularFile(name) {
            defer { close(fd) }
            let path = OutputDirectory.path(ofOpenFile: fd, fallback: directory.path + "/" + name)
            if isComplete(path) { return true }
        }
        directory.remove(name)
        return false
    }

    /// Encodes the soundtrack to `audioURL` (atomically) unless it is finished; true when it did.
    @discardableResult
    public func renderAudio(cancellation: CancellationFlag = CancellationFlag()) throws(ExportError) -> Bool {
        guard let track = export.job.audio, !isAudioFinished else { return false }
        let file = try AtomicOutputFile(finalURL: audioURL)
        defer { file.discard() }
        let o = export.job.output
        do {
            try AACTrackFile.write(
                source: try VideoExport.soundtrack(track, output: o),
                frameRateNumerator: o.frameRate.numerator,
                frameRateDenominator: o.frameRate.denominator, videoFrames: o.frameCount,
                to: file.writablePath, shouldStop: { cancellation.cancelledBySignal != nil })
        } catch {
            if let signal = cancellation.cancelledBySignal { throw .cancelled(signal: signal) }
            throw .media(error)
        }
        try file.commit()
        return true
    }

    /// True when the piece's file exists and holds exactly its frames at the job's size; a file
    /// that does not (truncated by a full disk, edited) is removed so it is rendered again.
    /// Segments are joined by MP4 stream copy (`SegmentAssembler`): only H.264 output is split.
    func checkFormat() throws(ExportError) {
        let format = export.job.output.format
        guard !format.supportsSegments else { return }
        throw .job(
            .invalid([
                Diagnostic(
                    file: export.job.file, path: JSONPath.root.key("output").key("format"), location: nil,
                    message: "\(format.rawValue) cannot be rendered in segments; only h264 can")
            ]))
    }

    public func isFinished(_ index: Int) -> Bool {
        let o = export.job.output
        return checkPiece(url(ofSegment: index).lastPathComponent) { path in
            guard let info = try? SegmentFile.probe(path: path) else { return false }
            return info.frameCount == plan.ranges[index].count && info.width == o.width
                && info.height == o.height && info.startsWithKeyframe && !info.hasAudio
        }
    }

    /// Renders piece `index` to its file unless it is already finished; true when it rendered.
    /// `progress` gets the frames of this piece rendered and written so far; `beforeCommit` as in
    /// `VideoExport`.
    @discardableResult
    public func renderSegment(
        _ index: Int, renderer: SceneRenderer? = nil, cancellation: CancellationFlag = CancellationFlag(),
        progress: @escaping (FramesDone) -> Void = { _ in }, beforeCommit: (() -> Bool)? = nil
    ) throws(ExportError) -> Bool {
        try checkFormat()
        if isFinished(index) { return false }
        let url = url(ofSegment: index)
        let file = try AtomicOutputFile(finalURL: url)
        defer { file.discard() }
        var settings = export.videoSettings
        settings.faststart = false  // an intermediate file: the assembly writes the index once
        let cacheKey = chunkCache.map { _ in chunkKey(ofSegment: index, settings: settings) }
        if let chunkCache, let cacheKey,
            let payload = chunkCache.payload(for: cacheKey, discarded: cacheWarning)
        {
            try file.write(payload)
            progress(FramesDone(rendered: plan.ranges[index].count, written: plan.ranges[index].count))
        } else {
            let writer: VideoFileWriter
            do {
                writer = try VideoFileWriter(
                    path: file.writablePath, settings: settings,
                    tags: FramesDigest.tags(jobFile: export.job.file, frames: plan.ranges[index].count))
            } catch {
                throw .media(error)
            }
            try export.encode(
                frames: plan.ranges[index], renderer: renderer ?? export.makeRenderer(), writer: writer,
                cancellation: cancellation, progress: progress)
        }
        if let signal = cancellation.cancelledBySignal { throw .cancelled(signal: signal) }
        if let beforeCommit, !beforeCommit() { throw .cancelled(signal: CancellationFlag.leaseLost) }
        try file.commit()
        if let chunkCache, let cacheKey, chunkCache.payload(for: cacheKey) == nil {
            if let bytes = try? [UInt8](Data(contentsOf: url)),
                let warning = chunkCache.store(bytes, for: cacheKey)
            {
                cacheWarning?(warning)
            }
        }
        return true
    }

    /// The cache key of piece `index`: its frames' digests and the settings it is encoded with,
    /// and what its file says besides its pictures (its frames' numbers, which its frames
    /// digest tag counts, the job file's name and Kiln's version in its tags), so a piece taken
    /// from the cache is byte for byte the piece this export would encode.
    func chunkKey(ofSegment index: Int, settings: VideoSettings) -> ChunkKey {
        let range = plan.ranges[index], o = export.job.output
        let digester = FrameDigester(job: export.job, files: .content(assets))
        var frames = range.map { digester.digest(ofFrame: $0) }
        var context = ContentDigest()
        context.update(o.startFrame + range.lowerBound)
        let tags = FramesDigest.tags(jobFile: export.job.file, frames: range.count)
        for tag in tags.known {
            context.update(tag.key)
            context.update(tag.value)
        }
        frames.append(FrameDigest(bytes: Array(context.hex.utf8)))
        return ChunkCache.key(frames: frames, settings: settings)
    }

    /// Removes what renders of this job killed on this host left half-written: the temp files
    /// of the output, of every segment and of the soundtrack.
    public func removeStaleTemporaries(log: (String) -> Void) {
        StaleTemporaryFiles.remove(
            besides: [output, audioURL] + plan.ranges.indices.map(url(ofSegment:)), log: log)
    }

    /// Joins the finished pieces and the soundtrack (encoded here if it is not yet) into the
    /// output by stream copy, atomically, then removes the pieces. Every piece must be finished.
    ///
    /// The pieces are only looked for here: the assembler reads every packet anyway, refuses a
    /// piece that does not match the first or does not hold each of its frames once, and each
    /// piece's frame count is checked against its range below.
    public func assemble(beforeCommit: (() -> Bool)? = nil) throws(ExportError) -> Int {
        let pieces =
            plan.ranges.indices.map { url(ofSegment: $0) } + (export.job.audio == nil ? [] : [audioURL])
        // Read through descriptors opened without following links: a link planted at a piece's
        // name is never joined into the output.
        let directory = try openDirectory()
        var descriptors: [Int32] = []
        defer { descriptors.forEach { close($0) } }
        var paths: [String] = []
        for piece in pieces {
            guard let fd = directory.openRegularFile(piece.lastPathComponent) else {
                throw .cannotCreateOutput(
                    path: output.path, reason: "\(piece.lastPathComponent) is not finished")
            }
            descriptors.append(fd)
            paths.append(OutputDirectory.path(ofOpenFile: fd, fallback: piece.path))
        }
        let file = try AtomicOutputFile(finalURL: output)
        defer { file.discard() }
        let summary: AssemblySummary
        let segments = Array(paths.prefix(plan.count))
        do {
            summary = try SegmentAssembler.assemble(
                segments: segments, to: file.writablePath,
                audioTrack: export.job.audio == nil ? nil : paths.last, faststart: true,
                tags: try joinedTags(segments))
        } catch {
            throw .media(error)
        }
        guard summary.segmentFrameCounts == plan.ranges.map(\.count) else {
            throw .media(
                MediaError(
                    function: "SegmentedExport.assemble", code: -1,
                    message:
                        "joined segments of \(summary.segmentFrameCounts) frames, expected \(plan.ranges.map(\.count))"
                ))
        }
        let frames = summary.frameCount
        // The work of every piece, which may have run side by side on several hosts; unknown
        // when a piece has no recorded time.
        let times = segments.map(RenderTimeAttribute.read(path:))
        if times.allSatisfy({ $0 != nil }) {
            RenderTimeAttribute.record(times.compactMap { $0 }.reduce(0, +), path: file.writablePath)
        }
        if let beforeCommit, !beforeCommit() { throw .cancelled(signal: CancellationFlag.leaseLost) }
        try file.commit()
        removeSegmentFiles()
        return frames
    }

    /// The joined file's tags: its pieces' digests added up.
    func joinedTags(_ segments: [String]) throws(MediaError) -> [ContainerTags.Tag] {
        var digest = FramesDigest()
        for segment in segments {
            let tags = try ContainerTags.read(path: segment)
            guard let piece = tags[ContainerTags.framesDigest].flatMap(FramesDigest.init(hex:)) else {
                throw MediaError(
                    function: "SegmentedExport.assemble", code: -1,
                    message: "a segment has no \(ContainerTags.framesDigest) tag")
            }
            digest.add(piece)
        }
        return export.tags.known + [.init(ContainerTags.framesDigest, digest.hex)]
    }

    /// Every piece beside the output, this plan's and those left by an earlier version of the job
    /// (their keys can never match again once the output is replaced).
    func removeSegmentFiles() {
        let prefix = Self.prefix(for: output), audio = Self.audioPrefix(for: output)
        guard let directory = try? openDirectory() else { return }
        for name in directory.names()
        where (name.hasPrefix(prefix) && name.hasSuffix(".mp4"))
            || (name.hasPrefix(audio) && name.hasSuffix(".m4a"))
        {
            directory.remove(name)
        }
    }

    /// The whole export in this process: unfinished pieces rendered in order with one renderer
    /// (all threads), then joined. Interrupted, the finished pieces stay for the next run.
    /// `beforeCommit` as in `VideoExport`, before each piece and the output are renamed into place.
    public func run(
        cancellation: CancellationFlag = CancellationFlag(),
        progress: (@Sendable (ExportProgress) -> Void)? = nil, beforeCommit: (() -> Bool)? = nil
    ) throws(ExportError) -> SegmentedSummary {
        let start = Date()
        try checkFormat()
        // Fail on an unwritable directory before rendering anything.
        _ = try AtomicOutputFile(finalURL: output)
        let total = export.job.output.frameCount
        var done = 0, reused = 0, rendered = 0
        let finished = plan.ranges.indices.map { isFinished($0) }
        for (index, range) in plan.ranges.enumerated() where finished[index] {
            done += range.count
            reused += 1
        }
        let kept = done
        let rate = export.job.output.frameRate.doubleValue
        func report(_ frames: FramesDone, stage: ExportStage? = nil) {
            guard frames.written < total || stage != nil else { return }
            progress?(
                ExportProgress(
                    frames, totalFrames: total, elapsedSeconds: Date().timeIntervalSince(start),
                    framesBefore: kept, stage: stage, videoFrameRate: rate))
        }
        if reused > 0 { report(FramesDone(rendered: done, written: done)) }
        // The soundtrack is encoded on its own thread while the segments render (it is one thread
        // of work; the render takes the rest), so the assembly only copies.
        let stopSoundtrack = CancellationFlag()
        let soundtrack = isAudioFinished ? nil : SoundtrackThread(self, cancellation: stopSoundtrack)
        let renderer = export.makeRenderer()
        do {
            for (index, range) in plan.ranges.enumerated() where !finished[index] {
                let before = done
                try renderSegment(
                    index, renderer: renderer, cancellation: cancellation,
                    progress: {
                        report(FramesDone(rendered: before + $0.rendered, written: before + $0.written))
                    }, beforeCommit: beforeCommit)
                done += range.count
                rendered += 1
            }
        } catch {
            stopSoundtrack.cancel(signal: error.cancelSignal)
            _ = soundtrack?.wait()
            throw error
        }
        if let soundtrack {
            report(FramesDone(rendered: total, written: total), stage: .audio)
            if let failure = soundtrack.wait() { throw failure }
        }
        report(FramesDone(rendered: total, written: total), stage: .assemble)
        let frames = try assemble(beforeCommit: beforeCommit)
        let elapsed = Date().timeIntervalSince(start)
        progress?(
            ExportProgress(
                frame: total, totalFrames: total, elapsedSeconds: elapsed, framesBefore: kept,
                videoFrameRate: rate))
        return SegmentedSummary(
            output: output, frames: frames, segments: plan.count, reused: reused, rendered: rendered,
            elapsedSeconds: elapsed)
    }
}
