import Foundation

/// This build's version: printed by `kiln --version` and part of every segment key, so pieces
/// rendered by another version are never joined with this one's.
public enum KilnVersion {
    public static let string = "0.2.0"
}
