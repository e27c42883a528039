/// Paints a layer through its pixel stages from its rendered content: for each pixel, the
/// position goes back through the distortions (last first) in the layer's own space, the
/// content is sampled there once, and the colour stages run in order. The stages are whatever
/// the effects made (`PixelStage`); the pipeline evaluates them a batch of groups of eight
/// pixels at a time, stage by stage across the batch, so each stage is called once per batch.
public struct PixelPipeline: Sendable {
    public let stages: [any PixelStage]
    /// Frame ↔ the layer's own space (where effect positions, origins and sizes are given).
    let localFromFrame: (a: Float, b: Float, c: Float, d: Float, tx: Float, ty: Float)
    let frameFromLocal: (a: Float, b: Float, c: Float, d: Float, tx: Float, ty: Float)
    /// The indices of the stages that move positions (in the order written) and of those
    /// that change colour.
    let distortions: [Int]
    let colorStages: [Int]
    /// The stages as objects the bands call without touching reference counts (`StageList`).
    let callers: [StageCaller]
    var movesPixels: Bool { !distortions.isEmpty }
    var hasColorStages: Bool { !colorStages.isEmpty }
    /// Whether a colour stage reads the pixels' positions, which are then worked out per batch.
    let colorReadsPosition: Bool
    /// One frame pixel's length in the layer's own space: the geometric mean of the inverse
    /// transform's two scales, so a stage smooths its edges over about a pixel.
    let pixelLength: Float

    /// nil when `frameFromLocal` cannot be inverted (a layer scaled to nothing).
    public init?(stages: [any PixelStage], frameFromLocal: Affine2D) {
        guard let inverse = frameFromLocal.inverted else { return nil }
        self.stages = stages
        @inline(__always) func floats(_ m: Affine2D) -> (Float, Float, Float, Float, Float, Float) {
            (Float(m.a), Float(m.b), Float(m.c), Float(m.d), Float(m.tx), Float(m.ty))
        }
        self.frameFromLocal = floats(frameFromLocal)
        localFromFrame = floats(inverse)
        let area = abs(inverse.a * inverse.d - inverse.b * inverse.c).squareRoot()
        pixelLength = area.isFinite && area > 0 ? Float(area) : 1
        distortions = stages.indices.filter { stages[$0].movesPixels }
        colorStages = stages.indices.filter { stages[$0].changesColor }
        colorReadsPosition = colorStages.contains { stages[$0].readsPosition }
        callers = stages.map { StageCaller.make($0) }
    }

    /// The farthest the stages move content, in frame pixels.
    public func reach(frameFromLocal: Affine2D) -> Int {
        let local = stages.reduce(0) { $0 + $1.reach }
        let scale = max(
            (frameFromLocal.a * frameFromLocal.a + frameFromLocal.b * frameFromLocal.b).squareRoot(),
            (frameFromLocal.c * frameFromLocal.c + frameFromLocal.d * frameFromLocal.d).squareRoot())
        let frame = local * scale
        return frame.isFinite ? Int(min(frame, 65_536).rounded(.up)) + 1 : 65_536
    }

    /// The finest detail of the stages' mappings in frame pixels (`PixelStage.featureSize`
    /// scaled by the layer's transform where it shrinks most); nil when a stage is not smooth.
    public func featureSize(frameFromLocal m: Affine2D) -> Double? {
        var finest = Double.infinity
        for stage in stages {
            guard let size = stage.featureSize else { return nil }
            finest = min(finest, size)
        }
        // The smallest singular value of [[a, c], [b, d]]: σ²max + σ²min = a² + b² + c² + d²,
        // σmax·σmin = |det|.
        let sum = m.a * m.a + m.b * m.b + m.c * m.c + m.d * m.d
        let det = abs(m.a * m.d - m.b * m.c)
        let smallest = ((sum - (max(0, sum * sum - 4 * det * det)).squareRoot()) / 2).squareRoot()
        let frame = finest * smallest
        return frame.isNaN ? nil : frame
    }

    /// Paints frame rows `firstRow..<firstRow+rows` into `band` within `columns`: pixels of
    /// `extent` from `source` through the stages, every other pixel transparent.
    public func paint(
        into band: PlanarBand, firstRow: Int, rows count: Int, columns: Range<Int>,
        extent: (rows: Range<Int>, columns: Range<Int>), source: PlanarSampler
    ) {
        let top = max(firstRow, extent.rows.lowerBound),
            bottom = min(firstRow + count, extent.rows.upperBound)
        // Where the extent holds every pixel asked for, each is written below: clearing them first
        // would write the band twice.
        let inside = columns.clamped(to: extent.columns)
        if top != firstRow || bottom != firstRow + count || inside != columns {
            band.fill(.transparent, rows: count, columns: columns)
        }
        let span = band.chunkSpan(inside)
        guard !span.isEmpty, top < bottom else { return }
        let lane = SIMD8<Float>(0, 1, 2, 3, 4, 5, 6, 7) + 0.5
        withBatch { batch, list in
            for y in top..<bottom {
                let py = SIMD8<Float>(repeating: Float(y) + 0.5)
                let offset = (y - firstRow) &* band.stride
                var x = span.lowerBound
                while x < span.upperBound {
                    let groups = min(StageBatch.groups, (span.upperBound &- x &+ 7) >> 3)
                    for k in 0..<groups {
                        batch.x[k] = lane + Float(x &+ 8 &* k)
                        batch.y[k] = py
                    }
                    if colorReadsPosition { recordPositions(batch, count: groups) }
                    if movesPixels { mapBack(batch, list, count: groups) }
                    // Where the stages moved nothing (outside a ripple's front, say) the pixels
                    // are read as they are, from the packed copy the taps read: the same values
                    // the taps would give, and the frame's reads stay in that one copy, half the
                    // size of the planes. When every group moved, the taps are read for all of
                    // them at once, so one group's reads overlap the others' waits (the same
                    // arithmetic per lane).
                    let start = x
                    // Compared lane-wise and tested once: the vectors' `==` compiled to a loop
                    // over the lanes, a branch each.
                    @inline(__always) func unmoved(_ k: Int) -> Bool {
                        !movesPixels
                            || all((batch.x[k] .== lane + Float(start &+ 8 &* k)) .& (batch.y[k] .== py))
                    }
                    if movesPixels && !(0..<groups).contains(where: unmoved) {
                        source.color(
                            x: batch.x, y: batch.y, count: groups, into: batch.color, scratch: batch.scratch,
                            index: batch.index)
                    } else {
                        for k in 0..<groups {
                            let first = x &+ 8 &* k, c = batch.color + 4 &* k
                            (c[0], c[1], c[2], c[3]) =
                                unmoved(k) && source.holds(x: first, y: y)
                                ? (movesPixels
                                    ? source.packedPixels(x: first, y: y) : source.pixels(x: first, y: y))
                                : source.color(x: batch.x[k], y: batch.y[k])
                        }
                    }
                    if hasColorStages { applyColors(batch, list, count: groups) }
                    for k in 0..<groups {
                        // Lanes outside the layer's extent stay transparent.
                        let c = batch.color + 4 &* k
                        band.storeMasked(
                            c[0], c[1], c[2], c[3], x: x &+ 8 &* k, offset: offset, columns: extent.columns)
                    }
                    x &+= 8 &* groups
                }
            }
        }
    }
}

extension PixelPipeline {
    /// `batch`'s frame positions back through the distortions (last first), in the layer's own
    /// space.
    @inline(__always)
    func mapBack(_ batch: StageBatch, _ list: StageList, count: Int) {
        let l = localFromFrame, f = frameFromLocal
        let x = batch.x, y = batch.y
        for k in 0..<count {
            let px = x[k], py = y[k]
            x[k] = px * l.a + (py * l.c + l.tx)
            y[k] = px * l.b + (py * l.d + l.ty)
        }
        for index in list.distortions.reversed() {
            list.callers[index]._withUnsafeGuaranteedRef {
                $0.mapBack(batch.forStage(index), count: count)
            }
        }
        for k in 0..<count {
            let lx = x[k], ly = y[k]
            x[k] = lx * f.a + (ly * f.c + f.tx)
            y[k] = lx * f.b + (ly * f.d + f.ty)
        }
    }

    /// `batch`'s frame positions in the layer's own space, for the colour stages: where each
    /// pixel is drawn, before the distortions move the positions it is sampled at.
    @inline(__always)
    func recordPositions(_ batch: StageBatch, count: Int) {
        let l = localFromFrame
        for k in 0..<count {
            let px = batch.x[k], py = batch.y[k]
            batch.localX[k] = px * l.a + (py * l.c + l.tx)
            batch.localY[k] = px * l.b + (py * l.d + l.ty)
        }
    }

    /// The colour stages in order on `batch`'s sampled colours.
    @inline(__always)
    func applyColors(_ batch: StageBatch, _ list: StageList, count: Int) {
        for index in list.colorStages {
            list.callers[index]._withUnsafeGuaranteedRef { $0.color(batch.forStage(index), count: count) }
            // Each stage sees valid premultiplied colour, as it would after a pass.
            for k in 0..<count {
                let c = batch.color + 4 &* k
                let a = unit(c[3])
                c[3] = a
                c[0] = between(c[0], SIMD8(), a)
                c[1] = between(c[1], SIMD8(), a)
                c[2] = between(c[2], SIMD8(), a)
            }
        }
    }

    /// Runs `body` with a batch, with carried room for every stage, and the stages.
    @inline(__always)
    func withBatch<R>(_ body: (StageBatch, StageList) -> R) -> R {
        let groups = StageBatch.groups
        return withUnsafeTemporaryAllocation(
            of: SIMD8<Float>.self, capacity: (12 + max(stages.count, 1)) * groups
        ) { room in
            withUnsafeTemporaryAllocation(of: SIMD8<Int32>.self, capacity: groups) { index in
                let base = room.baseAddress!
                let batch = StageBatch(
                    x: base, y: base + groups, color: base + 2 * groups, scratch: base + 6 * groups,
                    index: index.baseAddress!, carried: base + 12 * groups, localX: base + 10 * groups,
                    localY: base + 11 * groups, pixelLength: pixelLength)
                let unmanaged = callers.map { Unmanaged.passUnretained($0) }
                return unmanaged.withUnsafeBufferPointer { callers in
                    distortions.withUnsafeBufferPointer { distortions in
                        colorStages.withUnsafeBufferPointer { colorStages in
                            body(
                                batch,
                                StageList(
                                    callers: callers, distortions: distortions, colorStages: colorStages))
                        }
                    }
                }
            }
        }
    }
}

/// The pipeline's stages and which of them move or colour, read in place while a band paints.
/// The bands of a frame share the stages: calling one through `any PixelStage` copies the
/// existential (its box is retained and released) every batch, from every thread at once, so
/// the stages are called through unretained references to their `StageCaller`s, which the
/// pipeline keeps alive.
struct StageList {
    let callers: UnsafeBufferPointer<Unmanaged<StageCaller>>
    let distortions: UnsafeBufferPointer<Int>
    let colorStages: UnsafeBufferPointer<Int>
}

/// One pixel stage behind a class, so a band can call it through an unretained reference.
class StageCaller: @unchecked Sendable {
    static func make(_ stage: any PixelStage) -> StageCaller { typed(stage) }

    private static func typed<Stage: PixelStage>(_ stage: Stage) -> StageCaller { TypedStageCaller(stage) }

    func mapBack(_ batch: StageBatch, count: Int) { preconditionFailure("StageCaller is abstract") }
    func color(_ batch: StageBatch, count: Int) { preconditionFailure("StageCaller is abstract") }
}

/// `StageCaller` for a stage of type `Stage`: the stage is a constant, read in place by each call.
final class TypedStageCaller<Stage: PixelStage>: StageCaller, @unchecked Sendable {
    let stage: Stage

    init(_ stage: Stage) { self.stage = stage }

    override func mapBack(_ batch: StageBatch, count: Int) { stage.mapBack(batch, count: count) }
    override func color(_ batch: StageBatch, count: Int) { stage.color(batch, count: count) }
}
