/// One stage of a layer's pixel pipeline (`PixelPipeline`), as an effect defines it: colour stages
/// map a pixel's colour, distortion stages map a position back to the position its colour comes
/// from, and a stage may do both (the ripple). The raster core knows no effect by name: each
/// effect's file in KilnScene holds its stage type, and the pipeline calls it through this
/// protocol once per batch of up to `StageBatch.groups` groups of eight pixels, so the dynamic
/// call is paid per batch while each stage's per-lane arithmetic is compiled for its own type.
///
/// Most stages conform to `DistortionStage` or `ColorStage`, which give the batch functions from
/// a per-group one; a stage that does both implements the batch functions itself.
public protocol PixelStage: Sendable {
    /// How far, in the layer's own units, the stage may move content (0 for colour stages).
    var reach: Double { get }

    /// The finest detail the stage's mapping has, in the layer's own units: how far apart its
    /// positions may be sampled and still show how it bends (a noise texel, a wave's
    /// wavelength / 2π); infinite for affine mappings and colour matrices; nil for stages that
    /// are not smooth at any scale (a mapping that turns sharply, a colour curve that can
    /// steepen what it maps). A pipeline over a large blur runs on a coarser grid
    /// (`ReducedGrid`) only when every stage's detail is at least half a grid cell across.
    var featureSize: Double? { get }

    /// Whether `mapBack` moves positions; the pipeline skips it otherwise.
    var movesPixels: Bool { get }

    /// Whether `colour` changes colour; the pipeline skips it otherwise.
    var changesColor: Bool { get }

    /// Whether `color` reads the pixels' positions (`StageBatch.position`); the pipeline works
    /// them out only when a stage does, so position-free colour stages cost nothing for them.
    var readsPosition: Bool { get }

    /// Moves `batch.x[k]`, `batch.y[k]` for k < `count` (the layer's own space) to where their
    /// colour comes from. What the colour function needs from the mapping goes to
    /// `batch.carried[k]`, which is this stage's own.
    func mapBack(_ batch: StageBatch, count: Int)

    /// Maps the premultiplied colours `batch.colour[4k…4k+3]` (r, g, b, a) for k < `count` in
    /// place; the pipeline clamps them to valid premultiplied colour after each colour stage.
    func color(_ batch: StageBatch, count: Int)
}

/// A stage that only moves positions, one group of eight at a time.
public protocol DistortionStage: PixelStage {
    /// Eight positions in the layer's own space to where their colour comes from.
    func mapBack(_ x: inout SIMD8<Float>, _ y: inout SIMD8<Float>)
}

extension PixelStage {
    @inlinable public var readsPosition: Bool { false }
}

extension DistortionStage {
    @inlinable public var movesPixels: Bool { true }
    @inlinable public var changesColor: Bool { false }

    @inlinable
    public func mapBack(_ batch: StageBatch, count: Int) {
        for k in 0..<count { mapBack(&batch.x[k], &batch.y[k]) }
    }

    @inlinable
    public func color(_ batch: StageBatch, count: Int) {}
}

/// Where the eight pixels a colour stage maps lie, in the layer's own space (SwiftUI's
/// `colorEffect(position, color)`): each pixel's centre, and the length of one frame pixel there,
/// so an edge can be smoothed over a pixel at any size, draft scale or zoom.
public struct PixelPosition {
    public var x: SIMD8<Float>
    public var y: SIMD8<Float>
    public var pixelLength: Float

    @inlinable
    public init(x: SIMD8<Float>, y: SIMD8<Float>, pixelLength: Float) {
        (self.x, self.y, self.pixelLength) = (x, y, pixelLength)
    }
}

/// A stage that only maps colour, one group of eight pixels at a time: a colour function of the
/// pixel's colour and its position (a mask, a wipe, a vignette need the position; a matrix does not).
public protocol ColorStage: PixelStage {
    /// Eight premultiplied pixels at `position` in place (no clamping; the pipeline clamps).
    func apply(
        _ r: inout SIMD8<Float>, _ g: inout SIMD8<Float>, _ b: inout SIMD8<Float>, _ a: inout SIMD8<Float>,
        at position: PixelPosition)
}

extension ColorStage {
    @inlinable public var reach: Double { 0 }
    @inlinable public var movesPixels: Bool { false }
    @inlinable public var changesColor: Bool { true }
    /// A colour stage is given its pixels' positions unless it says it does not read them.
    @inlinable public var readsPosition: Bool { true }

    @inlinable
    public func mapBack(_ batch: StageBatch, count: Int) {}

    @inlinable
    public func color(_ batch: StageBatch, count: Int) {
        for k in 0..<count {
            let c = batch.color + 4 &* k
            apply(&c[0], &c[1], &c[2], &c[3], at: batch.position(k))
        }
    }
}

/// Room for up to `groups` groups of eight positions (`x`, `y`) and their colours (`colour`:
/// r, g, b, a per group) that the pipeline evaluates stage by stage across the groups.
public struct StageBatch {
    /// Eight groups: each evaluation step waits on memory (noise texels, then the content's
    /// texels, each read at the position the step before computed) and the other groups' steps
    /// fill the wait.
    @inlinable public static var groups: Int { 8 }
    public let x: UnsafeMutablePointer<SIMD8<Float>>
    public let y: UnsafeMutablePointer<SIMD8<Float>>
    public let color: UnsafeMutablePointer<SIMD8<Float>>
    /// Working room: 4 vectors a group, and an index vector a group.
    public let scratch: UnsafeMutablePointer<SIMD8<Float>>
    public let index: UnsafeMutablePointer<SIMD8<Int32>>
    /// One vector a group that the current stage's `mapBack` leaves for its `colour` (the ripple's
    /// summed wave amounts, which brighten the crests); each stage of a pipeline has its own.
    public let carried: UnsafeMutablePointer<SIMD8<Float>>
    /// Each group's pixel centres in the layer's own space, where they are drawn (not where a
    /// distortion samples them), set before the colour stages run when one reads them
    /// (`readsPosition`).
    public let localX: UnsafeMutablePointer<SIMD8<Float>>
    public let localY: UnsafeMutablePointer<SIMD8<Float>>
    /// The length of one frame pixel in the layer's own space.
    public let pixelLength: Float

    init(
        x: UnsafeMutablePointer<SIMD8<Float>>, y: UnsafeMutablePointer<SIMD8<Float>>,
        color: UnsafeMutablePointer<SIMD8<Float>>, scratch: UnsafeMutablePointer<SIMD8<Float>>,
        index: UnsafeMutablePointer<SIMD8<Int32>>, carried: UnsafeMutablePointer<SIMD8<Float>>,
        localX: UnsafeMutablePointer<SIMD8<Float>>, localY: UnsafeMutablePointer<SIMD8<Float>>,
        pixelLength: Float
    ) {
        (self.x, self.y, self.color, self.scratch, self.index, self.carried) = (
            x, y, color, scratch, index, carried
        )
        (self.localX, self.localY, self.pixelLength) = (localX, localY, pixelLength)
    }

    /// Group `k`'s position, for a colour stage.
    @inlinable
    public func position(_ k: Int) -> PixelPosition {
        PixelPosition(x: localX[k], y: localY[k], pixelLength: pixelLength)
    }

    /// The same batch with stage `stage`'s carried room.
    func forStage(_ stage: Int) -> StageBatch {
        StageBatch(
            x: x, y: y, color: color, scratch: scratch, index: index,
            carried: carried + stage &* Self.groups, localX: localX, localY: localY, pixelLength: pixelLength)
    }
}
