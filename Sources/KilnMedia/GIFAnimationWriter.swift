import CFFmpeg

/// An animated GIF written by Kiln itself rather than by libavcodec's GIF encoder: that encoder
/// crops a frame to what changed and leaves unchanged pixels transparent only while the frame's
/// palette is the first frame's, so a palette per scene would cost a full redraw every frame.
///
/// Each frame is drawn over what is on screen: only the rectangle that changed, with the pixels
/// that did not change left transparent (long runs LZW packs into little), and a colour table of
/// just the colours it uses unless the scene's palette is the file's global one. A frame that
/// has transparent pixels needs a clear canvas, so the frame before it is disposed to the
/// background (and then drawn whole), which is why every frame waits for the next one.
///
/// Timing is GIF's hundredths of a second, rounded where each frame starts so they add up to the
/// video's length. A frame that would show for under 2/100 s (which browsers stretch to 1/10 s)
/// is left out, its time given to the one before; so is, under `maxBytes`, a frame that would
/// spend the budget faster than the video plays (after a quarter of it, kept for the start).
final class GIFAnimationWriter {
    struct Options {
        var maxBytes: Int?
        /// How many frames the video has, to spread `maxBytes` over them; 0 if unknown.
        var expectedFrames = 0
        /// How far a pixel's source may move (codes per channel) before it is drawn again.
        var stillThreshold = 2
    }

    private struct Pending {
        var start: Int
        var image: [UInt8]
        var transparentIndex: Int?
        /// Drawn over a clear canvas: its image covers everything it shows.
        var drewOnClearCanvas: Bool
        var indices: [UInt8]
        var colors: [UInt32]
        var useGlobal: Bool
        /// Its picture drawn whole over a clear canvas, made when the next frame needs one.
        var whole: (image: [UInt8], transparentIndex: Int?)?
    }

    let width: Int
    let height: Int
    private let frameRateNumerator: Int
    private let frameRateDenominator: Int
    private let options: Options
    private var io: UnsafeMutablePointer<AVIOContext>?
    private let palette: GIFPalette
    private let lzw = GIFLZW()
    private(set) var framesAppended = 0
    /// GIF frames (images) written, fewer than appended when frames are left out.
    private(set) var imagesWritten = 0
    private(set) var bytesWritten = 0

    /// What is on screen once the pending frame is drawn: 0xFFRRGGBB, or 0 where transparent.
    private var canvas: [UInt32]
    private var shownIndices: [UInt8]
    private var shownSources: [UInt32]
    private var shownGeneration = -1
    private var pending: Pending?
    private var globalColors: [UInt32]?
    private var globalGeneration = -1
    private var frameIndices: [UInt8] = []
    private var frameSources: [UInt32] = []

    init(
        path: String, width: Int, height: Int, frameRateNumerator: Int, frameRateDenominator: Int,
        options: Options
    )
        throws(MediaError)
    {
        self.width = width
        self.height = height
        self.frameRateNumerator = frameRateNumerator
        self.frameRateDenominator = frameRateDenominator
        self.options = options
        palette = GIFPalette(width: width, height: height)
        canvas = [UInt32](repeating: 0, count: width * height)
        shownIndices = [UInt8](repeating: UInt8(GIFPalette.transparentIndex), count: width * height)
        shownSources = [UInt32](repeating: 0, count: width * height)
        try check(avio_open(&io, path, kiln_avio_flag_write()), "avio_open")
    }

    deinit { abort() }

    /// Closes the file without a trailer (the caller deletes it).
    func abort() {
        if io != nil { avio_closep(&io) }
    }

    /// Hundredths of a second from the start to frame `n`.
    private func centiseconds(_ n: Int) -> Int {
        let numerator = n * 100 * frameRateDenominator
        return (numerator + frameRateNumerator / 2) / frameRateNumerator
    }

    func append(rgba: UnsafePointer<UInt8>, stride: Int) throws(MediaError) {
        let n = framesAppended
        framesAppended += 1
        if let pending, centiseconds(n) - centiseconds(pending.start) < 2 { return }
        let translucent = hasTransparency(rgba: rgba, stride: stride)
        if !palette.fits(rgba: rgba, stride: stride) { palette.rebuild(rgba: rgba, stride: stride) }
        let sameGeneration = shownGeneration == palette.generation
        palette.quantize(
            rgba: rgba, stride: stride, into: &frameIndices, sources: &frameSources,
            shown: sameGeneration ? (shownIndices, shownSources) : nil, threshold: options.stillThreshold)
        if globalColors == nil {
            globalColors = palette.colors
            globalGeneration = palette.generation
        }
        let clearBefore = translucent || pending == nil
        let useGlobal = palette.generation == globalGeneration
        let (image, transparentIndex) = encodeImage(
            indices: frameIndices, colors: palette.colors, over: clearBefore ? nil : canvas,
            useGlobal: useGlobal, reservingTransparency: translucent)

        if translucent, var before = pending, !before.drewOnClearCanvas, before.whole == nil {
            // With a transparent index, also where none is used: a decoder disposes of a frame
            // without one to the background colour (FFmpeg does) rather than to transparency.
            before.whole = encodeImage(
                indices: before.indices, colors: before.colors, over: nil, useGlobal: before.useGlobal,
                reservingTransparency: true)
            pending = before
        }
        let pendingBytes =
            pending.map { (translucent ? ($0.whole?.image ?? $0.image) : $0.image).count + 8 } ?? 0
        let headerBytes = bytesWritten == 0 ? 6 + 7 + 768 + 19 : 0
        let total = bytesWritten + headerBytes + pendingBytes + image.count + 8 + 1
        if let maxBytes = options.maxBytes {
            if pending == nil, total > maxBytes {
                throw MediaError.failure(
                    "GIF",
                    "the first frame alone takes \(total) bytes at \(width)×\(height), more than the "
                        + "\(maxBytes) allowed; allow more bytes or render smaller (--scale)")
            }
            // Raising the still threshold instead left ghosts of moving edges and contours in
            // moving gradients (a kept index leans on neighbours drawn anew): fewer, clean frames.
            if pending != nil, total > allowedBytes(afterFrame: n, of: maxBytes) { return }
        }

        if let before = pending {
            let drawn =
                translucent && !before.drewOnClearCanvas
                ? before.whole! : (before.image, before.transparentIndex)
            try write(
                image: drawn.0, transparentIndex: drawn.1, disposeToBackground: translucent,
                delay: centiseconds(n) - centiseconds(before.start))
        }
        pending = Pending(
            start: n, image: image, transparentIndex: transparentIndex, drewOnClearCanvas: clearBefore,
            indices: frameIndices, colors: palette.colors, useGlobal: useGlobal)
        let colors = palette.colors
        let transparent = UInt8(GIFPalette.transparentIndex)
        for i in canvas.indices {
            let index = frameIndices[i]
            canvas[i] = index == transparent ? 0 : colors[Int(index)]
        }
        swap(&shownIndices, &frameIndices)
        swap(&shownSources, &frameSources)
        shownGeneration = palette.generation
    }

    /// What may have been spent once frame `n` is in: a quarter of the budget at once (the first
    /// frames draw everything), the rest as the video plays.
    private func allowedBytes(afterFrame n: Int, of maxBytes: Int) -> Int {
        guard options.expectedFrames > 0 else { return maxBytes }
        let played = min(1, Double(n + 1) / Double(options.expectedFrames))
        return Int(Double(maxBytes) * min(1, 0.25 + 0.75 * played))
    }

    /// Writes the last frame and the trailer, closes the file; returns the frames appended.
    func finish() throws(MediaError) -> Int {
        guard let before = pending else {
            throw MediaError.failure("GIF", "no frames to write")
        }
        try write(
            image: before.image, transparentIndex: before.transparentIndex, disposeToBackground: false,
            delay: centiseconds(framesAppended) - centiseconds(before.start))
        pending = nil
        try put([0x3B])
        try check(avio_closep(&io), "avio_closep")
        return framesAppended
    }

    private func hasTransparency(rgba: UnsafePointer<UInt8>, stride: Int) -> Bool {
        for y in 0..<height {
            let row = rgba + y * stride
            for x in 0..<width where row[4 * x + 3] < 128 { return true }
        }
        return false
    }

    // MARK: - Bytes

    private func put(_ bytes: [UInt8]) throws(MediaError) {
        guard let io else { throw MediaError.failure("GIF", "the file is closed") }
        bytes.withUnsafeBufferPointer { avio_write(io, $0.baseAddress, Int32($0.count)) }
        bytesWritten += bytes.count
        if io.pointee.error < 0 { try check(io.pointee.error, "avio_write") }
    }

    private func write(image: [UInt8], transparentIndex: Int?, disposeToBackground: Bool, delay: Int)
        throws(MediaError)
    {
        if bytesWritten == 0 { try put(header()) }
        let disposal: UInt8 = disposeToBackground ? 2 : 1
        let delay = min(max(delay, 0), 65535)
        let control: [UInt8] = [
            0x21, 0xF9, 0x04, disposal << 2 | (transparentIndex == nil ? 0 : 1),
            UInt8(delay & 0xFF), UInt8(delay >> 8), UInt8(transparentIndex ?? 0), 0,
        ]
        try put(control + image)
        imagesWritten += 1
    }

    /// GIF89a, the screen with the first scene's palette as the global colour table, and
    /// NETSCAPE2.0's loop forever.
    private func header() -> [UInt8] {
        var bytes = Array("GIF89a".utf8)
        bytes += le16(width) + le16(height) + [0xF7, 0, 0]
        for color in globalColors ?? [UInt32](repeating: 0, count: 256) {
            bytes += [UInt8(color >> 16 & 0xFF), UInt8(color >> 8 & 0xFF), UInt8(color & 0xFF)]
        }
        bytes += [0x21, 0xFF, 0x0B] + Array("NETSCAPE2.0".utf8) + [0x03, 0x01, 0x00, 0x00, 0x00]
        return bytes
    }

    private func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }

    /// The image descriptor, colour table and LZW data of `indices` (on `colours`) drawn over
    /// `reference` (nil: a clear canvas): the rectangle of pixels that change, the others in it
    /// transparent; and the transparent index, if any pixel is.
    private func encodeImage(
        indices: [UInt8], colors: [UInt32], over reference: [UInt32]?, useGlobal: Bool,
        reservingTransparency: Bool = false
    ) -> (image: [UInt8], transparentIndex: Int?) {
        let transparent = UInt8(GIFPalette.transparentIndex)
        var left = width, top = height, right = -1, bottom = -1
        var used = [Bool](repeating: false, count: 256)
        var changed = [Bool](repeating: false, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let i = y * width + x
                let index = indices[i]
                let color = index == transparent ? 0 : colors[Int(index)]
                guard color != (reference?[i] ?? 0) else { continue }
                changed[i] = true
                used[Int(index)] = true
                left = min(left, x)
                right = max(right, x)
                top = min(top, y)
                bottom = max(bottom, y)
            }
        }
        if right < 0 { (left, top, right, bottom) = (0, 0, 0, 0) }
        var anyUnchanged = reservingTransparency
        for y in top...bottom where !anyUnchanged {
            for x in left...right where !changed[y * width + x] {
                anyUnchanged = true
                break
            }
            if anyUnchanged { break }
        }

        // Palette index → code in this image.
        var code = [UInt8](repeating: 0, count: 256)
        var table: [UInt32] = []
        var transparentCode: Int? = nil
        var bits = 8
        let usedCount = used.lazy.filter { $0 }.count
        if useGlobal && usedCount > 64 {
            for i in 0..<256 { code[i] = UInt8(i) }
            transparentCode = anyUnchanged ? GIFPalette.transparentIndex : nil
        } else {
            for i in 0..<256 where used[i] {
                code[i] = UInt8(table.count)
                table.append(colors[i])
            }
            if anyUnchanged {
                transparentCode = table.count
                table.append(0)
            }
            bits = 1
            while 1 << bits < table.count { bits += 1 }
            table += [UInt32](repeating: 0, count: (1 << bits) - table.count)
        }
        let rectWidth = right - left + 1, rectHeight = bottom - top + 1
        var stream = [UInt8](repeating: 0, count: rectWidth * rectHeight)
        for y in top...bottom {
            for x in left...right {
                let i = y * width + x
                stream[(y - top) * rectWidth + (x - left)] =
                    changed[i] ? code[Int(indices[i])] : UInt8(transparentCode ?? 0)
            }
        }
        var bytes: [UInt8] = [0x2C] + le16(left) + le16(top) + le16(rectWidth) + le16(rectHeight)
        if table.isEmpty {
            bytes.append(0)
        } else {
            bytes.append(0x80 | UInt8(bits - 1))
            for color in table {
                bytes += [UInt8(color >> 16 & 0xFF), UInt8(color >> 8 & 0xFF), UInt8(color & 0xFF)]
            }
        }
        stream.withUnsafeBufferPointer { lzw.encode($0, minimumCodeSize: max(2, bits), into: &bytes) }
        return (bytes, transparentCode)
    }
}
