import KilnModel
import Synchronization

/// Where symbols come from: a file of the user's, bytes already read, or the set Kiln ships
/// (embedded in the binary, so a built kiln needs no data files to draw them).
public enum SymbolCatalog {
    public static func load(file path: String) throws(SymbolFileError) -> SymbolArtwork {
        switch RegularFileReader.read(path: path, limit: SymbolLimits.fileBytes) {
        case .success(let bytes):
            return try parse(bytes, file: path)
        case .failure(.missing):
            throw SymbolFileError(file: path, message: "no such symbol file")
        case .failure(.notRegular(let kind)):
            throw SymbolFileError(file: path, message: "is \(kind), not a regular file")
        case .failure(.tooLarge(let size)):
            throw SymbolFileError(
                file: path,
                message:
                    "the file is \(size) bytes, more than the \(SymbolLimits.fileBytes) a symbol may have")
        case .failure(.unreadable(let reason)):
            throw SymbolFileError(file: path, message: "cannot be read: \(reason)")
        }
    }

    /// The symbol's name is the file's name without `.svg`.
    public static func parse(_ bytes: [UInt8], file: String) throws(SymbolFileError) -> SymbolArtwork {
        let root = try SafeXMLParser.parse(bytes, file: file)
        var reader = SymbolDocumentReader(name: symbolName(ofFile: file), file: file, source: bytes)
        return try reader.read(root)
    }

    /// The shipped symbols' names, sorted.
    public static var shippedNames: [String] { ShippedSymbols.sources.map(\.name) }

    /// A shipped symbol, parsed on first use and kept; nil for a name Kiln does not ship. (Every
    /// shipped file is parsed by the tests, so a shipped name always yields its artwork.)
    public static func shipped(_ name: String) -> SymbolArtwork? {
        cache.withLock { artworks in
            if let artwork = artworks[name] { return artwork }
            guard let source = ShippedSymbols.source(named: name),
                let artwork = try? parse(Array(source.utf8), file: "jobs/symbols/\(name).svg")
            else { return nil }
            artworks[name] = artwork
            return artwork
        }
    }

    private static let cache = Mutex<[String: SymbolArtwork]>([:])

    static func symbolName(ofFile path: String) -> String {
        let base = path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
        return base.hasSuffix(".svg") ? String(base.dropLast(4)) : base
    }
}
