import Foundation
import KilnModel

/// `$XDG_CONFIG_HOME/kiln/config.json` (default `~/.config/kiln/config.json`) or `--config FILE`:
/// a JSON object with the roots a worker and `enqueue` confine jobs to, and limit overrides.
public struct KilnConfiguration: Sendable, Equatable {
    /// Directories jobs may read images, video clips, audio and transcripts from.
    public var assetRoots: [String] = []
    /// Directories jobs may write outputs under.
    public var outputRoots: [String] = []
    /// The `"limits"` object as written (limit name → value), checked by `ResourceLimits` when
    /// the file is parsed, so a wrong name is reported against this file.
    public var limitOverrides: [String: Double] = [:]
    /// `"onDone"`: a shell command a worker runs for each job that ends.
    public var onDone: String?
    /// `"onDoneURL"`: a local address a worker posts each ended job to.
    public var onDoneURL: LoopbackURL?
    /// The file it was read from; nil when there was none.
    public var file: String?

    public static let keys = ["assetRoots", "outputRoots", "limits", "onDone", "onDoneURL"]
    /// A configuration is a few lines; more is a mistake.
    public static let maximumSize = 1 << 20

    public init() {}

    public struct Failure: Error, CustomStringConvertible {
        public let file: String
        public let reason: String
        public var description: String { "\(file): \(reason)" }
    }

    /// The default file's path for this environment.
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment)
        -> String
    {
        let base =
            environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.config"
        return base + "/kiln/config.json"
    }

    /// Reads `explicit` (which must exist) or else the default file (which may be absent).
    public static func load(
        explicit: String?, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(Failure) -> KilnConfiguration {
        let path = explicit ?? defaultPath(environment: environment)
        // Every command reads it, so a FIFO or a device here must not block or flood them.
        switch RegularFileReader.read(path: path, limit: maximumSize) {
        case .success(let bytes): return try parse(bytes, file: path)
        case .failure(.missing):
            if explicit != nil { throw Failure(file: path, reason: "no such file") }
            return KilnConfiguration()
        case .failure(.notRegular(let kind)):
            throw Failure(file: path, reason: "is \(kind), not a configuration file")
        case .failure(.tooLarge(let size)):
            throw Failure(file: path, reason: "is \(size) bytes; a configuration is at most \(maximumSize)")
        case .failure(.unreadable(let reason)):
            throw Failure(file: path, reason: "cannot be read (\(reason))")
        }
    }

    /// Relative roots are relative to the file's directory, so a configuration means the same
    /// wherever the worker is started.
    public static func parse(_ bytes: [UInt8], file: String) throws(Failure) -> KilnConfiguration {
        let object: [String: Any]
        do {
            guard let parsed = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else {
                throw Failure(file: file, reason: "expected a JSON object")
            }
            object = parsed
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(file: file, reason: "not valid JSON")
        }
        if let unknown = object.keys.sorted().first(where: { !keys.contains($0) }) {
            throw Failure(
                file: file,
                reason: "unknown key '\(unknown)'; expected \(keys.map { "'\($0)'" }.joined(separator: ", "))"
            )
        }
        let directory = URL(fileURLWithPath: file).deletingLastPathComponent()
        var configuration = KilnConfiguration()
        configuration.file = file
        configuration.assetRoots = try paths(
            object["assetRoots"], key: "assetRoots", file: file, relativeTo: directory)
        configuration.outputRoots = try paths(
            object["outputRoots"], key: "outputRoots", file: file, relativeTo: directory)
        if let command = object["onDone"] {
            guard let text = command as? String, !text.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw Failure(file: file, reason: "'onDone' must be a shell command (a non-empty string)")
            }
            configuration.onDone = text
        }
        if let address = object["onDoneURL"] {
            guard let text = address as? String else {
                throw Failure(file: file, reason: "'onDoneURL' must be a string: http://127.0.0.1:PORT/PATH")
            }
            do {
                configuration.onDoneURL = try LoopbackURL(text)
            } catch {
                throw Failure(file: file, reason: "onDoneURL: \(error)")
            }
        }
        if let limits = object["limits"] {
            guard let table = limits as? [String: Any] else {
                throw Failure(file: file, reason: "'limits' must be an object of numbers")
            }
            for (name, value) in table {
                guard let number = value as? NSNumber, number.doubleValue.isFinite else {
                    throw Failure(file: file, reason: "limits.\(name) must be a finite number")
                }
                configuration.limitOverrides[name] = number.doubleValue
            }
            do {
                _ = try ResourceLimits(overrides: configuration.limitOverrides)
            } catch {
                throw Failure(file: file, reason: "limits: \(error)")
            }
        }
        return configuration
    }

    private static func paths(_ value: Any?, key: String, file: String, relativeTo directory: URL)
        throws(Failure)
        -> [String]
    {
        guard let value else { return [] }
        guard let list = value as? [Any], list.allSatisfy({ ($0 as? String)?.isEmpty == false }) else {
            throw Failure(file: file, reason: "'\(key)' must be an array of directory paths")
        }
        return list.compactMap { $0 as? String }.map {
            $0.hasPrefix("/") ? $0 : directory.appendingPathComponent($0).standardizedFileURL.path
        }
    }
}
