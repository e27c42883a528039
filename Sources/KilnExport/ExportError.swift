import KilnMedia
import KilnModel

/// Everything an export can fail with, each mapped to a sysexits-style exit code.
public enum ExportError: Error, Sendable, CustomStringConvertible {
    case job(JobLoadError)
    case cannotCreateOutput(path: String, reason: String)
    case media(MediaError)
    case cancelled(signal: Int32)

    /// A frame would pass a limit that only rendering can measure (offscreen memory), or a video
    /// layer's clip stopped decoding partway: the job is invalid (65) like one refused while loading.
    static func overLimit(file: String, _ message: String) -> ExportError {
        .job(.invalid([Diagnostic(file: file, path: .root, location: nil, message: message)]))
    }

    /// The stop code a failure hands to work running beside it: the signal that cancelled this
    /// export, or `cancelRequested` for any other failure.
    var cancelSignal: Int32 {
        if case .cancelled(let signal) = self { return signal }
        return CancellationFlag.cancelRequested
    }

    public var exitCode: Int32 {
        switch self {
        case .job(let error): return error.exitCode
        case .cannotCreateOutput: return 73  // EX_CANTCREAT
        case .media: return 70  // EX_SOFTWARE
        case .cancelled(let signal): return 128 + signal
        }
    }

    public var description: String {
        switch self {
        case .job(let error): return error.description
        case .cannotCreateOutput(let path, let reason): return "cannot create \(path): \(reason)"
        case .media(let error): return "encoding failed: \(error)"
        case .cancelled: return "interrupted; no output was written"
        }
    }
}
