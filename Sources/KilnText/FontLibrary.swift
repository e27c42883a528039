import CFontconfig
import CFreeType
import Synchronization

/// Finds fonts through fontconfig (by family, weight and slant; and, for characters the chosen
/// font lacks, the best installed font that has them) and opens them with FreeType. Faces are
/// opened once per file and size and shared.
public final class FontLibrary: @unchecked Sendable {
    /// The process's library, made on first use.
    public static func shared() throws(TextError) -> FontLibrary {
        try sharedLibrary.get()
    }

    private static let sharedLibrary = Result<FontLibrary, TextError> { () throws(TextError) -> FontLibrary in
        try FontLibrary()
    }

    private let config: OpaquePointer
    private let freetype: FT_Library
    private let lock = Mutex(())
    private var faces: [FaceKey: FontFace] = [:]
    private var fallbacks: [FallbackKey: FontFace?] = [:]

    public init() throws(TextError) {
        guard let config = FcInitLoadConfigAndFonts() else {
            throw TextError("fontconfig could not load its configuration")
        }
        var library: FT_Library?
        guard FT_Init_FreeType(&library) == 0, let library else {
            throw TextError("FreeType could not start")
        }
        self.config = config
        freetype = library
    }

    deinit {
        faces.removeAll()
        FT_Done_FreeType(freetype)
        FcConfigDestroy(config)
    }

    /// The installed font for `descriptor` at `size` pixels. A family that is not installed is
    /// an error naming it (fontconfig would silently substitute another).
    public func face(for descriptor: FontDescriptor, size: Double) throws(TextError) -> FontFace {
        let pattern = FcPatternCreate()!
        defer { FcPatternDestroy(pattern) }
        descriptor.family.withCString { family in
            family.withMemoryRebound(to: FcChar8.self, capacity: descriptor.family.utf8.count + 1) {
                _ = FcPatternAddString(pattern, "family", $0)
            }
        }
        addStyle(descriptor, to: pattern)
        guard let match = bestMatch(pattern) else {
            throw TextError("font '\(descriptor.family)' is not installed")
        }
        defer { FcPatternDestroy(match) }
        let families = strings(match, "family")
        guard families.contains(where: { $0.caseInsensitiveCompare(descriptor.family) }) else {
            throw TextError(
                "font '\(descriptor.family)' is not installed (the closest is '\(families.first ?? "none")'; `fc-list : family` lists the installed families)"
            )
        }
        return try open(match, size: size)
    }

    /// An installed font that has every scalar of `character`, preferring colour fonts for
    /// emoji; nil when none has it.
    public func fallback(for character: Character, like descriptor: FontDescriptor, size: Double) -> FontFace?
    {
        let key = FallbackKey(character: character, descriptor: descriptor, size: size)
        if let known = lock.withLock({ _ in fallbacks[key] }) { return known }
        let found = searchFallback(for: character, like: descriptor, size: size)
        lock.withLock { _ in fallbacks[key] = .some(found) }
        return found
    }

    private func searchFallback(for character: Character, like descriptor: FontDescriptor, size: Double)
        -> FontFace?
    {
        let scalars = character.unicodeScalars.filter {
            $0.value != 0x200D && !(0xFE00...0xFE0F).contains($0.value)
        }
        guard !scalars.isEmpty else { return nil }
        let pattern = FcPatternCreate()!
        defer { FcPatternDestroy(pattern) }
        let charset = FcCharSetCreate()!
        defer { FcCharSetDestroy(charset) }
        for scalar in scalars { FcCharSetAddChar(charset, scalar.value) }
        FcPatternAddCharSet(pattern, "charset", charset)
        if character.isEmojiLike { FcPatternAddBool(pattern, "color", 1) }
        addStyle(descriptor, to: pattern)
        FcConfigSubstitute(config, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        var result = FcResultMatch
        guard let set = FcFontSort(config, pattern, 1, nil, &result) else { return nil }
        defer { FcFontSetDestroy(set) }
        for i in 0..<Int(set.pointee.nfont) {
            guard let font = set.pointee.fonts[i] else { continue }
            var fontCharset: OpaquePointer?
            guard FcPatternGetCharSet(font, "charset", 0, &fontCharset) == FcResultMatch, let fontCharset,
                scalars.allSatisfy({ FcCharSetHasChar(fontCharset, $0.value) != 0 })
            else { continue }
            if let face = try? open(font, size: size) { return face }
        }
        return nil
    }

    private func addStyle(_ descriptor: FontDescriptor, to pattern: OpaquePointer) {
        FcPatternAddInteger(pattern, "weight", FcWeightFromOpenType(Int32(descriptor.weight)))
        FcPatternAddInteger(
            pattern, "slant", descriptor.italic ? Int32(FC_SLANT_ITALIC) : Int32(FC_SLANT_ROMAN))
    }

    private func bestMatch(_ pattern: OpaquePointer) -> OpaquePointer? {
        FcConfigSubstitute(config, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        var result = FcResultMatch
        return FcFontMatch(config, pattern, &result)
    }

    private func strings(_ pattern: OpaquePointer, _ key: String) -> [String] {
        var values: [String] = []
        var n: Int32 = 0
        var value: UnsafeMutablePointer<FcChar8>?
        while FcPatternGetString(pattern, key, n, &value) == FcResultMatch, let value {
            values.append(String(cString: value))
            n += 1
        }
        return values
    }

    private func open(_ pattern: OpaquePointer, size: Double) throws(TextError) -> FontFace {
        guard let path = strings(pattern, "file").first else {
            throw TextError("fontconfig gave a font without a file")
        }
        var index: Int32 = 0
        _ = FcPatternGetInteger(pattern, "index", 0, &index)
        let key = FaceKey(path: path, index: Int(index), size: size)
        return try lock.withLock { _ throws(TextError) -> FontFace in
            if let face = faces[key] { return face }
            let face = try FontFace(
                library: freetype, path: path, index: Int(index),
                family: strings(pattern, "family").first ?? path,
                size: size)
            faces[key] = face
            return face
        }
    }

    private struct FaceKey: Hashable {
        let path: String
        let index: Int
        let size: Double
    }

    private struct FallbackKey: Hashable {
        let character: Character
        let descriptor: FontDescriptor
        let size: Double
    }
}

extension String {
    fileprivate func caseInsensitiveCompare(_ other: String) -> Bool { lowercased() == other.lowercased() }
}

extension Character {
    /// Drawn as an emoji: emoji presentation by default, or asked for with VS16.
    var isEmojiLike: Bool {
        unicodeScalars.contains { $0.properties.isEmojiPresentation || $0.value == 0xFE0F }
    }
}
