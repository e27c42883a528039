import Foundation

/// The format a render writes, from the command line (`--format`, `-o`) and the job.
///
/// `--format` wins; a format the job names (`output.format`) comes next; otherwise `-o`'s
/// extension picks it, as the job's own path would have (`OutputFormat.inferred(fromPath:)`),
/// and an extension that names no format keeps the job's. A format chosen by name must suit
/// `-o`'s extension: a usage error otherwise.
public struct OutputFormatChoice: Sendable, Hashable {
    public var format: OutputFormat
    /// Where the format came from, for messages: "--format", "output.format" or nil (a path).
    public var namedBy: String?

    /// The format for `job` given `--format` (`named`) and `-o` (`written`), or why none fits.
    public static func choose(for job: OutputSettings, named: OutputFormat?, written: String?) -> Result<
        OutputFormatChoice, OutputFormatMismatch
    > {
        let choice: OutputFormatChoice
        if let named {
            choice = OutputFormatChoice(format: named, namedBy: "--format")
        } else if job.formatIsNamed {
            choice = OutputFormatChoice(format: job.format, namedBy: "output.format")
        } else {
            choice = OutputFormatChoice(
                format: written.flatMap(OutputFormat.inferred(fromPath:)) ?? job.format, namedBy: nil)
        }
        if let problem = choice.format.sizeProblem(width: job.width, height: job.height) {
            let source = choice.namedBy ?? (written == nil ? "the job's output path" : "-o's extension")
            return .failure(OutputFormatMismatch(message: "\(problem) (the format comes from \(source))"))
        }
        if let written, let namedBy = choice.namedBy,
            let mismatch = choice.format.pathMismatch(written, namedBy: namedBy)
        {
            return .failure(OutputFormatMismatch(message: "-o: \(mismatch) (the format is \(namedBy)'s)"))
        }
        return .success(choice)
    }
}

public struct OutputFormatMismatch: Error, Sendable, Hashable {
    public let message: String
}

extension OutputSettings {
    /// These settings written as `format`. A crf or preset the job wrote carries over only to a
    /// format that reads it alike (h264 and hevc share x264's scales); otherwise, and when the
    /// job wrote none, `format`'s defaults. Without `keepingPath`, the path gets `format`'s
    /// extension (or becomes its `-frames/` folder).
    public func reformatted(as format: OutputFormat, keepingPath: Bool) -> OutputSettings {
        guard format != self.format else { return self }
        var settings = self
        settings.format = format
        let alike = format.crfRange == self.format.crfRange && format.presets == self.format.presets
        if !(alike && crfIsNamed) {
            settings.crf = format.defaultCRF
            settings.crfIsNamed = false
        }
        if !(alike && presetIsNamed) {
            settings.preset = format.defaultPreset
            settings.presetIsNamed = false
        }
        if !keepingPath { settings.path = Self.path(path, as: format) }
        return settings
    }

    /// The settings the job wrote that `reformatted(as:)` leaves behind, for a note.
    public func droppedSettings(as format: OutputFormat) -> [String] {
        let alike = format.crfRange == self.format.crfRange && format.presets == self.format.presets
        guard format != self.format, !alike else { return [] }
        return (crfIsNamed ? ["crf"] : []) + (presetIsNamed ? ["preset"] : [])
    }

    /// `out/intro.mp4` as `format`: `out/intro.gif`, or the folder `out/intro-frames/`.
    static func path(_ path: URL, as format: OutputFormat) -> URL {
        let base = path.deletingPathExtension()
        if format == .pngSequence {
            return base.deletingLastPathComponent().appendingPathComponent(
                base.lastPathComponent + "-frames", isDirectory: true)
        }
        let folder =
            path.hasDirectoryPath ? path.deletingLastPathComponent() : base.deletingLastPathComponent()
        let name = path.hasDirectoryPath ? path.lastPathComponent : base.lastPathComponent
        return folder.appendingPathComponent(
            (name.hasSuffix("-frames") ? String(name.dropLast("-frames".count)) : name) + "."
                + format.fileExtension)
    }
}

extension Job {
    /// The job written as `format` (`OutputSettings.reformatted(as:keepingPath:)`). A soundtrack is
    /// left out of a format without sound: the caller says so.
    public func reformatted(as format: OutputFormat, keepingPath: Bool) -> Job {
        guard format != output.format else { return self }
        var job = Job(
            file: file, output: output.reformatted(as: format, keepingPath: keepingPath), layers: layers,
            camera: camera, audio: format.carriesAudio ? audio : nil, limits: limits)
        job.inputFiles = inputFiles
        job.frameInputs = frameInputs
        return job
    }
}

extension Job {
    /// The job with its file kept within `maxBytes` (GIF only, `OutputSettings.maxBytes`).
    public func limitingBytes(to maxBytes: Int?) -> Job {
        var output = self.output
        output.maxBytes = maxBytes
        var job = Job(
            file: file, output: output, layers: layers, camera: camera, audio: audio, limits: limits)
        job.inputFiles = inputFiles
        job.frameInputs = frameInputs
        return job
    }
}

/// A byte count as people write one: 1000000, 800k, 1.5M, 2G (powers of 1000, as FFmpeg's
/// sizes), or with i (Ki, Mi, Gi) for powers of 1024; a trailing B is allowed.
public enum ByteCount {
    public static func parse(_ text: String) -> Int? {
        var rest = Substring(text.trimmingCharacters(in: .whitespaces))
        if rest.hasSuffix("B") || rest.hasSuffix("b") { rest = rest.dropLast() }
        var base = 1000.0
        if rest.hasSuffix("i") {
            base = 1024
            rest = rest.dropLast()
        }
        var scale = 1.0
        if let last = rest.last, let power = ["k": 1, "K": 1, "M": 2, "m": 2, "G": 3, "g": 3][last] {
            scale = pow(base, Double(power))
            rest = rest.dropLast()
        } else if base == 1024 {
            return nil
        }
        guard let number = Double(rest), number.isFinite, number > 0 else { return nil }
        let bytes = (number * scale).rounded()
        return bytes < Double(Int.max) ? Int(bytes) : nil
    }
}
