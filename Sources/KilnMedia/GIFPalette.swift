/// One GIF frame's palette and indices, made from straight-alpha RGBA: a median-cut palette of
/// the frame's own colours (as FFmpeg's palettegen does, on a 5-bit-per-channel histogram; each
/// entry the mean of the colours it stands for) and Floyd–Steinberg error diffusion onto it (as
/// paletteuse does), so gradients become fine grain rather than bands. Pixels under half
/// coverage become the one transparent entry, which GIF has instead of alpha.
///
/// Each frame gets its own palette (a GIF local colour table): an animation whose colours change
/// keeps 256 good colours in every frame instead of sharing them with frames it does not look like.
final class GIFPalette {
    static let transparentIndex = 255
    private static let histogramSize = 1 << 15

    let width: Int
    let height: Int
    /// 0xAARRGGBB per entry, as libavcodec's PAL8 frames take it.
    private(set) var colours = [UInt32](repeating: 0, count: 256)
    /// One palette index per pixel, row after row.
    private(set) var indices: [UInt8]

    // The last frame's histogram, kept for the median cut.
    private var counts = [Int](repeating: 0, count: histogramSize)
    private var sums = [SIMD3<Int>](repeating: .zero, count: histogramSize)
    private var entries: [SIMD3<Float>] = []
    /// Entry indices in order of green, and their greens: the nearest-colour search starts at
    /// the wanted green and stops once green alone is farther than the best found.
    private var byGreen: [Int] = []
    private var greens: [Float] = []
    private var cacheKeys = [Int32](repeating: -1, count: 1 << 16)
    private var cacheValues = [UInt8](repeating: 0, count: 1 << 16)

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        indices = [UInt8](repeating: 0, count: width * height)
    }

    /// Builds this frame's palette and indices from `rgba` (straight alpha, `stride` bytes a row).
    func quantize(rgba: UnsafePointer<UInt8>, stride: Int) {
        let hasTransparency = buildHistogram(rgba: rgba, stride: stride)
        let boxes = MedianCut.boxes(counts: counts, sums: sums, maximum: hasTransparency ? 255 : 256)
        entries = boxes.map { $0.mean }
        byGreen = entries.indices.sorted { entries[$0].y < entries[$1].y }
        greens = byGreen.map { entries[$0].y }
        // Unused entries are opaque black: libavcodec's GIF encoder takes the first entry with
        // the least alpha (under half) as the transparent one, which must be `transparentIndex`.
        colours = [UInt32](repeating: 0xFF00_0000, count: 256)
        for (i, entry) in entries.enumerated() {
            let c = SIMD3<UInt32>(
                (entry.rounded(.toNearestOrEven)).clamped(
                    lowerBound: .zero, upperBound: SIMD3(repeating: 255)))
            colours[i] = 0xFF00_0000 | c.x << 16 | c.y << 8 | c.z
        }
        if hasTransparency { colours[Self.transparentIndex] = 0 }
        cacheKeys.withUnsafeMutableBufferPointer { $0.update(repeating: -1) }
        diffuse(rgba: rgba, stride: stride)
    }

    /// Counts opaque pixels per 5-bit cell, with the exact colours' sums; true if any pixel is
    /// transparent. Works on local buffers: class properties in a per-pixel loop cost an
    /// exclusivity check per access.
    private func buildHistogram(rgba: UnsafePointer<UInt8>, stride: Int) -> Bool {
        var counts = [Int](repeating: 0, count: Self.histogramSize)
        var sums = [SIMD3<Int>](repeating: .zero, count: Self.histogramSize)
        var transparent = false
        let (width, height) = (self.width, self.height)
        counts.withUnsafeMutableBufferPointer { counts in
            sums.withUnsafeMutableBufferPointer { sums in
                for y in 0..<height {
                    let row = rgba + y * stride
                    for x in 0..<width {
                        let p = row + 4 * x
                        if p[3] < 128 {
                            transparent = true
                            continue
                        }
                        let key = Int(p[0] >> 3) << 10 | Int(p[1] >> 3) << 5 | Int(p[2] >> 3)
                        counts[key] += 1
                        sums[key] &+= SIMD3(Int(p[0]), Int(p[1]), Int(p[2]))
                    }
                }
            }
        }
        self.counts = counts
        self.sums = sums
        return transparent
    }

    /// Floyd–Steinberg, left to right: 7/16 right, 3/16 below left, 5/16 below, 1/16 below right.
    private func diffuse(rgba: UnsafePointer<UInt8>, stride: Int) {
        let width = self.width, height = self.height
        var current = [SIMD3<Float>](repeating: .zero, count: width + 2)
        var next = current
        var indices = self.indices
        let entries = self.entries
        let transparent = UInt8(Self.transparentIndex)
        indices.withUnsafeMutableBufferPointer { out in
            for y in 0..<height {
                let row = rgba + y * stride
                for i in next.indices { next[i] = .zero }
                current.withUnsafeMutableBufferPointer { here in
                    next.withUnsafeMutableBufferPointer { below in
                        for x in 0..<width {
                            let p = row + 4 * x
                            if p[3] < 128 || entries.isEmpty {
                                out[y * width + x] = transparent
                                continue
                            }
                            let wanted = (SIMD3<Float>(Float(p[0]), Float(p[1]), Float(p[2])) + here[x + 1])
                                .clamped(lowerBound: .zero, upperBound: SIMD3(repeating: 255))
                            let index = nearest(wanted)
                            out[y * width + x] = UInt8(index)
                            let error = wanted - entries[index]
                            here[x + 2] += error * (7.0 / 16)
                            below[x] += error * (3.0 / 16)
                            below[x + 1] += error * (5.0 / 16)
                            below[x + 2] += error * (1.0 / 16)
                        }
                    }
                }
                swap(&current, &next)
            }
        }
        self.indices = indices
    }

    /// The entry closest to `colour` (squared RGB distance), cached by the rounded colour.
    private func nearest(_ colour: SIMD3<Float>) -> Int {
        let c = SIMD3<Int32>(colour.rounded(.toNearestOrEven))
        let key = c.x << 16 | c.y << 8 | c.z
        let slot = Int((key ^ key >> 16) & 0xFFFF)
        if cacheKeys[slot] == key { return Int(cacheValues[slot]) }
        let exact = SIMD3<Float>(c)
        var best = 0, bestDistance = Float.infinity
        // The first entry at or above the wanted green, then outwards both ways.
        var low = 0, high = greens.count
        while low < high {
            let mid = (low + high) / 2
            if greens[mid] < exact.y { low = mid + 1 } else { high = mid }
        }
        var up = low, down = low - 1
        while up < greens.count || down >= 0 {
            let upGap = up < greens.count ? greens[up] - exact.y : .infinity
            let downGap = down >= 0 ? exact.y - greens[down] : .infinity
            let takeUp = upGap <= downGap
            let gap = takeUp ? upGap : downGap
            if gap * gap >= bestDistance { break }
            let index = byGreen[takeUp ? up : down]
            let d = entries[index] - exact
            let distance = (d * d).sum()
            if distance < bestDistance {
                bestDistance = distance
                best = index
            }
            if takeUp { up += 1 } else { down -= 1 }
        }
        cacheKeys[slot] = key
        cacheValues[slot] = UInt8(best)
        return best
    }
}

/// Median cut over a colour histogram: the box with the most squared error is split at the
/// count-weighted median of its widest channel until there are enough boxes.
enum MedianCut {
    struct Cell {
        var count: Int
        var sum: SIMD3<Int>
        var mean: SIMD3<Float> { SIMD3<Float>(sum) / Float(count) }
    }

    struct Box {
        var cells: [Cell]
        var count: Int { cells.reduce(0) { $0 + $1.count } }
        var mean: SIMD3<Float> {
            let total = cells.reduce(SIMD3<Int>.zero) { $0 &+ $1.sum }
            return SIMD3<Float>(total) / Float(max(1, count))
        }
        /// The sum of squared distances of its pixels (as cell means) from its mean.
        var error: Float {
            let m = mean
            return cells.reduce(0) { total, cell in
                let d = cell.mean - m
                return total + Float(cell.count) * (d * d).sum()
            }
        }
    }

    static func boxes(counts: [Int], sums: [SIMD3<Int>], maximum: Int) -> [Box] {
        var cells: [Cell] = []
        for key in counts.indices where counts[key] > 0 {
            cells.append(Cell(count: counts[key], sum: sums[key]))
        }
        guard !cells.isEmpty else { return [] }
        var boxes = [Box(cells: cells)]
        var errors = [boxes[0].error]
        while boxes.count < maximum {
            guard
                let worst = errors.indices.filter({ boxes[$0].cells.count > 1 }).max(by: {
                    errors[$0] < errors[$1]
                }),
                errors[worst] > 0
            else { break }
            let (low, high) = split(boxes[worst])
            boxes[worst] = low
            errors[worst] = low.error
            boxes.append(high)
            errors.append(high.error)
        }
        return boxes
    }

    private static func split(_ box: Box) -> (Box, Box) {
        let means = box.cells.map(\.mean)
        let lower = means.reduce(SIMD3<Float>(repeating: .infinity)) { pointwiseMin($0, $1) }
        let upper = means.reduce(SIMD3<Float>(repeating: -.infinity)) { pointwiseMax($0, $1) }
        let extent = upper - lower
        let axis = extent.x >= extent.y && extent.x >= extent.z ? 0 : (extent.y >= extent.z ? 1 : 2)
        let sorted = box.cells.sorted { $0.mean[axis] < $1.mean[axis] }
        let half = box.count / 2
        var running = 0, cut = 1
        for (i, cell) in sorted.enumerated() {
            running += cell.count
            if running >= half {
                cut = max(1, min(sorted.count - 1, i + 1))
                break
            }
        }
        return (Box(cells: Array(sorted[..<cut])), Box(cells: Array(sorted[cut...])))
    }
}
