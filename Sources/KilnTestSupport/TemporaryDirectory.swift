import Foundation

/// A scratch directory of its own under the system's temporary directory, removed with its
/// contents on deinit, so that tests running at once never see each other's files.
public final class TemporaryDirectory {
    public let url: URL

    /// `label` goes into the name, so a directory left by a crashed run says who made it.
    public init(label: String = "kiln-test") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    deinit { try? FileManager.default.removeItem(at: url) }
}
