import KilnMedia
import KilnRaster
import KilnText

/// Frames laid out in a grid on a dark sheet, each with a caption under it, and a title line
/// above: what `kiln sheet` and `kiln sweep` write. Every cell is the same size; the frames are
/// shrunk into it by area averaging (exact when the cell is the frame's size).
public struct FrameGrid: Sendable {
    public struct Cell: Sendable {
        public var frame: RGBA8Frame
        public var caption: String

        public init(frame: RGBA8Frame, caption: String) {
            self.frame = frame
            self.caption = caption
        }
    }

    public var title: String
    public var columns: Int
    public var cellWidth: Int
    public var cellHeight: Int

    static let background = SIMD3<UInt8>(24, 24, 28)
    static let captionColor = SIMD3<UInt8>(232, 232, 236)
    static let titleColor = SIMD3<UInt8>(255, 255, 255)
    /// The largest sheet written: 16384 pixels a side (what image viewers and browsers open).
    public static let maximumSide = 16384

    public init(title: String, columns: Int, cellWidth: Int, cellHeight: Int) {
        self.title = title
        self.columns = max(1, columns)
        self.cellWidth = cellWidth
        self.cellHeight = cellHeight
    }

    var gap: Int { max(8, cellWidth / 32) }
    var captionSize: Double { Double(min(max(12, cellWidth / 22), 28)) }
    var titleSize: Double { captionSize * 1.25 }
    var captionHeight: Int { Int((captionSize * 1.7).rounded(.up)) }
    var titleHeight: Int { Int((titleSize * 2).rounded(.up)) }

    /// The sheet's size for `count` cells.
    public func size(cells count: Int) -> (width: Int, height: Int) {
        let columns = min(self.columns, max(1, count))
        let rows = (max(1, count) + columns - 1) / columns
        return (
            gap + columns * (cellWidth + gap),
            titleHeight + rows * (cellHeight + captionHeight + gap)
        )
    }

    /// Draws the sheet. Text that no installed font can draw is left out rather than failing the
    /// sheet: the frames are what matters.
    public func compose(_ cells: [Cell]) throws(MediaError) -> RGBA8Frame {
        let (width, height) = size(cells: cells.count)
        let sheet = RGBA8Frame(width: width, height: height)
        fill(sheet, Self.background)
        let library = try? FontLibrary.shared()
        drawText(
            title, size: titleSize, color: Self.titleColor, at: (gap, gap / 2), maxWidth: width - 2 * gap,
            on: sheet, library: library)
        let columns = min(self.columns, max(1, cells.count))
        for (index, cell) in cells.enumerated() {
            let x = gap + (index % columns) * (cellWidth + gap)
            let y = titleHeight + (index / columns) * (cellHeight + captionHeight + gap)
            try place(cell.frame, on: sheet, x: x, y: y)
            drawText(
                cell.caption, size: captionSize, color: Self.captionColor,
                at: (x, y + cellHeight + Int(captionSize * 0.3)), maxWidth: cellWidth, on: sheet,
                library: library)
        }
        return sheet
    }

    private func fill(_ sheet: RGBA8Frame, _ color: SIMD3<UInt8>) {
        for i in 0..<(sheet.width * sheet.height) {
            let p = sheet.bytes + i * 4
            (p[0], p[1], p[2], p[3]) = (color.x, color.y, color.z, 255)
        }
    }

    /// The frame shrunk to the cell (copied as it is when it is the cell's size).
    /// `frame` shrunk to a cell, as soon as it is rendered: a sweep of 400 combinations of a
    /// 2560×1440 job holds 400 cells, not 400 frames (5.9 GB) until the sheet is composed.
    public func cell(_ frame: RGBA8Frame) throws(ExportError) -> RGBA8Frame {
        guard frame.width != cellWidth || frame.height != cellHeight else { return frame }
        let pixels: [UInt8]
        do throws(MediaError) {
            pixels = try ImageResizer.resize(
                rgba: frame.bytes, width: frame.width, height: frame.height, stride: frame.stride,
                toWidth: cellWidth, toHeight: cellHeight)
        } catch {
            throw .media(error)
        }
        let cell = RGBA8Frame(width: cellWidth, height: cellHeight)
        pixels.withUnsafeBufferPointer { source in
            for row in 0..<cellHeight {
                (cell.bytes + row * cell.stride).update(
                    from: source.baseAddress! + row * cellWidth * 4, count: cellWidth * 4)
            }
        }
        return cell
    }

    private func place(_ frame: RGBA8Frame, on sheet: RGBA8Frame, x: Int, y: Int) throws(MediaError) {
        let pixels: [UInt8]
        if frame.width == cellWidth && frame.height == cellHeight {
            pixels = frame.byteArray
        } else {
            pixels = try ImageResizer.resize(
                rgba: frame.bytes, width: frame.width, height: frame.height, stride: frame.stride,
                toWidth: cellWidth, toHeight: cellHeight)
        }
        pixels.withUnsafeBufferPointer { source in
            for row in 0..<cellHeight {
                (sheet.bytes + (y + row) * sheet.stride + x * 4).update(
                    from: source.baseAddress! + row * cellWidth * 4, count: cellWidth * 4)
            }
        }
    }

    /// One line of text (cut with an ellipsis to `maxWidth`), its top-left at `at`.
    private func drawText(
        _ text: String, size: Double, color: SIMD3<UInt8>, at: (x: Int, y: Int), maxWidth: Int,
        on sheet: RGBA8Frame, library: FontLibrary?
    ) {
        guard let library, !text.isEmpty,
            let layout = fitted(text, size: size, maxWidth: Double(maxWidth), library: library)
        else { return }
        let image = TextImage(layout, margin: 2)
        let origin = (x: at.x - image.margin + image.offset.x, y: at.y - image.margin + image.offset.y)
        if let coverage = image.coverage {
            paint(coverage, tint: color, on: sheet, at: origin)
        }
        if let colorGlyphs = image.color {
            paint(colorGlyphs, tint: nil, on: sheet, at: origin)
        }
    }

    /// The text on one line, shortened with "…" until it fits.
    private func fitted(_ text: String, size: Double, maxWidth: Double, library: FontLibrary) -> TextLayout? {
        var shown = text
        while true {
            guard
                let layout = try? TextLayout(
                    text: shown, font: FontDescriptor(family: "Noto Sans"), size: size, library: library)
            else { return nil }
            if layout.size.x <= maxWidth || shown.count <= 1 { return layout }
            shown = String(shown.dropLast(shown.hasSuffix("…") ? 2 : 1)) + "…"
        }
    }

    /// Premultiplied texels over the sheet; `tint` colours white coverage.
    private func paint(
        _ image: RasterImage, tint: SIMD3<UInt8>?, on sheet: RGBA8Frame, at origin: (x: Int, y: Int)
    ) {
        let level = image.levels[0]
        for row in 0..<level.height {
            let y = origin.y + row
            guard y >= 0 && y < sheet.height else { continue }
            for column in 0..<level.width {
                let x = origin.x + column
                guard x >= 0 && x < sheet.width else { continue }
                let texel = level.texels[row * level.stride + column]
                let alpha = Int(texel >> 24)
                guard alpha > 0 else { continue }
                var source = SIMD3<Int>(Int(texel & 0xFF), Int(texel >> 8 & 0xFF), Int(texel >> 16 & 0xFF))
                if let tint { source = SIMD3<Int>(Int(tint.x), Int(tint.y), Int(tint.z)) &* alpha / 255 }
                let p = sheet.bytes + y * sheet.stride + x * 4
                let under = SIMD3<Int>(Int(p[0]), Int(p[1]), Int(p[2]))
                let blended = source &+ (under &* (255 - alpha) &+ 127) / 255
                (p[0], p[1], p[2]) = (
                    UInt8(clamping: blended.x), UInt8(clamping: blended.y), UInt8(clamping: blended.z)
                )
            }
        }
    }
}
