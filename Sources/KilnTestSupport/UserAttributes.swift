import Foundation
import KilnMedia

/// Whether the file system under `directory` keeps user extended attributes (where a render
/// records its time, `RenderTimeAttribute`): tmpfs before Linux 6.6 and some overlay mounts do
/// not, and there a test of the recorded time has nothing to check.
public enum UserAttributes {
    public static func work(in directory: URL) -> Bool {
        let probe = directory.appendingPathComponent(".kiln-attribute-probe-\(UUID().uuidString)").path
        guard FileManager.default.createFile(atPath: probe, contents: Data()) else { return false }
        defer { try? FileManager.default.removeItem(atPath: probe) }
        RenderTimeAttribute.record(1.5, path: probe)
        return RenderTimeAttribute.read(path: probe) == 1.5
    }
}
