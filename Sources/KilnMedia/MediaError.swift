import CFFmpeg
import Foundation

/// A failed FFmpeg call (or a misuse of a KilnMedia type), named after the C function that failed.
public struct MediaError: Error, Sendable, CustomStringConvertible {
    public let function: String
    /// FFmpeg error code, or -1 when the failure did not come from an FFmpeg return code.
    public let code: Int32
    public let message: String

    public init(function: String, code: Int32, message: String) {
        self.function = function
        self.code = code
        self.message = message
    }

    /// An FFmpeg error code, described with av_strerror.
    init(function: String, code: Int32) {
        self.init(function: function, code: code, message: Self.errorText(code))
    }

    /// A failure that has no FFmpeg error code (NULL returned, invalid use).
    package static func failure(_ function: String, _ message: String) -> MediaError {
        MediaError(function: function, code: -1, message: message)
    }

    public var description: String { "\(function) failed: \(message) (\(code))" }

    private static func errorText(_ code: Int32) -> String {
        let capacity = Int(kiln_av_error_max_string_size())
        var buffer = [CChar](repeating: 0, count: capacity)
        guard av_strerror(code, &buffer, capacity) == 0 else { return "unknown error \(code)" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// The single gate for FFmpeg return codes: negative means failure.
@discardableResult
package func check(_ code: Int32, _ function: String) throws(MediaError) -> Int32 {
    if code < 0 { throw MediaError(function: function, code: code) }
    return code
}

/// For FFmpeg allocators and lookups that signal failure with NULL.
package func require<T>(_ value: T?, _ function: String, _ message: String = "returned NULL")
    throws(MediaError) -> T
{
    guard let value else { throw MediaError.failure(function, message) }
    return value
}

extension MediaError {
    /// FFmpeg reports trouble reading a file (it vanished, or lost its permissions after probing)
    /// as AVERROR(errno); any other failure of a demuxer or decoder means the data did not decode.
    var isFileReadFailure: Bool {
        [ENOENT, EACCES, EPERM, EISDIR, EIO].map { kiln_averror($0) }.contains(code)
    }
}
