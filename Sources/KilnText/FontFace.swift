import CFreeType
import CHarfBuzz
import KilnRaster
import Synchronization

/// One font file's face at one pixel size, with its HarfBuzz font for shaping and the glyphs
/// rasterized from it so far. FreeType faces are not thread-safe: every use goes through the
/// lock, and layouts are made once, before any frame is painted.
public final class FontFace: @unchecked Sendable {
    public let path: String
    public let index: Int
    public let family: String
    /// The pixel size asked for.
    public let size: Double
    /// Pixels per font unit of the shaping and of the glyph bitmaps: 1 for outline fonts set to
    /// `size`, `size / strike` for bitmap-only fonts (colour emoji), whose one strike is scaled.
    let scale: Double
    public let isColor: Bool
    let face: FT_Face
    let font: OpaquePointer
    /// The library the face was opened with, for FreeType's stroker.
    private let library: FT_Library
    private let lock = Mutex(())
    private var glyphs: [GlyphKey: GlyphBitmap] = [:]

    /// Ascender and descender (positive below the baseline) in pixels, and the line gap.
    public let ascender: Double
    public let descender: Double
    public let lineGap: Double

    init(library: FT_Library, path: String, index: Int, family: String, size: Double) throws(TextError) {
        var face: FT_Face?
        guard FT_New_Face(library, path, index, &face) == 0, let face else {
            throw TextError("cannot open font file \(path)")
        }
        self.face = face
        self.library = library
        self.path = path
        self.index = index
        self.family = family
        self.size = size
        let scalable = face.pointee.face_flags & FT_Long(FT_FACE_FLAG_SCALABLE) != 0
        if scalable {
            FT_Set_Char_Size(face, 0, FT_F26Dot6((size * 64).rounded()), 72, 72)
            scale = 1
        } else {
            // Bitmap-only (CBDT colour emoji): the strike nearest above the size, scaled down.
            var best = 0
            let count = Int(face.pointee.num_fixed_sizes)
            for i in 0..<count {
                let ppem = Double(face.pointee.available_sizes[i].y_ppem) / 64
                let bestPpem = Double(face.pointee.available_sizes[best].y_ppem) / 64
                if (ppem >= size && (bestPpem < size || ppem < bestPpem))
                    || (bestPpem < size && ppem > bestPpem)
                {
                    best = i
                }
            }
            guard count > 0, FT_Select_Size(face, FT_Int(best)) == 0 else {
                FT_Done_Face(face)
                throw TextError("font \(path) has neither outlines nor usable bitmap sizes")
            }
            scale = size / (Double(face.pointee.available_sizes[best].y_ppem) / 64)
        }
        isColor = face.pointee.face_flags & FT_Long(FT_FACE_FLAG_COLOR) != 0
        let metrics = face.pointee.size.pointee.metrics
        ascender = Double(metrics.ascender) / 64 * scale
        descender = -Double(metrics.descender) / 64 * scale
        lineGap = max(0, Double(metrics.height) / 64 * scale - ascender - descender)
        font = hb_ft_font_create_referenced(face)
        hb_ft_font_set_load_flags(font, Int32(FT_LOAD_NO_HINTING | FT_LOAD_COLOR))
    }

    deinit {
        hb_font_destroy(font)
        FT_Done_Face(face)
    }

    /// Whether the face has a glyph for every scalar of `character`.
    public func covers(_ character: Character) -> Bool {
        lock.withLock { _ in
            character.unicodeScalars.allSatisfy { scalar in
                // Joiners and variation selectors are handled by shaping, not by the cmap.
                scalar.value == 0x200D || (0xFE00...0xFE0F).contains(scalar.value)
                    || FT_Get_Char_Index(face, FT_ULong(scalar.value)) != 0
            }
        }
    }

    /// Shapes `text` (one run in this face): glyph ids, pixel advances and offsets, and the UTF-8
    /// offset in `text` of each glyph's cluster.
    public func shape(_ text: String, direction: hb_direction_t = HB_DIRECTION_LTR) -> [ShapedGlyph] {
        lock.withLock { _ in
            let buffer = hb_buffer_create()
            defer { hb_buffer_destroy(buffer) }
            let bytes = Array(text.utf8)
            bytes.withUnsafeBufferPointer { utf8 in
                utf8.withMemoryRebound(to: CChar.self) { chars in
                    hb_buffer_add_utf8(buffer, chars.baseAddress, Int32(bytes.count), 0, Int32(bytes.count))
                }
            }
            hb_buffer_guess_segment_properties(buffer)
            hb_buffer_set_direction(buffer, direction)
            hb_shape(font, buffer, nil, 0)
            var count: UInt32 = 0
            guard let infos = hb_buffer_get_glyph_infos(buffer, &count),
                let positions = hb_buffer_get_glyph_positions(buffer, &count)
            else { return [] }
            // hb-ft reports positions in 26.6 pixels of the face's size.
            let unit = scale / 64
            return (0..<Int(count)).map { i in
                ShapedGlyph(
                    glyph: infos[i].codepoint, cluster: Int(infos[i].cluster),
                    advance: Double(positions[i].x_advance) * unit,
                    offset: SIMD2(Double(positions[i].x_offset) * unit, -Double(positions[i].y_offset) * unit)
                )
            }
        }
    }

    /// The glyph's bitmap with its origin at a horizontal sub-pixel phase (quarter pixels), made
    /// once and cached: unhinted outlines at fractional positions keep moving text steady.
    public func bitmap(glyph: UInt32, phase: Int) -> GlyphBitmap {
        let key = GlyphKey(glyph: glyph, phase: isColor ? 0 : phase)
        return lock.withLock { _ in
            if let cached = glyphs[key] { return cached }
            let made = rasterize(key)
            glyphs[key] = made
            return made
        }
    }

    /// The glyph grown by `radius` pixels outwards (its outline's outside border from
    /// FreeType's stroker, round joins), as coverage at a quarter-pixel `phase`: a text stroke
    /// drawn beneath the glyphs. Empty for colour glyphs, which have no outline. Made anew each
    /// time and not kept by the face, which outlives the job: its caller keeps what one text
    /// reuses (`TextImage`), so a stroke's pictures are held only while that text is drawn.
    public func strokedBitmap(glyph: UInt32, phase: Int, radius: Double) -> GlyphBitmap {
        guard !isColor, radius > 0 else { return .empty }
        let key = StrokeKey(
            glyph: glyph, phase: phase,
            radius: SaturatingConversion.int(radius * 64, .toNearestOrAwayFromZero))
        // FreeType's face and its glyph slot are shared with `bitmap(glyph:phase:)`.
        return lock.withLock { _ in rasterizeStroke(key) }
    }

    private func rasterizeStroke(_ key: StrokeKey) -> GlyphBitmap {
        guard FT_Load_Glyph(face, key.glyph, Int32(FT_LOAD_NO_HINTING)) == 0,
            face.pointee.glyph.pointee.format == FT_GLYPH_FORMAT_OUTLINE
        else { return .empty }
        var glyph: FT_Glyph?
        guard FT_Get_Glyph(face.pointee.glyph, &glyph) == 0, glyph != nil else { return .empty }
        // StrokeBorder and To_Bitmap replace the glyph, freeing the one they were given.
        defer { if let glyph { FT_Done_Glyph(glyph) } }
        var made: FT_Stroker?
        guard FT_Stroker_New(library, &made) == 0, let stroker = made else { return .empty }
        defer { FT_Stroker_Done(stroker) }
        FT_Stroker_Set(stroker, FT_Fixed(key.radius), FT_STROKER_LINECAP_ROUND, FT_STROKER_LINEJOIN_ROUND, 0)
        // The outside border: the glyph's shape grown by the radius, holes shrunk alike.
        guard FT_Glyph_StrokeBorder(&glyph, stroker, 0, 1) == 0 else { return .empty }
        var origin = FT_Vector(x: FT_Pos(key.phase * 16), y: 0)
        guard FT_Glyph_To_Bitmap(&glyph, FT_RENDER_MODE_NORMAL, &origin, 1) == 0 else { return .empty }
        guard let bitmapGlyph = glyph else { return .empty }
        let rendered = UnsafeMutableRawPointer(bitmapGlyph).assumingMemoryBound(to: FT_BitmapGlyphRec.self)
            .pointee
        let bitmap = rendered.bitmap
        let width = Int(bitmap.width), height = Int(bitmap.rows), pitch = Int(bitmap.pitch)
        guard width > 0, height > 0, let buffer = bitmap.buffer,
            Int32(bitmap.pixel_mode) == Int32(FT_PIXEL_MODE_GRAY.rawValue)
        else { return .empty }
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let c = buffer[y * pitch + x]
                let i = (y * width + x) * 4
                (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3]) = (c, c, c, c)
            }
        }
        return GlyphBitmap(
            width: width, height: height, left: Int(rendered.left), top: Int(rendered.top), scale: scale,
            premultipliedRGBA: pixels, isColor: false)
    }

    private func rasterize(_ key: GlyphKey) -> GlyphBitmap {
        guard FT_Load_Glyph(face, key.glyph, Int32(FT_LOAD_NO_HINTING | FT_LOAD_COLOR)) == 0 else {
            return .empty
        }
        let slot = face.pointee.glyph!
        if slot.pointee.format == FT_GLYPH_FORMAT_OUTLINE {
            FT_Outline_Translate(&slot.pointee.outline, FT_Pos(key.phase * 16), 0)
        }
        guard
            slot.pointee.format == FT_GLYPH_FORMAT_BITMAP || FT_Render_Glyph(slot, FT_RENDER_MODE_NORMAL) == 0
        else { return .empty }
        let bitmap = slot.pointee.bitmap
        let width = Int(bitmap.width), height = Int(bitmap.rows), pitch = Int(bitmap.pitch)
        guard width > 0, height > 0, let buffer = bitmap.buffer else { return .empty }
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        switch Int32(bitmap.pixel_mode) {
        case Int32(FT_PIXEL_MODE_GRAY.rawValue):
            // Coverage only: stored as premultiplied white, tinted when drawn.
            for y in 0..<height {
                for x in 0..<width {
                    let c = buffer[y * pitch + x]
                    let i = (y * width + x) * 4
                    (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3]) = (c, c, c, c)
                }
            }
        case Int32(FT_PIXEL_MODE_BGRA.rawValue):
            for y in 0..<height {
                for x in 0..<width {
                    let s = y * pitch + x * 4, i = (y * width + x) * 4
                    (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3]) = (
                        buffer[s + 2], buffer[s + 1], buffer[s], buffer[s + 3]
                    )
                }
            }
        default:
            return .empty
        }
        return GlyphBitmap(
            width: width, height: height, left: Int(slot.pointee.bitmap_left),
            top: Int(slot.pointee.bitmap_top),
            scale: scale, premultipliedRGBA: pixels,
            isColor: Int32(bitmap.pixel_mode) == Int32(FT_PIXEL_MODE_BGRA.rawValue))
    }
}

struct StrokeKey: Hashable {
    let glyph: UInt32
    let phase: Int
    /// 26.6 pixels.
    let radius: Int
}

struct GlyphKey: Hashable {
    let glyph: UInt32
    /// Quarter-pixel horizontal phase, 0…3.
    let phase: Int
}
