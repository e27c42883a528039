import Foundation

/// `kiln-bench --jobs`: whole jobs as users render them, each against libx264 alone encoding the
/// very same frames with the same settings, in the same run (docs/performance.md leads with it).
///
/// Per job, three processes in turn: the export (what `kiln render` does, job loading and audio
/// included), a render of the same frames into a raw file (not timed), and libx264 alone encoding
/// that file (read from the page cache, as `ffmpeg -f rawvideo` would). Each reports its own wall
/// and CPU time and peak memory (`BenchChild`).
struct JobBenchmark {
    let job: String
    let frames: Int
    let videoSeconds: Double
    let pixelsPerFrame: Int
    /// The exports and the encode-only runs, in the order they alternated (one each without
    /// `--repeat`).
    let exports: [ChildResult]
    let encodes: [ChildResult]

    var export: ChildResult { exports[0] }
    var exportSeconds: Double { median(exports.map(\.wallSeconds)) }
    var encodeOnlySeconds: Double { median(encodes.map(\.wallSeconds)) }
    var realTimeFactor: Double { videoSeconds / exportSeconds }
    /// Each run's export over the encode-only run beside it.
    var ratios: [Double] { zip(exports, encodes).map { $0.wallSeconds / $1.wallSeconds } }
    var ratio: Double { median(ratios) }
    /// CPU time of the export beyond the encoder's, per pixel: what rendering (and everything
    /// else that is not libx264) costs.
    var renderNsCorePerPixel: Double {
        median(
            zip(exports, encodes).map {
                ($0.cpuSeconds - $1.cpuSeconds) * 1e9 / Double(frames * pixelsPerFrame)
            })
    }
    /// Peak memory: the largest of the runs.
    var exportPeakBytes: Int { exports.map(\.peakBytes).max() ?? 0 }
    var encodeOnlyPeakBytes: Int { encodes.map(\.peakBytes).max() ?? 0 }

    var json: [String: Any] {
        [
            "job": job, "frames": frames, "videoSeconds": videoSeconds, "exportSeconds": exportSeconds,
            "exportCPUSeconds": median(exports.map(\.cpuSeconds)), "encodeOnlySeconds": encodeOnlySeconds,
            "encodeOnlyCPUSeconds": median(encodes.map(\.cpuSeconds)), "ratio": ratio, "ratios": ratios,
            "realTimeFactor": realTimeFactor, "renderNsCorePerPixel": renderNsCorePerPixel,
            "exportPeakBytes": exportPeakBytes, "encodeOnlyPeakBytes": encodeOnlyPeakBytes,
            "runs": exports.count,
        ]
    }
}

/// One child's report.
struct ChildResult {
    let wallSeconds: Double
    let cpuSeconds: Double
    let peakBytes: Int
    let fields: [String: Any]

    init(_ fields: [String: Any]) {
        self.fields = fields
        wallSeconds = fields["wallSeconds"] as? Double ?? .nan
        cpuSeconds = fields["cpuSeconds"] as? Double ?? .nan
        peakBytes = fields["peakBytes"] as? Int ?? 0
    }
}

func measureJobs(_ files: [String], seconds: Double, repeats: Int = 1) -> [JobBenchmark] {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
        "kiln-bench-jobs-\(ProcessInfo.processInfo.processIdentifier)")
    try? FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let video = scratch.appendingPathComponent("export.mp4").path
    let raw = scratch.appendingPathComponent("frames.yuv").path
    let encoded = scratch.appendingPathComponent("encode-only.mp4").path
    var results: [JobBenchmark] = []
    for file in files {
        let limit = String(seconds)
        let export = runChild([BenchChild.exportMode, file, limit, video])
        _ = runChild([BenchChild.framesMode, file, limit, raw])
        let f = export.fields
        guard let w = f["width"] as? Int, let h = f["height"] as? Int, let num = f["fpsNumerator"] as? Int,
            let den = f["fpsDenominator"] as? Int, let preset = f["preset"] as? String,
            let crf = f["crf"] as? Double,
            let gop = f["gop"] as? Int, let frames = f["frames"] as? Int
        else { fail("the export of \(file) reported no settings") }
        func encodeOnly() -> ChildResult {
            runChild([
                BenchChild.encodeMode, raw, encoded, String(w), String(h), String(num), String(den), preset,
                String(crf), String(gop),
            ])
        }
        var exports = [export], encodes = [encodeOnly()]
        for _ in 1..<max(repeats, 1) {
            exports.append(runChild([BenchChild.exportMode, file, limit, video]))
            encodes.append(encodeOnly())
        }
        unlink(raw)
        results.append(
            JobBenchmark(
                job: file, frames: frames, videoSeconds: Double(frames) * Double(den) / Double(num),
                pixelsPerFrame: w * h, exports: exports, encodes: encodes))
        FileHandle.standardError.write(Data("kiln-bench: \(file) done\n".utf8))
    }
    return results
}

/// The job files `--jobs` names: a comma-separated list, or `all` for every `jobs/*.json`.
func jobFiles(_ list: String) -> [String] {
    guard list == "all" else { return list.split(separator: ",").map(String.init) }
    let names = (try? FileManager.default.contentsOfDirectory(atPath: "jobs")) ?? []
    let files = names.filter { $0.hasSuffix(".json") }.sorted().map { "jobs/" + $0 }
    if files.isEmpty { fail("--jobs all reads jobs/*.json from the current directory, and found none") }
    return files
}

/// Runs this executable in a child mode and returns its report.
func runChild(_ arguments: [String]) -> ChildResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    do {
        try process.run()
    } catch {
        fail("cannot start \(arguments[0]): \(error)")
    }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0,
        let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
    else { fail("\(arguments.joined(separator: " ")) failed (exit \(process.terminationStatus))") }
    return ChildResult(object)
}

func printJobReport(_ results: [JobBenchmark], json: Bool) {
    if json {
        let object: [String: Any] = ["cores": cores, "jobs": results.map(\.json)]
        if let data = try? JSONSerialization.data(
            withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
        {
            print(String(decoding: data, as: UTF8.self))
        }
        return
    }
    print("Whole jobs on \(cores) cores: export (job load, render, encode, audio) against libx264 alone")
    print("on the same frames with the same preset, CRF and threads.")
    let runs = results.first?.exports.count ?? 1
    if runs > 1 {
        print(
            "Medians of \(runs) alternated runs; the ratio's range across them in brackets; peak memory the largest."
        )
    }
    print()
    print(
        "| job | preset | frames | export s | real-time × | render ns·core/px | encode-only s | ratio | export MB | encoder MB |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in results {
        let preset = r.export.fields["preset"] as? String ?? "?"
        func mb(_ bytes: Int) -> String { String(format: "%.0f", Double(bytes) / 1_048_576) }
        var ratio = String(format: "%.2f", r.ratio)
        if r.ratios.count > 1, let low = r.ratios.min(), let high = r.ratios.max() {
            ratio += String(format: " (%.2f–%.2f)", low, high)
        }
        print(
            "| \(r.job) | \(preset) | \(r.frames) | \(String(format: "%.2f", r.exportSeconds)) | "
                + "\(String(format: "%.2f", r.realTimeFactor)) | \(String(format: "%.1f", r.renderNsCorePerPixel)) | "
                + "\(String(format: "%.2f", r.encodeOnlySeconds)) | \(ratio) | "
                + "\(mb(r.exportPeakBytes)) | \(mb(r.encodeOnlyPeakBytes)) |")
    }
}
