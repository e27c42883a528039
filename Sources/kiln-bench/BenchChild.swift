import Foundation
import KilnExport
import KilnMedia
import KilnModel
import KilnRaster
import KilnScene

#if canImport(Glibc)
    import Glibc
#endif

/// The parts of `kiln-bench --jobs` that run in a process of their own, so each one's peak
/// memory and CPU time are its own: exporting a job as `kiln render` does, rendering the same
/// frames to a raw file, and encoding that file with libx264 alone.
///
/// Each prints one JSON object (`ChildReport`) on standard output. Peak memory is the process's
/// own `VmHWM`: a spawned child's rusage maximum also carries its parent's high-water mark from
/// before `exec`, which would flatter neither side.
enum BenchChild {
    static let exportMode = "__export-job"
    static let framesMode = "__render-frames"
    static let encodeMode = "__encode-frames"

    /// Runs the child mode `arguments` names and exits; returns when they name none.
    static func runIfAsked(_ arguments: [String]) {
        guard let mode = arguments.first, mode.hasPrefix("__") else { return }
        let rest = Array(arguments.dropFirst())
        let started = DispatchTime.now().uptimeNanoseconds
        var extra: [String: Any] = [:]
        do {
            switch mode {
            case exportMode: extra = try export(rest)
            case framesMode: extra = try renderFrames(rest)
            case encodeMode: extra = try encode(rest)
            default: fail("unknown internal mode \(mode)")
            }
        } catch {
            fail("\(mode): \(error)")
        }
        var report = extra
        report["wallSeconds"] = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        report["cpuSeconds"] = cpuSeconds()
        report["peakBytes"] = peakResidentBytes()
        let data = (try? JSONSerialization.data(withJSONObject: report, options: [.sortedKeys])) ?? Data()
        FileHandle.standardOutput.write(data + Data("\n".utf8))
        exit(0)
    }

    /// The job cut to its first `seconds` (all of it when the job is shorter).
    static func job(_ file: String, seconds: Double) throws -> Job {
        let job = try JobFiles.load(file: file)
        var output = job.output
        let wanted = (seconds * output.frameRate.doubleValue).rounded(.up)
        if wanted < Double(output.frameCount) { output.frameCount = max(1, Int(wanted)) }
        return Job(
            file: job.file, output: output, layers: job.layers, camera: job.camera, audio: job.audio,
            limits: job.limits)
    }

    /// `__export-job JOB SECONDS OUT.mp4`: what `kiln render` does, job loading included.
    static func export(_ args: [String]) throws -> [String: Any] {
        guard args.count == 3, let seconds = Double(args[1]) else {
            fail("usage: \(exportMode) JOB SECONDS OUT")
        }
        let job = try job(args[0], seconds: seconds)
        _ = try VideoExport(job: job, output: URL(fileURLWithPath: args[2])).run()
        let o = job.output
        return [
            "frames": o.frameCount, "width": o.width, "height": o.height, "fps": o.frameRate.doubleValue,
            "fpsNumerator": o.frameRate.numerator, "fpsDenominator": o.frameRate.denominator,
            "preset": o.preset, "crf": o.crf, "gop": o.gop,
        ]
    }

    /// `__render-frames JOB SECONDS RAW`: the export's frames, as planar YUV 4:2:0, one after another.
    static func renderFrames(_ args: [String]) throws -> [String: Any] {
        guard args.count == 3, let seconds = Double(args[1]) else {
            fail("usage: \(framesMode) JOB SECONDS RAW")
        }
        let job = try job(args[0], seconds: seconds)
        let o = job.output
        let renderer = SceneRenderer(
            job: job, canvas: Canvas(output: o), threads: ProcessInfo.processInfo.activeProcessorCount)
        guard let out = FileHandle(forWritingAtPath: args[2]) ?? create(args[2]) else {
            fail("cannot write \(args[2])")
        }
        defer { try? out.close() }
        // An existing file is written from its start: a longer one would keep its old tail (and a
        // comparison of two renders with `cmp` would see it). /dev/null cannot be truncated.
        try? out.truncate(atOffset: 0)
        let frame = YUV420Frame(width: o.width, height: o.height)
        for n in 0..<o.frameCount {
            let next = n + 1 < o.frameCount ? o.time(ofFrame: n + 1) : nil
            renderer.render(at: o.time(ofFrame: n), prefetching: next, yuv: frame, rgba: nil)
            try out.write(contentsOf: planes(of: frame))
        }
        return ["frames": o.frameCount]
    }

    /// `__encode-frames RAW OUT W H NUM DEN PRESET CRF GOP`: libx264 alone on the raw frames, with
    /// the export's settings and its default (automatic) encoder threads.
    static func encode(_ args: [String]) throws -> [String: Any] {
        guard args.count == 9, let w = Int(args[2]), let h = Int(args[3]), let num = Int(args[4]),
            let den = Int(args[5]), let crf = Double(args[7]), let gop = Int(args[8]),
            let input = FileHandle(forReadingAtPath: args[0])
        else { fail("usage: \(encodeMode) RAW OUT W H NUM DEN PRESET CRF GOP") }
        let settings = VideoSettings(
            width: w, height: h, frameRateNumerator: num, frameRateDenominator: den, crf: crf,
            preset: args[6],
            gop: gop)
        let writer = try VideoFileWriter(path: args[1], settings: settings)
        let frame = YUV420Frame(width: w, height: h)
        let ySize = w * h, uvSize = (w / 2) * (h / 2)
        var frames = 0
        // Straight into the one frame's planes: a fresh buffer per frame would have the encoder
        // side pay for faulting in and zeroing 3 MB a frame, which the export never pays.
        let fd = input.fileDescriptor
        while readFully(fd, frame.y, ySize), readFully(fd, frame.u, uvSize), readFully(fd, frame.v, uvSize) {
            try writer.append(
                y: frame.y, yStride: frame.yStride, u: frame.u, v: frame.v, uvStride: frame.uvStride)
            frames += 1
        }
        try writer.finish()
        return ["frames": frames]
    }

    /// Reads exactly `count` bytes into `buffer`; false at the end of the file or on an error.
    static func readFully(_ fd: Int32, _ buffer: UnsafeMutablePointer<UInt8>, _ count: Int) -> Bool {
        var done = 0
        while done < count {
            let n = read(fd, buffer + done, count - done)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            done += n
        }
        return true
    }

    static func create(_ path: String) -> FileHandle? {
        FileManager.default.createFile(atPath: path, contents: nil) ? FileHandle(forWritingAtPath: path) : nil
    }

    static func planes(of frame: YUV420Frame) -> Data {
        let ySize = frame.width * frame.height, uvSize = (frame.width / 2) * (frame.height / 2)
        var data = Data(bytes: frame.y, count: ySize)
        data.append(frame.u, count: uvSize)
        data.append(frame.v, count: uvSize)
        return data
    }

    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// This process's own peak resident set (`VmHWM` in /proc/self/status), in bytes.
    static func peakResidentBytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
        else { return 0 }
        let kilobytes = line.split(separator: " ").compactMap { Int($0) }.first ?? 0
        return kilobytes * 1024
    }
}
