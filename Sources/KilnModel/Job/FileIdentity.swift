import Foundation

/// Whether two paths name the same file: the same inode on the same device when both exist,
/// else the same real path (a queue's `-wal` file may not exist yet).
enum FileIdentity {
    static func same(_ a: String, _ b: String) -> Bool {
        var left = stat(), right = stat()
        if stat(a, &left) == 0, stat(b, &right) == 0 {
            return left.st_dev == right.st_dev && left.st_ino == right.st_ino
        }
        return RealPath.resolve(a) == RealPath.resolve(b)
    }
}
