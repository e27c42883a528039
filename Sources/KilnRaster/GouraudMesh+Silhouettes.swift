/// Anti-aliasing of the edges where a Gouraud mesh's colour is discontinuous.
///
/// Inside a mesh, neighbouring triangles share colours along their common edge, so point
/// sampling is exact there. Where the mesh ends (its outline over the underlay) or folds over
/// itself (a crease where one sheet ends over another), the colour jumps and point sampling
/// would leave stair steps. The tessellator declares those edges as silhouettes; after the spans
/// of a band are painted, every pixel whose square a silhouette touches is recomputed from 16
/// subsamples, each composited through all triangles that contain it in paint order over the
/// underlay. Only a few thousand pixels per frame take this path, and the result is still a pure
/// function of the pixel position.
extension GouraudMesh {
    struct Segment: Sendable {
        let a: SIMD2<Float>
        let b: SIMD2<Float>
    }

    /// Declares the segment a–b as a silhouette.
    public mutating func addSilhouette(_ a: SIMD2<Float>, _ b: SIMD2<Float>) {
        silhouettes.append(Segment(a: a, b: b))
    }

    public var silhouetteCount: Int { silhouettes.count }

    /// Pixel rows a segment can touch: its y extent widened by one pixel.
    func rowSpan(_ s: Segment, frameHeight: Int) -> ClosedRange<Int>? {
        let first = max(0, SaturatingConversion.int(min(s.a.y, s.b.y) - 1, .down, nan: frameHeight))
        let last = min(frameHeight - 1, SaturatingConversion.int(max(s.a.y, s.b.y) + 1, .up, nan: -1))
        return first <= last ? first...last : nil
    }

    mutating func binSilhouettes(bands: Int, frameHeight: Int) {
        var counts = [Int32](repeating: 0, count: bands + 1)
        for s in silhouettes {
            guard let rows = rowSpan(s, frameHeight: frameHeight) else { continue }
            for band in (rows.lowerBound / binHeight)...(rows.upperBound / binHeight) {
                counts[band + 1] += 1
            }
        }
        for i in 0..<bands { counts[i + 1] += counts[i] }
        silhouetteBinStarts = counts
        silhouetteBinItems = [Int32](repeating: 0, count: Int(counts[bands]))
        var cursor = counts
        for (index, s) in silhouettes.enumerated() {
            guard let rows = rowSpan(s, frameHeight: frameHeight) else { continue }
            for band in (rows.lowerBound / binHeight)...(rows.upperBound / binHeight) {
                silhouetteBinItems[Int(cursor[band])] = Int32(index)
                cursor[band] += 1
            }
        }
    }

    func resolveSilhouettes(into band: PlanarBand, firstRow: Int, rows: Int, columns: Range<Int>) {
        let bandIndex = firstRow / binHeight
        guard bandIndex + 1 < silhouetteBinStarts.count else { return }
        let lo = Int(silhouetteBinStarts[bandIndex]), hi = Int(silhouetteBinStarts[bandIndex + 1])
        guard lo < hi else { return }
        let width = band.width
        let triangles = Int(binStarts[bandIndex])..<Int(binStarts[bandIndex + 1])
        // One flag per pixel of the band, so a pixel near two silhouettes is resolved once; the
        // candidate list holds at most the band's triangles. Both live on the stack.
        withUnsafeTemporaryAllocation(of: Bool.self, capacity: width * rows) { done in
            done.initialize(repeating: false)
            // The second half holds, per pixel, the candidates whose box meets the pixel's square:
            // a segment's neighbourhood is several pixels wide, and each of the 16 subsamples
            // tests every triangle it is given.
            withUnsafeTemporaryAllocation(of: Int32.self, capacity: 2 * max(1, triangles.count)) { storage in
                let candidates = UnsafeMutableBufferPointer(rebasing: storage[0..<max(1, triangles.count)])
                let local = UnsafeMutableBufferPointer(rebasing: storage[max(1, triangles.count)...])
                for k in lo..<hi {
                    let s = silhouettes[Int(silhouetteBinItems[k])]
                    // A NaN end gives an empty rectangle (its low side past the high one).
                    let x0 = max(
                        columns.lowerBound, SaturatingConversion.int(min(s.a.x, s.b.x) - 1, .down, nan: .max))
                    let x1 = min(
                        columns.upperBound - 1,
                        SaturatingConversion.int(max(s.a.x, s.b.x) + 1, .up, nan: .min))
                    let y0 = max(firstRow, SaturatingConversion.int(min(s.a.y, s.b.y) - 1, .down, nan: .max))
                    let y1 = min(
                        firstRow + rows - 1, SaturatingConversion.int(max(s.a.y, s.b.y) + 1, .up, nan: .min))
                    guard x0 <= x1 && y0 <= y1 else { continue }
                    // Triangles that can reach the segment's neighbourhood, in paint order.
                    var count = 0
                    for k in triangles {
                        let t = Int(binItems[k])
                        if xRange[t].max >= Float(x0) && xRange[t].min <= Float(x1 + 1)
                            && yRange[t].max >= Float(y0) && yRange[t].min <= Float(y1 + 1)
                        {
                            candidates[count] = Int32(t)
                            count += 1
                        }
                    }
                    let near = UnsafeBufferPointer(rebasing: candidates[0..<count])
                    for y in y0...y1 {
                        for x in x0...x1 where !done[(y - firstRow) * width + x] {
                            // A pixel square meets the line only if its centre is within √2/2 of it.
                            guard distanceSquared(SIMD2(Float(x) + 0.5, Float(y) + 0.5), s) <= 0.5 else {
                                continue
                            }
                            done[(y - firstRow) * width + x] = true
                            var touching = 0
                            for t in near {
                                let t = Int(t)
                                if xRange[t].max >= Float(x) && xRange[t].min <= Float(x + 1)
                                    && yRange[t].max >= Float(y) && yRange[t].min <= Float(y + 1)
                                {
                                    local[touching] = Int32(t)
                                    touching += 1
                                }
                            }
                            let c = supersample(
                                x: x, y: y, candidates: UnsafeBufferPointer(rebasing: local[0..<touching]))
                            let i = (y - firstRow) * band.stride + x
                            (band.r[i], band.g[i], band.b[i], band.a[i]) = (c.x, c.y, c.z, c.w)
                        }
                    }
                }
            }
        }
    }

    /// Mean of 16 subsamples, each the underlay with every containing triangle composited over
    /// it in paint order. The samples form an "n-rooks" pattern (every sample in its own column
    /// and row of a 16×16 lattice), so edges near horizontal or vertical get 16 coverage levels
    /// rather than the 4 of a 4×4 grid, and no 45° line hits a diagonal of samples.
    func supersample(x: Int, y: Int, candidates: UnsafeBufferPointer<Int32>) -> SIMD4<Float> {
        var sum = SIMD4<Float>()
        for k in 0..<16 {
            let px = Float(x) + (Float(k) + 0.5) * (1.0 / 16)
            let py = Float(y) + (Float((k &* 5) & 15) + 0.5) * (1.0 / 16)
            var c = underlay
            for t in candidates {
                let t = Int(t)
                guard edges[t].contains(px, py) else { continue }
                let p = planes[t]
                let color = p.base + p.dx * px + p.dy * py
                c = color + c * (1 - color.w)
            }
            sum += c
        }
        return sum * (1.0 / 16)
    }

    func distanceSquared(_ p: SIMD2<Float>, _ s: Segment) -> Float {
        let d = s.b - s.a
        let length2 = (d * d).sum()
        let t = length2 > 0 ? min(max(((p - s.a) * d).sum() / length2, 0), 1) : 0
        let q = s.a + d * t - p
        return (q * q).sum()
    }
}

extension Outline {
    /// The same half-open coverage rule as span painting, for one point.
    @inline(__always)
    func contains(_ x: Float, _ y: Float) -> Bool {
        guard long.crosses(y) else { return false }
        let short = y < lower.y0 ? upper : lower
        let a = long.x(at: y), b = short.x(at: y)
        return min(a, b) <= x && x < max(a, b)
    }
}
