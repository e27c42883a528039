import Foundation

/// Collects every problem found while decoding, so a user sees all mistakes in one run instead
/// of fixing them one at a time. Decoders report and carry on with a placeholder value.
public final class DecodeContext {
    public let file: String
    public let baseDirectory: URL
    public private(set) var diagnostics: [Diagnostic] = []

    public init(file: String, baseDirectory: URL) {
        self.file = file
        self.baseDirectory = baseDirectory
    }

    public var hasErrors: Bool { !diagnostics.isEmpty }

    public func error(_ message: String, at node: JSONNode?, path: JSONPath) {
        error(message, location: node?.location, path: path)
    }

    public func error(_ message: String, location: SourceLocation?, path: JSONPath) {
        diagnostics.append(Diagnostic(file: file, path: path, location: location, message: message))
    }

    /// Resolves a path written in the job relative to the job file's directory, so a job renders
    /// the same regardless of the working directory it is launched from.
    public func resolvePath(_ relative: String) -> URL {
        if relative.hasPrefix("/") { return URL(fileURLWithPath: relative).standardizedFileURL }
        return baseDirectory.appendingPathComponent(relative).standardizedFileURL
    }
}
