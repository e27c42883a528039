import Foundation
import KilnMedia

/// A written video's bytes with its render time (`kiln_render_seconds`, the one tag that differs
/// between two renders of the same job) blanked, so byte-for-byte comparisons of renders still
/// hold: everything else, frames digest included, must be equal.
public enum TaggedVideo {
    public static func bytesWithoutRenderTime(path: String) throws -> Data {
        var data = try Data(contentsOf: URL(fileURLWithPath: path))
        guard let value = try ContainerTags.read(path: path)[ContainerTags.renderSeconds] else { return data }
        let needle = Data(value.utf8)
        var from = data.startIndex
        while let found = data.range(of: needle, in: from..<data.endIndex) {
            data.replaceSubrange(found, with: Data(repeating: 0x30, count: needle.count))
            from = found.upperBound
        }
        return data
    }
}
