/// A GIF scene's palette and each frame's indices on it, from straight-alpha RGBA: a median-cut
/// palette (as FFmpeg's palettegen does, on a 5-bit-per-channel histogram; each entry the mean of
/// the colours it stands for) and Floyd–Steinberg error diffusion onto it (as paletteuse does), so
/// gradients become fine grain rather than bands. Pixels under half coverage become the one
/// transparent entry, which GIF has instead of alpha.
///
/// The palette is held across a scene and remade only when a frame no longer fits it (`fits`):
/// a cut, a transition, new colours coming in. A palette per frame would flicker (every frame's
/// grain and colours shift) and cost a full redraw each frame; one for the whole video would
/// band whatever it did not foresee.
final class GIFPalette {
    /// The entry kept free: transparent pixels, and pixels a frame leaves as the last one drew them.
    static let transparentIndex = 255
    private static let histogramSize = 1 << 15
    /// A sampled pixel farther than this (RGB distance in codes) from every entry is badly served.
    private static let outlierDistance: Float = 24
    /// The farthest (codes in any channel) a kept index may be from its pixel's source.
    private static let keptDistance: Float = 24

    let width: Int
    let height: Int
    /// 0xFFRRGGBB per entry (`count` of them), as GIF colour tables and PAL8 frames take them.
    private(set) var colors = [UInt32](repeating: 0xFF00_0000, count: 256)
    private(set) var count = 0
    /// Bumped by every `rebuild`: indices of one generation mean nothing in another.
    private(set) var generation = 0

    // The last frame's histogram, kept for the median cut.
    private var counts = [Int](repeating: 0, count: histogramSize)
    private var sums = [SIMD3<Int>](repeating: .zero, count: histogramSize)
    private var entries: [SIMD3<Float>] = []
    /// Entry indices in order of green, and their greens: the nearest-colour search starts at
    /// the wanted green and stops once green alone is farther than the best found.
    private var byGreen: [Int] = []
    private var greens: [Float] = []
    /// The nearest entry per 6-bit-per-channel cell (-1: not yet asked), found for the first
    /// colour asked in the cell: a cell is 4 codes wide, which the error diffusion carries on,
    /// and a search per distinct dithered colour made a frame take a third of a second.
    private var nearestInCell = [Int16](repeating: -1, count: 1 << 18)
    /// How well the palette served the frame it was made from: mean squared distance of the
    /// sampled pixels and the share of them that were badly served.
    private var madeFor = Fit(meanSquaredError: 0, outlierShare: 0)

    struct Fit {
        var meanSquaredError: Float
        var outlierShare: Float
    }

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Whether this palette still serves `rgba` about as well as the frame it was made from:
    /// neither the mean error nor the share of badly served pixels has doubled (with a floor, so
    /// a palette that was nearly exact does not give way to grain).
    func fits(rgba: UnsafePointer<UInt8>, stride: Int) -> Bool {
        guard count > 0 else { return false }
        let now = fit(rgba: rgba, stride: stride)
        return now.meanSquaredError <= max(2 * madeFor.meanSquaredError, madeFor.meanSquaredError + 16)
            && now.outlierShare <= max(2 * madeFor.outlierShare, 0.002)
    }

    /// Makes a new palette from `rgba`'s colours.
    func rebuild(rgba: UnsafePointer<UInt8>, stride: Int) {
        buildHistogram(rgba: rgba, stride: stride)
        let boxes = MedianCut.boxes(counts: counts, sums: sums, maximum: Self.transparentIndex)
        entries = boxes.map { $0.mean }
        byGreen = entries.indices.sorted { entries[$0].y < entries[$1].y }
        greens = byGreen.map { entries[$0].y }
        colors = [UInt32](repeating: 0xFF00_0000, count: 256)
        for (i, entry) in entries.enumerated() {
            let c = SIMD3<UInt32>(
                (entry.rounded(.toNearestOrEven)).clamped(
                    lowerBound: .zero, upperBound: SIMD3(repeating: 255)))
            colors[i] = 0xFF00_0000 | c.x << 16 | c.y << 8 | c.z
        }
        count = entries.count
        generation += 1
        nearestInCell.withUnsafeMutableBufferPointer { $0.update(repeating: -1) }
        madeFor = fit(rgba: rgba, stride: stride)
    }

    /// Every other pixel of every other row, measured against the palette.
    private func fit(rgba: UnsafePointer<UInt8>, stride: Int) -> Fit {
        var total: Float = 0, outliers = 0, samples = 0
        let limit = Self.outlierDistance * Self.outlierDistance
        for y in Swift.stride(from: 0, to: height, by: 2) {
            let row = rgba + y * stride
            for x in Swift.stride(from: y / 2 % 2, to: width, by: 2) {
                let p = row + 4 * x
                guard p[3] >= 128 else { continue }
                let color = SIMD3<Float>(Float(p[0]), Float(p[1]), Float(p[2]))
                let d = entries.isEmpty ? limit : distance(color, entries[nearest(color)])
                total += d
                if d > limit { outliers += 1 }
                samples += 1
            }
        }
        guard samples > 0 else { return Fit(meanSquaredError: 0, outlierShare: 0) }
        return Fit(meanSquaredError: total / Float(samples), outlierShare: Float(outliers) / Float(samples))
    }

    private func distance(_ a: SIMD3<Float>, _ b: SIMD3<Float>) -> Float {
        let d = a - b
        return (d * d).sum()
    }

    /// Counts opaque pixels per 5-bit cell, with the exact colours' sums. Works on local
    /// buffers: class properties in a per-pixel loop cost an exclusivity check per access.
    private func buildHistogram(rgba: UnsafePointer<UInt8>, stride: Int) {
        var counts = [Int](repeating: 0, count: Self.histogramSize)
        var sums = [SIMD3<Int>](repeating: .zero, count: Self.histogramSize)
        let (width, height) = (self.width, self.height)
        counts.withUnsafeMutableBufferPointer { counts in
            sums.withUnsafeMutableBufferPointer { sums in
                for y in 0..<height {
                    let row = rgba + y * stride
                    for x in 0..<width {
                        let p = row + 4 * x
                        if p[3] < 128 { continue }
                        let key = Int(p[0] >> 3) << 10 | Int(p[1] >> 3) << 5 | Int(p[2] >> 3)
                        counts[key] += 1
                        sums[key] &+= SIMD3(Int(p[0]), Int(p[1]), Int(p[2]))
                    }
                }
            }
        }
        self.counts = counts
        self.sums = sums
    }

    /// `rgba`'s indices on this palette into `indices` (one per pixel, row after row), with
    /// Floyd–Steinberg (7/16 right, 3/16 below left, 5/16 below, 1/16 below right).
    ///
    /// With `shown` (the indices on screen, of this generation, and the source colours they were
    /// drawn from, 0xRRGGBB), a pixel whose source has moved at most `threshold` codes per channel
    /// since it was drawn keeps its index: a still part of the picture keeps its grain exactly
    /// while something moves above it, instead of shimmering as the diffused error shifts.
    /// `sources` gets the source colour each index stands for: the pixel's own, or for a kept
    /// index the one it was drawn from.
    func quantize(
        rgba: UnsafePointer<UInt8>, stride: Int, into indices: inout [UInt8], sources: inout [UInt32],
        shown: (indices: [UInt8], sources: [UInt32])?, threshold: Int
    ) {
        let width = self.width, height = self.height
        var current = [SIMD3<Float>](repeating: .zero, count: width + 2)
        var next = current
        let entries = self.entries
        let transparent = UInt8(Self.transparentIndex)
        let keepIndices = shown?.indices ?? [], keepSources = shown?.sources ?? []
        let keeping = shown != nil
        let limit = Int32(threshold)
        if indices.count != width * height { indices = [UInt8](repeating: 0, count: width * height) }
        if sources.count != width * height { sources = [UInt32](repeating: 0, count: width * height) }
        sources.withUnsafeMutableBufferPointer { drawnFrom in
            indices.withUnsafeMutableBufferPointer { out in
                for y in 0..<height {
                    let row = rgba + y * stride
                    for i in next.indices { next[i] = .zero }
                    current.withUnsafeMutableBufferPointer { here in
                        next.withUnsafeMutableBufferPointer { below in
                            for x in 0..<width {
                                let p = row + 4 * x
                                let at = y * width + x
                                if p[3] < 128 || entries.isEmpty {
                                    out[at] = transparent
                                    continue
                                }
                                let source = SIMD3<Float>(Float(p[0]), Float(p[1]), Float(p[2]))
                                let wanted = (source + here[x + 1])
                                    .clamped(lowerBound: .zero, upperBound: SIMD3(repeating: 255))
                                var index = -1
                                if keeping, keepIndices[at] != transparent {
                                    let was = keepSources[at]
                                    let moved = max(
                                        abs(Int32(p[0]) - Int32(was >> 16 & 0xFF)),
                                        abs(Int32(p[1]) - Int32(was >> 8 & 0xFF)),
                                        abs(Int32(p[2]) - Int32(was & 0xFF)))
                                    // A dithered pixel can stand far from its source, leaning
                                    // on neighbours drawn again now: kept, it would be a dot.
                                    let kept = Int(keepIndices[at])
                                    let off = entries[kept] - source
                                    if moved <= limit,
                                        max(abs(off.x), abs(off.y), abs(off.z)) <= Self.keptDistance
                                    {
                                        index = kept
                                        drawnFrom[at] = was
                                    }
                                }
                                if index < 0 {
                                    index = nearest(wanted)
                                    drawnFrom[at] = UInt32(p[0]) << 16 | UInt32(p[1]) << 8 | UInt32(p[2])
                                }
                                out[at] = UInt8(index)
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
        }
    }

    /// The entry closest to `colour` (squared RGB distance), cached by the rounded colour.
    private func nearest(_ color: SIMD3<Float>) -> Int {
        let c = SIMD3<Int32>(color.rounded(.toNearestOrEven))
        let slot = Int((c.x >> 2) << 12 | (c.y >> 2) << 6 | c.z >> 2)
        let known = nearestInCell[slot]
        if known >= 0 { return Int(known) }
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
        nearestInCell[slot] = Int16(best)
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
