#if KILN_GATHERS
    import CKilnIntrinsics
#endif

/// Paints an image under an affine map, clipped to a rectangle of it: bilinear sampling at the
/// mip level matching the map's shrink, blended with the next level (trilinear, past the first
/// eighth of each octave: `levelChoice`) so an animated scale never pops between levels; edges
/// anti-aliased by coverage as `RoundedRectPainter` does.
public struct ImagePainter: Sendable {
    let image: RasterImage
    // Frame → image texel space (level 0).
    let ia: Float, ib: Float, ic: Float, id: Float, itx: Float, ity: Float
    /// The visible rectangle of the image, in level-0 texels, as centre and half size.
    let clipCentre: SIMD2<Float>
    let clipHalf: SIMD2<Float>
    let pixelsPerTexel: Float
    let level: Int
    /// Weight of `level + 1` (0 when only `level` is read).
    let nextWeight: Float
    public let rows: Range<Int>
    public let columns: Range<Int>
    /// Set when the map is a whole-pixel translation (frame pixel (x, y) shows texel
    /// (x + shift.x, y + shift.y) of level 0) and the visible rectangle has whole-pixel edges:
    /// then every bilinear tap has weight 0 and the edge coverage is 0 or 1, so the image can be
    /// composited row by row without taps (`paintWholePixels`), with the same result (to the
    /// bilinear path's edge coverage, whose approximate square root leaves it 10⁻⁷ off 0 or 1).
    let wholePixel: (shift: SIMD2<Int>, lo: SIMD2<Int>, hi: SIMD2<Int>)?

    /// Whether `paint` composites this image on whole pixels, without bilinear taps.
    public var isWholePixel: Bool { wholePixel != nil }
    /// Set when the map is a translation by whole pixels across (any amount down) at level 0 and
    /// the visible rectangle's left and right edges are whole: a scrolled picture. Each frame row
    /// inside the visible rows then blends two texel rows with one weight: the bilinear result
    /// without gathers (`paintBlendedRow`). Frame column x shows texel column x + `shift`.
    let rowAligned: (shift: Int, left: Int, right: Int)?
    /// Set when the map scales (or flips) the axes without rotating or shearing them, one level
    /// is read, and a frame row moves at most one texel row down that level: a magnified or
    /// slightly shrunk picture, a clip filling the frame. A tap's texel column and horizontal
    /// weight then depend on the frame column alone, so the horizontal half of the bilinear
    /// filter along texel row r is the same for every frame row that reads row r. It is computed
    /// once per texel row (`FilteredRows`), and the interior of a frame row is two contiguous
    /// loads and the vertical lerp: the sampler's own arithmetic in its own order, the same bytes.
    let axisAligned: Bool
    /// What the painter was made from. Everything above is computed from these alone, so two
    /// painters with equal inputs paint the same pixels (an offscreen's cache key relies on it).
    public let inputs: Inputs

    /// An `ImagePainter`'s arguments. The image compares by identity: a `RasterImage` is
    /// immutable, and holding it here keeps its identity from being reused.
    public struct Inputs: Equatable, Sendable {
        public let image: RasterImage
        public let frameFromImage: Affine2D
        public let visibleMin: SIMD2<Double>
        public let visibleMax: SIMD2<Double>
        public let frameWidth: Int
        public let frameHeight: Int

        public static func == (lhs: Inputs, rhs: Inputs) -> Bool {
            lhs.image === rhs.image && lhs.frameFromImage == rhs.frameFromImage
                && lhs.visibleMin == rhs.visibleMin && lhs.visibleMax == rhs.visibleMax
                && lhs.frameWidth == rhs.frameWidth && lhs.frameHeight == rhs.frameHeight
        }
    }

    /// - Parameters:
    ///   - frameFromImage: places the image (level-0 texels, [0, width] × [0, height]) in the frame.
    ///   - visible: the part of the image shown, in texels (`min`, `max`); the rest is cut off.
    /// Returns nil when nothing can be visible.
    public init?(
        image: RasterImage, frameFromImage: Affine2D, visible: (min: SIMD2<Double>, max: SIMD2<Double>),
        frameWidth: Int, frameHeight: Int
    ) {
        let lo = SIMD2(max(visible.min.x, 0), max(visible.min.y, 0))
        let hi = SIMD2(min(visible.max.x, Double(image.width)), min(visible.max.y, Double(image.height)))
        guard hi.x > lo.x, hi.y > lo.y, let inverse = frameFromImage.inverted else { return nil }
        self.image = image
        inputs = Inputs(
            image: image, frameFromImage: frameFromImage, visibleMin: visible.min, visibleMax: visible.max,
            frameWidth: frameWidth, frameHeight: frameHeight)
        (ia, ib, ic, id) = (Float(inverse.a), Float(inverse.b), Float(inverse.c), Float(inverse.d))
        (itx, ity) = (Float(inverse.tx), Float(inverse.ty))
        clipCentre = SIMD2<Float>((lo + hi) / 2)
        clipHalf = SIMD2<Float>((hi - lo) / 2)
        pixelsPerTexel = Float(abs(frameFromImage.determinant).squareRoot())
        // Texels per pixel along the image's more-shrunk axis: the longer column of the inverse.
        let shrink = max(
            (inverse.a * inverse.a + inverse.b * inverse.b).squareRoot(),
            (inverse.c * inverse.c + inverse.d * inverse.d).squareRoot())
        (level, nextWeight) = Self.levelChoice(shrink: shrink, levelCount: image.levels.count)
        guard
            let pixels = frameFromImage.pixelBounds(
                ofSize: hi - lo, offset: lo, frameWidth: frameWidth, frameHeight: frameHeight)
        else { return nil }
        (rows, columns) = pixels
        // Decided on the Float values the bilinear path computes with, so both paths agree.
        let whole = { (v: Float) -> Bool in v == v.rounded() && abs(v) < 4_194_304 }
        let wholeRect = lo == lo.rounded(.down) && hi == hi.rounded(.down)
        if level == 0, nextWeight == 0, ia == 1, ib == 0, ic == 0, id == 1, whole(itx), whole(ity), wholeRect
        {
            wholePixel = (
                SIMD2(Int(itx), Int(ity)), SIMD2(Int(lo.x), Int(lo.y)), SIMD2(Int(hi.x), Int(hi.y))
            )
        } else {
            wholePixel = nil
        }
        if level == 0, nextWeight == 0, ia == 1, ib == 0, ic == 0, id == 1, whole(itx),
            lo.x == lo.x.rounded(.down), hi.x == hi.x.rounded(.down)
        {
            rowAligned = (Int(itx), Int(lo.x), Int(hi.x))
        } else {
            rowAligned = nil
        }
        var levelScale: Float = 1
        for _ in 0..<level { levelScale *= 0.5 }
        axisAligned = nextWeight == 0 && ib == 0 && ic == 0 && abs(id) * levelScale <= 1
    }

    /// Fractions of an octave up to this read one level alone; beyond, the blend towards the next
    /// level rises linearly from 0 to 1, so the choice stays continuous in the shrink. GPU
    /// drivers narrow the trilinear blend the same way ("brilinear"); Core Animation's default
    /// minification filter reads one level at every shrink. Against exact trilinear filtering
    /// the result moves by at most `singleLevelBand` times the two levels' difference
    /// (ImageLayerTests checks this bound), while a card drawn slightly shrunk (0.84 of a
    /// picture that was 1.17× enlarged: 2 % into the octave) costs one level's taps, not two.
    public static let singleLevelBand = 0.125

    /// Level L holds 2^L texels of level 0 per texel. Up to a shrink of 1 level 0 is exact;
    /// beyond, log2(shrink) splits into the level below and the blend towards the next
    /// (none in the first `singleLevelBand` of the octave).
    public static func levelChoice(shrink: Double, levelCount: Int) -> (level: Int, nextWeight: Float) {
        guard shrink > 1 else { return (0, 0) }
        var lod = 0.0
        // Past 2^60 every level is the last one; an infinite shrink would never leave the loop.
        var s = min(shrink, 0x1p60)
        // log2 without Foundation: whole octaves, then a linear blend inside the octave, which
        // is monotonic and continuous in the shrink (all that matters for the blend weight).
        while s >= 2 {
            s /= 2
            lod += 1
        }
        lod += s - 1
        let level = SaturatingConversion.int(lod, in: 0...(levelCount - 1))
        let fraction = lod - Double(level)
        let band = singleLevelBand
        var weight = level + 1 < levelCount && fraction > band ? Float((fraction - band) / (1 - band)) : 0
        // A blend below one part in 512 cannot change an 8-bit result; skipping it spares the
        // second level's taps just past the single-level band.
        if weight < 1.0 / 512 { weight = 0 }
        return (level, weight)
    }

    /// Paints frame rows `firstRow..<firstRow+rows` into `band`, replacing its contents within
    /// `window` (transparent where the image is not).
    ///
    /// - Parameters:
    ///   - clip: also cut to this shape's fill (a card's rounded corners) in the same pass.
    ///   - over: composite source-over onto what `band` holds instead of replacing it; then
    ///     only the pixels the image covers are touched.
    ///   - opacity: multiplies the image (with `over`, its fade as a layer).
    ///   - tint: multiplies the channels (r, g, b, a) of every texel: a diagonal colour matrix,
    ///     such as the tint that colours white text coverage. Components must lie in 0…1 and the
    ///     colour ones must not exceed alpha's, so premultiplied values stay valid.
    ///   - wholePixels: allows the whole-pixel path (`isWholePixel`); false forces the bilinear
    ///     sampler (tests compare the two).
    ///   - sharedRows: allows the interior of an axis-aligned picture to share each texel row's
    ///     horizontal filtering between frame rows (`axisAligned`); false samples every pixel
    ///     (tests compare the two).
    public func paint(
        into band: PlanarBand, firstRow: Int, rows count: Int, columns window: Range<Int>? = nil,
        clip: RoundedRectPainter? = nil, over: Bool = false, opacity: Float = 1,
        tint: SIMD4<Float> = SIMD4(1, 1, 1, 1), wholePixels: Bool = true, sharedRows: Bool = true
    ) {
        // Replacing, the bilinear path writes every pixel of the window itself (zeros outside
        // each row's span) instead of clearing the window first and compositing over the clear:
        // one pass over a blurred card's offscreen instead of two. The whole-pixel and
        // row-aligned paths composite over a cleared window.
        let fastPaths = wholePixels && clip == nil && (wholePixel != nil || rowAligned != nil)
        let replacing = !over && !fastPaths
        if !over && fastPaths { band.fill(.transparent, rows: count, columns: window) }
        // Cleared as `fill` clears a window: widened to whole chunks.
        let cleared = band.chunkSpan(window)
        var columns = window.map { self.columns.clamped(to: $0) } ?? self.columns
        var top = max(firstRow, rows.lowerBound), bottom = min(firstRow + count, rows.upperBound)
        if let clip {
            columns = columns.clamped(to: clip.columns)
            top = max(top, clip.rows.lowerBound)
            bottom = min(bottom, clip.rows.upperBound)
        }
        guard top < bottom, !columns.isEmpty else {
            if replacing { band.fill(.transparent, rows: count, columns: window) }
            return
        }
        if replacing {
            for y in firstRow..<(firstRow + count) where y < top || y >= bottom {
                band.clear(row: y - firstRow, columns: cleared)
            }
        }
        let scale = opacity / 255
        let scales = tint * scale
        if wholePixels, clip == nil, let wholePixel {
            // Painted over the transparent fill when not `over`: the same as replacing.
            return paintWholePixels(
                into: band, firstRow: firstRow, rows: top..<bottom, columns: columns, place: wholePixel,
                scales: scales)
        }
        let scaleR = SIMD8<Float>(repeating: scales[0]), scaleG = SIMD8<Float>(repeating: scales[1])
        let scaleB = SIMD8<Float>(repeating: scales[2]), scaleA = SIMD8<Float>(repeating: scales[3])
        let lane = SIMD8<Float>(0, 1, 2, 3, 4, 5, 6, 7) + 0.5
        let half = SIMD8<Float>(repeating: 0.5)
        let ppt = SIMD8<Float>(repeating: pixelsPerTexel)
        // Unwrapped once: binding the optional painter per chunk copied it, gradient and all.
        let clipOutline = clip?.outline
        // Interior chunks replace or composite source-over in runs of their own.
        let interior = nextWeight == 0 && (over || replacing)
        let filtered = sharedRows && axisAligned ? FilteredRows(columns: columns) : nil
        image.levels[level].texels.withUnsafeBufferPointer { base in
            let next = image.levels[min(level + 1, image.levels.count - 1)]
            next.texels.withUnsafeBufferPointer { upper in
                let primary = Sampler(level: image.levels[level], texels: base.baseAddress!, exponent: level)
                let secondary = Sampler(level: next, texels: upper.baseAddress!, exponent: level + 1)
                let spans = BoxSpans(
                    a: Double(ia), b: Double(ib), c: Double(ic), d: Double(id),
                    tx: Double(itx - clipCentre.x),
                    ty: Double(ity - clipCentre.y))
                let certain = 0.501 / Double(pixelsPerTexel)
                let halfX = Double(clipHalf.x), halfY = Double(clipHalf.y)
                // Rows are gathered a few at a time and painted in tiles of a few chunks across
                // all of them: a rotated picture's taps for one row wander over many texel rows,
                // and a tile keeps the texels and band pixels it touches in L1 for the rows
                // after. Each chunk's arithmetic depends only on its row and column, so the
                // order changes no byte.
                let rowGroup = 8, tileWidth = 64
                withUnsafeTemporaryAllocation(of: PendingRow.self, capacity: rowGroup) { pending in
                    var nextRow = top
                    while nextRow < bottom {
                        var pendingCount = 0
                        while nextRow < bottom && pendingCount < rowGroup {
                            let y = nextRow
                            nextRow &+= 1
                            let py = Float(y) + 0.5
                            let offset = (y - firstRow) &* band.stride
                            if wholePixels, clip == nil, let rowAligned {
                                // The sampler's row coordinate and weight, computed as it does.
                                let sv = (py * id + ity) * primary.scale - 0.5
                                // Rows whose centre lies half a pixel or more inside the visible rows
                                // are fully covered and need no clamp.
                                if sv >= clipCentre.y - clipHalf.y, sv <= clipCentre.y + clipHalf.y - 1 {
                                    let v = SIMD8<Float>(repeating: sv)
                                    let fv = floorOfSmall(v)
                                    paintBlendedRow(
                                        into: band, offset: offset, texels: base.baseAddress!,
                                        row: Int(fv[0]),
                                        weight: primary.weights(v - fv), columns: columns, place: rowAligned,
                                        scales: scales)
                                    continue
                                }
                            }
                            var outer = spans.columns(
                                row: y, halfX: halfX + certain, halfY: halfY + certain, limit: columns)
                            var full = spans.columns(
                                row: y, halfX: halfX - certain, halfY: halfY - certain, limit: outer)
                            if let clip {
                                outer = clip.outerSpan(row: y, within: outer)
                                full = clip.innerSpan(row: y, within: full.clamped(to: outer))
                            }
                            if replacing {
                                // The cleared columns outside the span (lanes of the span's last chunk
                                // past it keep what they held, which this clears too).
                                if outer.isEmpty {
                                    band.clear(row: y - firstRow, columns: cleared)
                                    continue
                                }
                                band.clear(row: y - firstRow, columns: cleared.lowerBound..<outer.lowerBound)
                                band.clear(row: y - firstRow, columns: outer.upperBound..<cleared.upperBound)
                            }
                            var texelRow = 0
                            var rowWeight = SIMD16<UInt16>()
                            if filtered != nil {
                                // The sampler's row coordinate and weight, computed as it does
                                // (`ib` is 0, so every lane's v is the row's).
                                let sv = between(
                                    SIMD8(repeating: py * id + ity) * primary.scale - 0.5, 0,
                                    Float(primary.height - 1))
                                let fv = floorOfSmall(sv)
                                texelRow = Int(fv[0])
                                rowWeight = primary.weights(sv - fv)
                            }
                            pending[pendingCount] = PendingRow(
                                y: y, offset: offset, outer: outer, full: full, rowU: py * ic + itx,
                                rowV: py * id + ity, texelRow: texelRow, rowWeight: rowWeight)
                            pendingCount &+= 1
                        }
                        var start = 0
                        var more = pendingCount > 0
                        while more {
                            more = false
                            for index in 0..<pendingCount {
                                let (y, offset, outer, full) = (
                                    pending[index].y, pending[index].offset, pending[index].outer,
                                    pending[index].full
                                )
                                let rowU = pending[index].rowU, rowV = pending[index].rowV
                                var x = outer.lowerBound &+ start
                                guard x < outer.upperBound else { continue }
                                // Tiles start on the row's chunk grid, so every chunk is the one the untiled
                                // loop would paint.
                                let tileEnd = min(outer.upperBound, x &+ tileWidth)
                                if tileEnd < outer.upperBound { more = true }
                                while x < tileEnd {
                                    if interior && x >= full.lowerBound && x &+ 8 <= full.upperBound {
                                        // The interior run: fully covered, one level. A loop of its own keeps the edge
                                        // handling's registers out of it. Nothing underneath is read when replacing, nor
                                        // under opaque texels at full opacity when compositing (c + a finite value × 0 is c).
                                        let last = min(full.upperBound, tileEnd) &- 8
                                        @inline(__always) func write(
                                            _ c: (
                                                r: SIMD8<Float>, g: SIMD8<Float>, b: SIMD8<Float>,
                                                a: SIMD8<Float>
                                            ), at p: Int
                                        ) {
                                            let alpha = c.a * scaleA
                                            let remain = 1 - alpha
                                            if !over || remain == SIMD8() {
                                                store(c.r * scaleR, band.r + p)
                                                store(c.g * scaleG, band.g + p)
                                                store(c.b * scaleB, band.b + p)
                                                store(alpha, band.a + p)
                                                return
                                            }
                                            store(c.r * scaleR + load(band.r + p) * remain, band.r + p)
                                            store(c.g * scaleG + load(band.g + p) * remain, band.g + p)
                                            store(c.b * scaleB + load(band.b + p) * remain, band.b + p)
                                            store(alpha + load(band.a + p) * remain, band.a + p)
                                        }
                                        if let filtered {
                                            let shared = filtered.rows(
                                                pending[index].texelRow, sampler: primary, ia: ia, rowU: rowU)
                                            let weight = pending[index].rowWeight
                                            while x <= last {
                                                write(
                                                    Sampler.filter(
                                                        upper: shared.upper(x), lower: shared.lower(x),
                                                        weight: weight),
                                                    at: offset &+ x)
                                                x &+= 8
                                            }
                                            continue
                                        }
                                        var next = primary.taps(
                                            u: (lane + Float(x)) * ia + rowU, v: (lane + Float(x)) * ib + rowV
                                        )
                                        while x <= last {
                                            // The next chunk's texels are loaded before this chunk is filtered (past the run
                                            // they are clamped into the image and dropped), so the loads' latency overlaps
                                            // the arithmetic.
                                            let taps = next
                                            let ahead = lane + Float(x &+ 8)
                                            next = primary.taps(u: ahead * ia + rowU, v: ahead * ib + rowV)
                                            write(primary.filter(taps), at: offset &+ x)
                                            x &+= 8
                                        }
                                        continue
                                    }
                                    let px = lane + Float(x)
                                    let u = px * ia + rowU
                                    let v = px * ib + rowV
                                    let inside = LaneMask.first(min(8, outer.upperBound &- x))
                                    var coverage = SIMD8<Float>(repeating: 1)
                                    if x < full.lowerBound || x &+ 8 > full.upperBound {
                                        // Near the edge: coverage of the visible rectangle from the signed
                                        // distance to it.
                                        let qx = magnitude(u - clipCentre.x) - clipHalf.x
                                        let qy = magnitude(v - clipCentre.y) - clipHalf.y
                                        let ox = positive(qx), oy = positive(qy)
                                        let distance =
                                            (squareRoot(ox * ox + oy * oy) + negative(maximum(qx, qy))) * ppt
                                        coverage = unit(half - distance)
                                        if let clipOutline {
                                            coverage *= clipOutline.fillCoverage(x: x, y: y)
                                        }
                                    }
                                    coverage = unsafeBitCast(
                                        unsafeBitCast(coverage, to: SIMD8<UInt32>.self) & inside,
                                        to: SIMD8<Float>.self)
                                    if coverage == SIMD8() {
                                        if replacing {
                                            // Nothing of the picture here: zeros within the span.
                                            let p = offset &+ x, keep = ~inside
                                            @inline(__always) func clear(_ plane: UnsafeMutablePointer<Float>)
                                            {
                                                store(
                                                    LaneMask.select(keep, load(plane + p), SIMD8()), plane + p
                                                )
                                            }
                                            clear(band.r)
                                            clear(band.g)
                                            clear(band.b)
                                            clear(band.a)
                                        }
                                    } else {
                                        var c = primary.sample(u: u, v: v)
                                        if nextWeight > 0 {
                                            let d = secondary.sample(u: u, v: v)
                                            c.r += (d.r - c.r) * nextWeight
                                            c.g += (d.g - c.g) * nextWeight
                                            c.b += (d.b - c.b) * nextWeight
                                            c.a += (d.a - c.a) * nextWeight
                                        }
                                        let p = offset &+ x
                                        let keep = ~inside
                                        if over {
                                            // Source-over: lanes outside the span have k = 0, so they keep
                                            // their value without a select.
                                            let alpha = c.a * (coverage * scaleA)
                                            let remain = 1 - alpha
                                            @inline(__always) func blend(
                                                _ value: SIMD8<Float>, _ k: SIMD8<Float>,
                                                _ plane: UnsafeMutablePointer<Float>
                                            ) {
                                                store(
                                                    value * (coverage * k) + load(plane + p) * remain,
                                                    plane + p)
                                            }
                                            blend(c.r, scaleR, band.r)
                                            blend(c.g, scaleG, band.g)
                                            blend(c.b, scaleB, band.b)
                                            store(alpha + load(band.a + p) * remain, band.a + p)
                                        } else {
                                            @inline(__always) func put(
                                                _ value: SIMD8<Float>, _ k: SIMD8<Float>,
                                                _ plane: UnsafeMutablePointer<Float>
                                            ) {
                                                store(
                                                    LaneMask.select(
                                                        keep, load(plane + p), value * (coverage * k)),
                                                    plane + p)
                                            }
                                            put(c.r, scaleR, band.r)
                                            put(c.g, scaleG, band.g)
                                            put(c.b, scaleB, band.b)
                                            put(c.a, scaleA, band.a)
                                        }
                                    }
                                    x &+= 8
                                }
                            }
                            start &+= tileWidth
                        }
                    }
                }
            }
        }
    }

    /// The whole-pixel path: frame rows `rows` (within the band) of the image composited
    /// source-over onto `band`, row by row, without taps: only the texels of each row's ink
    /// span are read, and chunks of eight transparent texels are skipped. The arithmetic is the
    /// bilinear path's with every weight 0 and coverage exactly 0 or 1.
    private func paintWholePixels(
        into band: PlanarBand, firstRow: Int, rows: Range<Int>, columns: Range<Int>,
        place: (shift: SIMD2<Int>, lo: SIMD2<Int>, hi: SIMD2<Int>), scales: SIMD4<Float>
    ) {
        let sr = SIMD8<Float>(repeating: scales[0]), sg = SIMD8<Float>(repeating: scales[1])
        let sb = SIMD8<Float>(repeating: scales[2]), sa = SIMD8<Float>(repeating: scales[3])
        let level = image.levels[0]
        let stride = level.stride
        // Texel columns that are visible and fall in the frame columns asked for.
        let left = max(place.lo.x, columns.lowerBound &+ place.shift.x)
        let right = min(place.hi.x, columns.upperBound &+ place.shift.x)
        guard left < right else { return }
        image.inkSpans.withUnsafeBufferPointer { spans in
            level.texels.withUnsafeBufferPointer { buffer in
                let texels = UnsafeRawPointer(buffer.baseAddress!)
                for y in rows {
                    let ty = y &+ place.shift.y
                    guard ty >= place.lo.y, ty < place.hi.y else { continue }
                    let ink = spans[ty]
                    let lo = max(ink.lowerBound, left), hi = min(ink.upperBound, right)
                    guard lo < hi else { continue }
                    let row = texels + (ty &* stride) &* 4
                    // Frame pixel of texel column x, as an offset into the band's planes.
                    let offset = (y &- firstRow) &* band.stride &- place.shift.x
                    var x = lo
                    while x < hi {
                        let t: SIMD8<UInt32>
                        if hi &- x >= 8 {
                            t = row.loadUnaligned(fromByteOffset: x &* 4, as: SIMD8<UInt32>.self)
                        } else {
                            // The row's last texels; lanes past them stay transparent, which
                            // leaves those pixels as they are (and stays inside the band's
                            // spare columns).
                            var partial = SIMD8<UInt32>()
                            for lane in 0..<(hi &- x) {
                                partial[lane] = row.loadUnaligned(
                                    fromByteOffset: (x &+ lane) &* 4, as: UInt32.self)
                            }
                            t = partial
                        }
                        if t != SIMD8<UInt32>() {
                            let alpha = byteFloat(t &>> 24) * sa
                            let remain = 1 - alpha
                            let p = offset &+ x
                            store(byteFloat(t & 0xFF) * sr + load(band.r + p) * remain, band.r + p)
                            store(byteFloat(t &>> 8 & 0xFF) * sg + load(band.g + p) * remain, band.g + p)
                            store(byteFloat(t &>> 16 & 0xFF) * sb + load(band.b + p) * remain, band.b + p)
                            store(alpha + load(band.a + p) * remain, band.a + p)
                        }
                        x &+= 8
                    }
                }
            }
        }
    }

    /// One frame row of a row-aligned image (`rowAligned`) composited source-over onto `band`
    /// (at `offset`, the row's start in the planes): texel rows `row` and `row + 1` blended with
    /// `weight` (0…256, as the sampler's), which is what the bilinear sampler gives when every
    /// horizontal weight is 0, read with contiguous loads. Only the two rows' ink spans are
    /// visited, and chunks where both are transparent are skipped.
    private func paintBlendedRow(
        into band: PlanarBand, offset: Int, texels: UnsafePointer<UInt32>, row: Int,
        weight: SIMD16<UInt16>, columns: Range<Int>, place: (shift: Int, left: Int, right: Int),
        scales: SIMD4<Float>
    ) {
        let level = image.levels[0]
        var ink = image.inkSpans[row]
        if row &+ 1 < level.height {
            let below = image.inkSpans[row &+ 1]
            ink =
                ink.isEmpty
                ? below
                : below.isEmpty
                    ? ink : min(ink.lowerBound, below.lowerBound)..<max(ink.upperBound, below.upperBound)
        }
        let lo = max(ink.lowerBound, place.left, columns.lowerBound &+ place.shift)
        let hi = min(ink.upperBound, place.right, columns.upperBound &+ place.shift)
        guard lo < hi else { return }
        let sr = SIMD8<Float>(repeating: scales[0]), sg = SIMD8<Float>(repeating: scales[1])
        let sb = SIMD8<Float>(repeating: scales[2]), sa = SIMD8<Float>(repeating: scales[3])
        let upper = UnsafeRawPointer(texels + row &* level.stride)
        let lower = upper + level.stride &* 4
        // Frame pixel of texel column x, as an offset into the band's planes.
        let start = offset &- place.shift
        @inline(__always) func chunk(_ base: UnsafeRawPointer, _ x: Int, _ count: Int) -> SIMD8<UInt32> {
            if count >= 8 { return base.loadUnaligned(fromByteOffset: x &* 4, as: SIMD8<UInt32>.self) }
            var partial = SIMD8<UInt32>()
            for lane in 0..<count {
                partial[lane] = base.loadUnaligned(fromByteOffset: (x &+ lane) &* 4, as: UInt32.self)
            }
            return partial
        }
        @inline(__always) func lerp(_ a: SIMD16<UInt16>, _ b: SIMD16<UInt16>) -> SIMD16<UInt16> {
            (a &* (256 &- weight) &+ b &* weight &+ 128) &>> 8
        }
        @inline(__always) func rb(_ t: SIMD8<UInt32>) -> SIMD16<UInt16> {
            unsafeBitCast(t & 0x00FF_00FF, to: SIMD16<UInt16>.self)
        }
        @inline(__always) func ga(_ t: SIMD8<UInt32>) -> SIMD16<UInt16> {
            unsafeBitCast(t &>> 8 & 0x00FF_00FF, to: SIMD16<UInt16>.self)
        }
        var x = lo
        while x < hi {
            // Lanes past the span's end read as transparent and leave their pixels as they are.
            let count = hi &- x
            let t0 = chunk(upper, x, count), t1 = chunk(lower, x, count)
            if t0 | t1 != SIMD8<UInt32>() {
                let redBlue = unsafeBitCast(lerp(rb(t0), rb(t1)), to: SIMD8<UInt32>.self)
                let greenAlpha = unsafeBitCast(lerp(ga(t0), ga(t1)), to: SIMD8<UInt32>.self)
                let alpha = byteFloat(greenAlpha &>> 16) * sa
                let remain = 1 - alpha
                let p = start &+ x
                store(byteFloat(redBlue & 0xFFFF) * sr + load(band.r + p) * remain, band.r + p)
                store(byteFloat(greenAlpha & 0xFFFF) * sg + load(band.g + p) * remain, band.g + p)
                store(byteFloat(redBlue &>> 16) * sb + load(band.b + p) * remain, band.b + p)
                store(alpha + load(band.a + p) * remain, band.a + p)
            }
            x &+= 8
        }
    }

    /// A row of the bilinear path whose spans are known, waiting to be painted tile by tile.
    struct PendingRow {
        let y: Int
        let offset: Int
        let outer: Range<Int>
        let full: Range<Int>
        let rowU: Float
        let rowV: Float
        /// With `FilteredRows`: the texel row above the row's taps and the weight of the one
        /// below, as the sampler computes them.
        let texelRow: Int
        let rowWeight: SIMD16<UInt16>
    }

    /// Texel rows of one level filtered horizontally at a range of frame columns (the first
    /// half of the sampler's `filter`, repacked one texel per lane), the last few kept: the
    /// frame rows of an `axisAligned` picture that read the same texel rows share them.
    final class FilteredRows {
        /// More than the texel rows a group of frame rows reads (at most one per row, plus one).
        static let slots = 16
        let firstColumn: Int
        /// Texels per row: the columns, whole chunks of eight.
        let width: Int
        let storage: UnsafeMutablePointer<UInt32>
        /// The texel row each slot holds (row r lives in slot r mod `slots`).
        let held: UnsafeMutablePointer<Int>

        init(columns: Range<Int>) {
            firstColumn = columns.lowerBound
            width = (columns.count + 7) & ~7
            storage = .allocate(capacity: Self.slots * width)
            held = .allocate(capacity: Self.slots)
            held.initialize(repeating: Int.min, count: Self.slots)
        }

        deinit {
            storage.deallocate()
            held.deallocate()
        }

        /// Texel rows `row` and `row + 1`, filtered (from a frame row whose u offset is `rowU`).
        @inline(__always)
        func rows(_ row: Int, sampler: Sampler, ia: Float, rowU: Float) -> Pair {
            Pair(
                upper: filtered(row, sampler: sampler, ia: ia, rowU: rowU) - firstColumn,
                lower: filtered(row &+ 1, sampler: sampler, ia: ia, rowU: rowU) - firstColumn)
        }

        private func filtered(_ row: Int, sampler: Sampler, ia: Float, rowU: Float) -> UnsafePointer<UInt32> {
            let slot = row & (Self.slots - 1)
            let target = storage + slot &* width
            guard held[slot] != row else { return UnsafePointer(target) }
            let lane = SIMD8<Float>(0, 1, 2, 3, 4, 5, 6, 7) + 0.5
            let texelRow = Int32(truncatingIfNeeded: row)
            var x = 0
            while x < width {
                // The u the sampler computes for these columns in any row (`ic` is 0).
                let u = (lane + Float(firstColumn &+ x)) * ia + rowU
                UnsafeMutableRawPointer(target + x).storeBytes(
                    of: sampler.filteredRow(texelRow, u: u), as: SIMD8<UInt32>.self)
                x &+= 8
            }
            held[slot] = row
            return UnsafePointer(target)
        }

        /// A frame row's two filtered texel rows, indexed by frame column.
        struct Pair {
            let upper: UnsafePointer<UInt32>
            let lower: UnsafePointer<UInt32>

            @inline(__always) func upper(_ x: Int) -> SIMD8<UInt32> {
                UnsafeRawPointer(upper + x).loadUnaligned(as: SIMD8<UInt32>.self)
            }
            @inline(__always) func lower(_ x: Int) -> SIMD8<UInt32> {
                UnsafeRawPointer(lower + x).loadUnaligned(as: SIMD8<UInt32>.self)
            }
        }
    }

    /// Bilinear taps of one level, clamped to its edges.
    struct Sampler {
        let width: Int32
        let height: Int32
        let stride: Int32
        let texels: UnsafePointer<UInt32>
        let scale: Float

        init(level: RasterImage.Level, texels: UnsafePointer<UInt32>, exponent: Int) {
            width = Int32(level.width)
            height = Int32(level.height)
            stride = Int32(level.stride)
            self.texels = texels
            var s: Float = 1
            for _ in 0..<exponent { s *= 0.5 }
            scale = s
        }

        /// The texel pairs (x, x + 1) at eight indices, one 64-bit load each, split into the
        /// left and right texels. Built in registers: writing lanes of a SIMD value one by one
        /// spills and reloads the whole vector per lane.
        @inline(__always)
        func pairs(_ i: SIMD8<Int32>) -> (left: SIMD8<UInt32>, right: SIMD8<UInt32>) {
            #if KILN_GATHERS
                let gathered = unsafeBitCast(
                    kiln_gather_u64_scale4(UnsafeRawPointer(texels), unsafeBitCast(i, to: __m256i.self)),
                    to: SIMD16<UInt32>.self)
                return (gathered.evenHalf, gathered.oddHalf)
            #else
                let raw = UnsafeRawPointer(texels)
                @inline(__always) func pair(_ lane: Int) -> UInt64 {
                    raw.loadUnaligned(fromByteOffset: Int(i[lane]) &* 4, as: UInt64.self)
                }
                let both = unsafeBitCast(
                    SIMD8<UInt64>(pair(0), pair(1), pair(2), pair(3), pair(4), pair(5), pair(6), pair(7)),
                    to: SIMD16<UInt32>.self)
                return (both.evenHalf, both.oddHalf)
            #endif
        }

        /// `@_transparent` because `@inline(__always)` was not honoured here: the call stayed,
        /// passing and returning five vectors through memory for every eight pixels.
        @_transparent
        func sample(u: SIMD8<Float>, v: SIMD8<Float>) -> (
            r: SIMD8<Float>, g: SIMD8<Float>, b: SIMD8<Float>, a: SIMD8<Float>
        ) {
            filter(taps(u: u, v: v))
        }

        /// The four texels under each of eight pixels and their weights: the loads of `sample`,
        /// apart from the arithmetic, so a loop can load the next chunk's texels before it
        /// filters this chunk's.
        struct Taps {
            let t00: SIMD8<UInt32>, t10: SIMD8<UInt32>, t01: SIMD8<UInt32>, t11: SIMD8<UInt32>
            let wx: SIMD16<UInt16>, wy: SIMD16<UInt16>
        }

        @_transparent
        func taps(u: SIMD8<Float>, v: SIMD8<Float>) -> Taps {
            // Clamping the coordinate to the outer texel centres makes edge taps repeat the edge
            // texel: the second tap of a pair then has weight 0 (and reads the padding, which
            // repeats the edge anyway). The clamp also keeps far-off or NaN coordinates of
            // pixels the coverage zeroes out of the integer conversion.
            let su = between(u * scale - 0.5, 0, Float(width - 1))
            let sv = between(v * scale - 0.5, 0, Float(height - 1))
            let fu = floorOfSmall(su), fv = floorOfSmall(sv)
            let wx = su - fu, wy = sv - fv
            let top = wholeNumberToInt(fv) &* stride &+ wholeNumberToInt(fu)
            let (t00, t10) = pairs(top)
            let (t01, t11) = pairs(top &+ stride)
            return Taps(t00: t00, t10: t10, t01: t01, t11: t11, wx: weights(wx), wy: weights(wy))
        }

        // Fixed-point lerps on packed bytes, two channels per 32-bit lane (r and b, then g and
        // a) in 16-bit halves: weights are 0…256 (GPU-style 8-bit fractions), products stay
        // below 2^16, and one 16-bit multiply serves sixteen channel values.
        @inline(__always)
        static func lerp(_ a: SIMD16<UInt16>, _ b: SIMD16<UInt16>, _ w: SIMD16<UInt16>) -> SIMD16<UInt16> {
            (a &* (256 &- w) &+ b &* w &+ 128) &>> 8
        }
        @inline(__always) static func rb(_ t: SIMD8<UInt32>) -> SIMD16<UInt16> {
            unsafeBitCast(t & 0x00FF_00FF, to: SIMD16<UInt16>.self)
        }
        @inline(__always) static func ga(_ t: SIMD8<UInt32>) -> SIMD16<UInt16> {
            unsafeBitCast(t &>> 8 & 0x00FF_00FF, to: SIMD16<UInt16>.self)
        }

        @_transparent
        func filter(_ taps: Taps) -> (r: SIMD8<Float>, g: SIMD8<Float>, b: SIMD8<Float>, a: SIMD8<Float>) {
            let (t00, t10, t01, t11) = (taps.t00, taps.t10, taps.t01, taps.t11)
            let wx16 = taps.wx, wy16 = taps.wy
            let top = (
                Self.lerp(Self.rb(t00), Self.rb(t10), wx16), Self.lerp(Self.ga(t00), Self.ga(t10), wx16)
            )
            let bottom = (
                Self.lerp(Self.rb(t01), Self.rb(t11), wx16), Self.lerp(Self.ga(t01), Self.ga(t11), wx16)
            )
            let redBlue = unsafeBitCast(Self.lerp(top.0, bottom.0, wy16), to: SIMD8<UInt32>.self)
            let greenAlpha = unsafeBitCast(Self.lerp(top.1, bottom.1, wy16), to: SIMD8<UInt32>.self)
            return Self.channels(redBlue: redBlue, greenAlpha: greenAlpha)
        }

        /// The horizontal lerps of `filter` along texel row `row`, at eight pixels' u: r and b
        /// in bytes 0 and 2 of each lane, g and a in bytes 1 and 3, as a texel is packed.
        @inline(__always)
        func filteredRow(_ row: Int32, u: SIMD8<Float>) -> SIMD8<UInt32> {
            let su = between(u * scale - 0.5, 0, Float(width - 1))
            let fu = floorOfSmall(su)
            let wx = weights(su - fu)
            let (left, right) = pairs(row &* stride &+ wholeNumberToInt(fu))
            let redBlue = unsafeBitCast(Self.lerp(Self.rb(left), Self.rb(right), wx), to: SIMD8<UInt32>.self)
            let greenAlpha = unsafeBitCast(
                Self.lerp(Self.ga(left), Self.ga(right), wx), to: SIMD8<UInt32>.self)
            return redBlue | greenAlpha &<< 8
        }

        /// The vertical lerp of `filter` between two `filteredRow` results.
        @inline(__always)
        static func filter(upper: SIMD8<UInt32>, lower: SIMD8<UInt32>, weight: SIMD16<UInt16>) -> (
            r: SIMD8<Float>, g: SIMD8<Float>, b: SIMD8<Float>, a: SIMD8<Float>
        ) {
            let redBlue = unsafeBitCast(lerp(rb(upper), rb(lower), weight), to: SIMD8<UInt32>.self)
            let greenAlpha = unsafeBitCast(lerp(ga(upper), ga(lower), weight), to: SIMD8<UInt32>.self)
            return channels(redBlue: redBlue, greenAlpha: greenAlpha)
        }

        @inline(__always)
        static func channels(redBlue: SIMD8<UInt32>, greenAlpha: SIMD8<UInt32>) -> (
            r: SIMD8<Float>, g: SIMD8<Float>, b: SIMD8<Float>, a: SIMD8<Float>
        ) {
            (
                byteFloat(redBlue & 0xFFFF), byteFloat(greenAlpha & 0xFFFF), byteFloat(redBlue &>> 16),
                byteFloat(greenAlpha &>> 16)
            )
        }

        /// A fraction 0…1 as a 0…256 weight in both 16-bit halves of each lane.
        @inline(__always)
        func weights(_ f: SIMD8<Float>) -> SIMD16<UInt16> {
            // f · 256 + 2^23 puts the rounded weight in the low mantissa bits.
            let w = unsafeBitCast(f * 256 + 8_388_608, to: SIMD8<UInt32>.self) & 0x1FF
            return unsafeBitCast(w | w &<< 16, to: SIMD16<UInt16>.self)
        }
    }
}

/// Bytes (0…255, one per 32-bit lane) as floats: a byte in the low mantissa bits of 2^23 is
/// the float 2^23 + b, two integer operations and a subtraction where a generic SIMD conversion
/// loops per lane.
@inline(__always)
func byteFloat(_ v: SIMD8<UInt32>) -> SIMD8<Float> {
    unsafeBitCast(v | 0x4B00_0000, to: SIMD8<Float>.self) - 8_388_608
}

/// Whole numbers in ±2^22 as Int32: adding 1.5 · 2^23 puts the integer in the low mantissa
/// bits, where the generic SIMD float-to-integer conversion is a per-lane loop with range checks.
@inlinable @inline(__always)
public func wholeNumberToInt(_ v: SIMD8<Float>) -> SIMD8<Int32> {
    unsafeBitCast(v + 12_582_912, to: SIMD8<Int32>.self) &- 0x4B40_0000
}

// Lane-wise clamps as compare-and-select: the standard library's `clamped` on SIMD vectors is a
// generic call per vector. NaN lanes become `lo` (every comparison with NaN is false), so a
// clamped coordinate is always a valid texel index.
@inlinable @inline(__always)
public func between(_ v: SIMD8<Float>, _ lo: Float, _ hi: Float) -> SIMD8<Float> {
    v.replacing(with: lo, where: .!(v .>= lo)).replacing(with: hi, where: v .> hi)
}

@inline(__always)
func between(_ v: SIMD8<Int32>, _ lo: SIMD8<Int32>, _ hi: SIMD8<Int32>) -> SIMD8<Int32> {
    let low = v.replacing(with: lo, where: v .< lo)
    return low.replacing(with: hi, where: low .> hi)
}

/// ⌊v⌋ for |v| < 2^22 by the 1.5 · 2^23 rounding add, stepping down where it rounded up:
/// `rounded(.down)` is a library call per lane on baseline x86-64 (no SSE4.1).
@inlinable @inline(__always)
public func floorOfSmall(_ v: SIMD8<Float>) -> SIMD8<Float> {
    let nearest = (v + 12_582_912) - 12_582_912
    return nearest.replacing(with: nearest - 1, where: nearest .> v)
}
