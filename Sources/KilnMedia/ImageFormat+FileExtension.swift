/// Writing: the format of a still image follows its file name's extension.
extension ImageFormat {
    /// The extensions a still image may be written with, in the order messages list them.
    public static let writableExtensions = ["png", "jpg", "jpeg", "webp"]

    /// The format for a name ending in `.fileExtension` (without the dot), in any case; nil for
    /// any other extension or none. Nothing is guessed: an unknown extension is the caller's to
    /// refuse rather than silently given some other format's bytes.
    public init?(fileExtension: String) {
        switch fileExtension.lowercased() {
        case "png": self = .png
        case "jpg", "jpeg": self = .jpeg
        case "webp": self = .webp
        default: return nil
        }
    }

    /// ".png, .jpg, .jpeg or .webp"
    public static var writableExtensionList: String {
        let dotted = writableExtensions.map { "." + $0 }
        return dotted.dropLast().joined(separator: ", ") + " or " + dotted.last!
    }
}
