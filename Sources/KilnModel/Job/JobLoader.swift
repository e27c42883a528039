import Foundation

/// Reads and validates a job file, reporting every problem at once.
public enum JobLoader {
    /// Job files are small; the cap keeps a mistaken or hostile input from exhausting memory.
    public static let maximumFileSize = 64 * 1024 * 1024
    public static let topLevelKeys = ["kiln", "output", "layers", "audio", "comment"]

    public static func load(
        file: String, kinds: [LayerKind], effects: [EffectKind] = [],
        services: DecodeServices = DecodeServices()
    ) throws(JobLoadError) -> Job {
        let url = URL(fileURLWithPath: file)
        let bytes = try read(url, file: file)
        return try decode(
            bytes: bytes, file: file, baseDirectory: url.deletingLastPathComponent().standardizedFileURL,
            kinds: kinds, effects: effects, services: services)
    }

    public static func decode(
        bytes: [UInt8], file: String, baseDirectory: URL, kinds: [LayerKind], effects: [EffectKind] = [],
        services: DecodeServices = DecodeServices()
    ) throws(JobLoadError) -> Job {
        guard bytes.count <= maximumFileSize else {
            throw .invalid([tooLarge(file: file, size: bytes.count)])
        }
        let root: JSONNode
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            throw .invalid([
                Diagnostic(file: file, path: .root, location: error.location, message: error.message)
            ])
        }
        let context = DecodeContext(file: file, baseDirectory: baseDirectory, services: services)
        let job = JobDecoding(context: context, kinds: kinds, effects: effects).decode(root)
        guard let job, !context.hasErrors else {
            throw .invalid(sortedByLocation(context.diagnostics))
        }
        return job
    }

    private static func read(_ url: URL, file: String) throws(JobLoadError) -> [UInt8] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw .fileMissing(file: file, reason: "no such file")
        }
        guard !isDirectory.boolValue else {
            throw .fileMissing(file: file, reason: "is a directory, not a job file")
        }
        if let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int,
            size > maximumFileSize
        {
            throw .invalid([tooLarge(file: file, size: size)])
        }
        do {
            return Array(try Data(contentsOf: url))
        } catch {
            throw .fileMissing(file: file, reason: "cannot be read (\(error.localizedDescription))")
        }
    }

    private static func tooLarge(file: String, size: Int) -> Diagnostic {
        Diagnostic(
            file: file, path: .root, location: nil,
            message: "job file is \(size) bytes; the limit is \(maximumFileSize) bytes (64 MiB)")
    }

    /// Document order reads best; decoders report in table order. Stable, so problems at the
    /// same place keep their logical order.
    private static func sortedByLocation(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        diagnostics.enumerated().sorted { lhs, rhs in
            switch (lhs.element.location, rhs.element.location) {
            case (let l?, let r?) where l != r: l < r
            case (nil, .some): false
            case (.some, nil): true
            default: lhs.offset < rhs.offset
            }
        }.map(\.element)
    }
}
