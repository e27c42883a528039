// The vertical pass. It slides down the image one row at a time over the whole strip of columns,
// keeping each box's running sums for every column and the rows boxes 2 and 3 still need in ring
// buffers; all four planes advance together. Every access is then a long run of contiguous
// floats along a row. Walking narrow column strips top to bottom instead (running sums in
// registers) touches a new page on every row, which no hardware prefetcher follows: measured
// here, merely reading 16-column strips of a 1080p frame cost 4.4–6 ns/px, 64- to 512-column
// tiles 2–3 ns/px, whole rows 1.3 ns/px.

extension BoxKernel {
    /// Per-plane state: three running sums, then box 1's last 2·r2 + 3 rows, then box 2's last
    /// 2·r3 + 3 rows, each `pitch` floats. With exactly these ring sizes the row a box drops from
    /// its window sits in the slot after the one being written.
    struct ColumnState {
        let pitch: Int
        let ring1: Int
        let ring2: Int
        var floatsPerPlane: Int { (3 + ring1 + ring2) * pitch }
    }

    func columnState(width: Int) -> ColumnState {
        ColumnState(pitch: (width + 15) & ~15, ring1: 2 * boxes.1.radius + 3, ring2: 2 * boxes.2.radius + 3)
    }

    /// The vertical pass over rows 0..<n of `columns` of `source`, all four planes, written to
    /// `destination` rows 0..<n starting at column `destinationColumn` (which may be `source` in
    /// place). Clamps to 0 ≤ colour ≤ alpha ≤ 1. Reads and writes only those columns.
    ///
    /// The same pipeline as `runBoxes`, a row per step while it fills and four rows per step after.
    /// In place is safe: the row written lags box 1's oldest input row (r1 + 1 ≤ r2 + r3 + 2).
    func blurColumns(
        _ source: PlanarBand, rowCount n: Int, columns: Range<Int>, into destination: PlanarBand,
        at destinationColumn: Int, scratch: BlurScratch
    ) {
        let width = columns.count
        guard width > 0, n > 0 else { return }
        let layout = columnState(width: width)
        let state = scratch.state(floats: 4 * layout.floatsPerPlane)
        let stride = source.stride, outStride = destination.stride
        let r1 = boxes.0.radius, r2 = boxes.1.radius, r3 = boxes.2.radius
        let lag2 = r2 + 1, lag3 = r3 + 1
        let q1 = layout.ring1, q2 = layout.ring2
        let pitch = layout.pitch
        let last = n - 1

        @inline(__always) func row(_ plane: Int, _ y: Int) -> UnsafeMutablePointer<Float> {
            source.plane(plane) + (min(max(y, 0), last) &* stride &+ columns.lowerBound)
        }
        // Rows before 0 only occur while the pipeline fills, when nothing is written.
        @inline(__always) func outRow(_ plane: Int, _ y: Int) -> UnsafeMutablePointer<Float> {
            destination.plane(plane) + (max(y, 0) &* outStride &+ destinationColumn)
        }
        @inline(__always) func ring(_ m: Int, _ q: Int) -> Int { ((m % q) + q) % q }
        @inline(__always) func sums(_ plane: Int) -> UnsafeMutablePointer<Float> {
            state + plane &* layout.floatsPerPlane
        }
        @inline(__always) func ring1Row(_ plane: Int, _ slot: Int) -> UnsafeMutablePointer<Float> {
            sums(plane) + (3 &+ slot) &* pitch
        }
        @inline(__always) func ring2Row(_ plane: Int, _ slot: Int) -> UnsafeMutablePointer<Float> {
            sums(plane) + (3 &+ q1 &+ slot) &* pitch
        }

        // Box 1's first window lies wholly above row 0, so it is row 0 times the box width.
        var m = -(lag2 + lag3)
        for plane in 0..<4 {
            let top = row(plane, 0), s1 = sums(plane)
            let width1 = Float(2 * r1 + 1)
            for x in 0..<width { s1[x] = top[x] * width1 }
        }

        // Ring slots of box 1's row m and box 2's row m − lag2, advanced with the rows.
        var slot1 = ring(m, q1), slot2 = ring(m - lag2, q2)

        // One step of the pipeline at box-1 row m, for `stage` = 1, 2 or 3 boxes running. Alpha
        // goes first: the colour planes clamp to the alpha row written in the same step.
        @inline(__always) func step(_ m: Int, _ stage: Int) {
            let at3 = m &- lag2 &- lag3
            let next1 = slot1 &+ 1 == q1 ? 0 : slot1 &+ 1
            let previous1 = slot1 == 0 ? q1 &- 1 : slot1 &- 1
            let next2 = slot2 &+ 1 == q2 ? 0 : slot2 &+ 1
            let previous2 = slot2 == 0 ? q2 &- 1 : slot2 &- 1
            @inline(__always) func plane(_ plane: Int) -> ColumnStep {
                let s1 = sums(plane)
                return ColumnStep(
                    enter: row(plane, m &+ r1 &+ 1), leave: row(plane, m &- r1),
                    outer: row(plane, m &- r1 &- 1),
                    sum1: s1, sum2: s1 + pitch, sum3: s1 + 2 &* pitch, y1: ring1Row(plane, slot1),
                    y1Leaving: ring1Row(plane, next1), y1Previous: ring1Row(plane, previous1),
                    y2: ring2Row(plane, slot2), y2Leaving: ring2Row(plane, next2),
                    y2Previous: ring2Row(plane, previous2), output: outRow(plane, at3), alpha: outRow(3, at3),
                    kernel: self)
            }
            if tails {
                run(AllTails.self, stage)
            } else {
                run(PlainPair.self, stage)
            }
            @inline(__always) func run<Shape: BoxShape>(_: Shape.Type, _ stage: Int) {
                switch stage {
                case 1:
                    for k in 0..<4 { plane(k).run(Shape.self, Stage1.self, Color.self, width: width) }
                case 2:
                    for k in 0..<4 { plane(k).run(Shape.self, Stage2.self, Color.self, width: width) }
                default:
                    plane(3).run(Shape.self, Stage3.self, Alpha.self, width: width)
                    for k in 0..<3 { plane(k).run(Shape.self, Stage3.self, Color.self, width: width) }
                }
            }
            slot1 = next1
            slot2 = next2
        }

        while m < lag2 - lag3 {
            step(m, 1)
            m += 1
        }
        // Box 2's window sum for the row before its first.
        for plane in 0..<4 {
            let s2 = sums(plane) + pitch
            for x in 0..<width { s2[x] = 0 }
            for i in (m - lag2 - 1 - r2)...(m - lag2 - 1 + r2) {
                let y1 = ring1Row(plane, ring(i, q1))
                for x in 0..<width { s2[x] += y1[x] }
            }
        }
        while m < lag2 + lag3 {
            step(m, 2)
            m += 1
        }
        for plane in 0..<4 {
            let s3 = sums(plane) + 2 * pitch
            for x in 0..<width { s3[x] = 0 }
            for i in -lag3..<r3 {
                let y2 = ring2Row(plane, ring(i, q2))
                for x in 0..<width { s3[x] += y2[x] }
            }
        }
        // Steady state, four rows per step: each running sum is loaded and stored once per four
        // rows, and boxes 2 and 3 take the previous row's result from a register. Per sample that
        // is about 10 loads and stores instead of 16; one row at a time the pass was bound by the
        // store port (one 128-bit store per cycle on this Zen 1). Rings can be as short as 3 rows
        // (σ < √2), shorter than a step.
        @inline(__always) func wrap(_ slot: Int, _ q: Int) -> Int {
            var s = slot
            while s >= q { s &-= q }
            return s
        }
        @inline(__always) func quad(_ m: Int) {
            let at3 = m &- lag2 &- lag3
            @inline(__always) func plane(_ plane: Int) -> ColumnQuad {
                let s1 = sums(plane)
                @inline(__always) func rows(_ first: Int) -> Rows {
                    (
                        row(plane, first), row(plane, first &+ 1), row(plane, first &+ 2),
                        row(plane, first &+ 3)
                    )
                }
                @inline(__always) func out(_ plane: Int) -> Rows {
                    (
                        outRow(plane, at3), outRow(plane, at3 &+ 1), outRow(plane, at3 &+ 2),
                        outRow(plane, at3 &+ 3)
                    )
                }
                @inline(__always) func ring1(_ from: Int) -> Rows {
                    (
                        ring1Row(plane, wrap(from, q1)), ring1Row(plane, wrap(from &+ 1, q1)),
                        ring1Row(plane, wrap(from &+ 2, q1)), ring1Row(plane, wrap(from &+ 3, q1))
                    )
                }
                @inline(__always) func ring2(_ from: Int) -> Rows {
                    (
                        ring2Row(plane, wrap(from, q2)), ring2Row(plane, wrap(from &+ 1, q2)),
                        ring2Row(plane, wrap(from &+ 2, q2)), ring2Row(plane, wrap(from &+ 3, q2))
                    )
                }
                return ColumnQuad(
                    enter: rows(m &+ r1 &+ 1), leave: rows(m &- r1), outer: rows(m &- r1 &- 1), sum1: s1,
                    sum2: s1 + pitch, sum3: s1 + 2 &* pitch, y1: ring1(slot1), y1Leaving: ring1(slot1 &+ 1),
                    y1Previous: ring1Row(plane, slot1 == 0 ? q1 &- 1 : slot1 &- 1), y2: ring2(slot2),
                    y2Leaving: ring2(slot2 &+ 1),
                    y2Previous: ring2Row(plane, slot2 == 0 ? q2 &- 1 : slot2 &- 1),
                    output: out(plane), alpha: out(3), kernel: self)
            }
            @inline(__always) func run<Shape: BoxShape>(_: Shape.Type) {
                plane(3).run(Shape.self, Alpha.self, width: width)
                for k in 0..<3 { plane(k).run(Shape.self, Color.self, width: width) }
            }
            if tails {
                run(AllTails.self)
            } else {
                run(PlainPair.self)
            }
            slot1 = wrap(slot1 &+ 4, q1)
            slot2 = wrap(slot2 &+ 4, q2)
        }
        let end = n + lag2 + lag3
        while m + 4 <= end {
            quad(m)
            m += 4
        }
        while m < end {
            step(m, 3)
            m += 1
        }
    }
}

typealias Rows = (
    UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>,
    UnsafeMutablePointer<Float>
)

/// Four consecutive row steps of the vertical pipeline's steady state, for one plane.
struct ColumnQuad {
    let enter: Rows
    let leave: Rows
    let outer: Rows
    let sum1: UnsafeMutablePointer<Float>
    let sum2: UnsafeMutablePointer<Float>
    let sum3: UnsafeMutablePointer<Float>
    let y1: Rows
    let y1Leaving: Rows
    let y1Previous: UnsafeMutablePointer<Float>
    let y2: Rows
    let y2Leaving: Rows
    let y2Previous: UnsafeMutablePointer<Float>
    let output: Rows
    let alpha: Rows
    let kernel: BoxKernel

    @inline(__always)
    func run<Shape: BoxShape, Kind: PlaneKind>(_: Shape.Type, _: Kind.Type, width: Int) {
        var x = 0
        while x &+ 16 <= width {
            lanes(SIMD16<Float>.self, Shape.self, Kind.self, x, 16)
            x &+= 16
        }
        while x < width {
            lanes(SIMD8<Float>.self, Shape.self, Kind.self, x, min(8, width &- x))
            x &+= 8
        }
    }

    @inline(__always)
    func lanes<V: BlurLanes, Shape: BoxShape, Kind: PlaneKind>(
        _: V.Type, _: Shape.Type, _: Kind.Type, _ x: Int, _ count: Int
    ) {
        let tails = (
            V(repeating: kernel.boxes.0.tail), V(repeating: kernel.boxes.1.tail),
            V(repeating: kernel.boxes.2.tail)
        )
        let scale = V(repeating: kernel.scale)
        var state = QuadState(
            s1: V.at(sum1 + x), s2: V.at(sum2 + x), s3: V.at(sum3 + x), previous1: V.at(y1Previous + x),
            previous2: V.at(y2Previous + x))
        Self.row(
            &state, Shape.self, Kind.self, x, count, enter.0, leave.0, outer.0, y1.0, y1Leaving.0, y2.0,
            y2Leaving.0,
            output.0, alpha.0, tails, scale)
        Self.row(
            &state, Shape.self, Kind.self, x, count, enter.1, leave.1, outer.1, y1.1, y1Leaving.1, y2.1,
            y2Leaving.1,
            output.1, alpha.1, tails, scale)
        Self.row(
            &state, Shape.self, Kind.self, x, count, enter.2, leave.2, outer.2, y1.2, y1Leaving.2, y2.2,
            y2Leaving.2,
            output.2, alpha.2, tails, scale)
        Self.row(
            &state, Shape.self, Kind.self, x, count, enter.3, leave.3, outer.3, y1.3, y1Leaving.3, y2.3,
            y2Leaving.3,
            output.3, alpha.3, tails, scale)
        (sum1 + x).set(state.s1)
        (sum2 + x).set(state.s2)
        (sum3 + x).set(state.s3)
    }

    struct QuadState<V: BlurLanes> {
        var s1: V
        var s2: V
        var s3: V
        var previous1: V
        var previous2: V
    }

    /// One row of the quad: the three boxes for `count` lanes at column x.
    ///
    /// `@_transparent` because `@inline(__always)` was not honoured here: the call stayed, with the
    /// running sums passed through memory, and the pass ran at 10 ns/px instead of 4.4. (A
    /// `for k in 0..<4` loop in place of the calls was not unrolled: 6.5 ns/px.)
    @_transparent
    static func row<V: BlurLanes, Shape: BoxShape, Kind: PlaneKind>(
        _ state: inout QuadState<V>, _: Shape.Type, _: Kind.Type, _ x: Int, _ count: Int,
        _ enter: UnsafeMutablePointer<Float>, _ leave: UnsafeMutablePointer<Float>,
        _ outer: UnsafeMutablePointer<Float>, _ y1Row: UnsafeMutablePointer<Float>,
        _ y1Leaving: UnsafeMutablePointer<Float>, _ y2Row: UnsafeMutablePointer<Float>,
        _ y2Leaving: UnsafeMutablePointer<Float>, _ output: UnsafeMutablePointer<Float>,
        _ alpha: UnsafeMutablePointer<Float>, _ tails: (V, V, V), _ scale: V
    ) {
        let entering = V.read(enter + x, count)
        var y1 = state.s1
        state.s1 += entering - V.read(leave + x, count)
        if Shape.tails { y1 += tails.0 * (V.read(outer + x, count) + entering) }
        (y1Row + x).set(y1)
        let leaving1 = V.at(y1Leaving + x)
        state.s2 += state.previous1 - leaving1
        state.previous1 = y1
        var y2 = state.s2
        if Shape.tails { y2 += tails.1 * (leaving1 + y1) }
        (y2Row + x).set(y2)
        let leaving2 = V.at(y2Leaving + x)
        state.s3 += state.previous2 - leaving2
        state.previous2 = y2
        let v = (state.s3 + tails.2 * (leaving2 + y2)) * scale
        let clamped = Kind.isAlpha ? v.clampedToUnit : v.clamped(toAlpha: V.read(alpha + x, count))
        clamped.write(output + x, count)
    }
}

/// The pointers one plane needs for one row step of the vertical pass.
struct ColumnStep {
    let enter: UnsafeMutablePointer<Float>
    let leave: UnsafeMutablePointer<Float>
    /// Box 1's left outer tap (used only when the first two boxes have tails).
    let outer: UnsafeMutablePointer<Float>
    let sum1: UnsafeMutablePointer<Float>
    let sum2: UnsafeMutablePointer<Float>
    let sum3: UnsafeMutablePointer<Float>
    let y1: UnsafeMutablePointer<Float>
    let y1Leaving: UnsafeMutablePointer<Float>
    let y1Previous: UnsafeMutablePointer<Float>
    let y2: UnsafeMutablePointer<Float>
    let y2Leaving: UnsafeMutablePointer<Float>
    let y2Previous: UnsafeMutablePointer<Float>
    let output: UnsafeMutablePointer<Float>
    let alpha: UnsafeMutablePointer<Float>
    let kernel: BoxKernel

    @inline(__always)
    func run<Shape: BoxShape, Stage: PipelineStage, Kind: PlaneKind>(
        _: Shape.Type, _: Stage.Type, _: Kind.Type, width: Int
    ) {
        var x = 0
        while x &+ 16 <= width {
            lanes(SIMD16<Float>.self, Shape.self, Stage.self, Kind.self, x, 16)
            x &+= 16
        }
        while x < width {
            lanes(SIMD8<Float>.self, Shape.self, Stage.self, Kind.self, x, min(8, width &- x))
            x &+= 8
        }
    }

    @inline(__always)
    func lanes<V: BlurLanes, Shape: BoxShape, Stage: PipelineStage, Kind: PlaneKind>(
        _: V.Type, _: Shape.Type, _: Stage.Type, _: Kind.Type, _ x: Int, _ count: Int
    ) {
        let entering = V.read(enter + x, count)
        var y1 = V.at(sum1 + x)
        (sum1 + x).set(y1 + (entering - V.read(leave + x, count)))
        if Shape.tails { y1 += V(repeating: kernel.boxes.0.tail) * (V.read(outer + x, count) + entering) }
        (self.y1 + x).set(y1)
        if Stage.boxes < 2 { return }
        let leaving1 = V.at(y1Leaving + x)
        var y2 = V.at(sum2 + x) + (V.at(y1Previous + x) - leaving1)
        (sum2 + x).set(y2)
        if Shape.tails { y2 += V(repeating: kernel.boxes.1.tail) * (leaving1 + y1) }
        (self.y2 + x).set(y2)
        if Stage.boxes < 3 { return }
        let leaving2 = V.at(y2Leaving + x)
        let y3 = V.at(sum3 + x) + (V.at(y2Previous + x) - leaving2)
        (sum3 + x).set(y3)
        let v = (y3 + V(repeating: kernel.boxes.2.tail) * (leaving2 + y2)) * V(repeating: kernel.scale)
        let clamped = Kind.isAlpha ? v.clampedToUnit : v.clamped(toAlpha: V.read(alpha + x, count))
        clamped.write(output + x, count)
    }
}

/// How many of the three boxes run in a step of the vertical pipeline (it fills one box at a
/// time), and whether a plane is alpha (clamped to 0…1, and first) or a colour (clamped to the
/// new alpha) — as types, so each combination is compiled without tests per sample.
protocol PipelineStage { static var boxes: Int { get } }
enum Stage1: PipelineStage { static var boxes: Int { 1 } }
enum Stage2: PipelineStage { static var boxes: Int { 2 } }
enum Stage3: PipelineStage { static var boxes: Int { 3 } }
protocol PlaneKind { static var isAlpha: Bool { get } }
enum Alpha: PlaneKind { static var isAlpha: Bool { true } }
enum Color: PlaneKind { static var isAlpha: Bool { false } }

extension BlurLanes {
    /// A full vector of scratch state.
    @inline(__always)
    static func at(_ p: UnsafeMutablePointer<Float>) -> Self {
        UnsafeRawPointer(p).loadUnaligned(as: Self.self)
    }

    /// `count` lanes of image data, the rest zero: never a read past the caller's columns.
    @inline(__always)
    static func read(_ p: UnsafeMutablePointer<Float>, _ count: Int) -> Self {
        if count == scalarCount { return at(p) }
        var v = Self()
        for lane in 0..<count { v[lane] = p[lane] }
        return v
    }

    @inline(__always)
    func write(_ p: UnsafeMutablePointer<Float>, _ count: Int) {
        if count == scalarCount { return p.set(self) }
        for lane in 0..<count { p[lane] = self[lane] }
    }
}

extension UnsafeMutablePointer where Pointee == Float {
    @inline(__always)
    func set<V: SIMD>(_ v: V) where V.Scalar == Float {
        UnsafeMutableRawPointer(self).storeBytes(of: v, as: V.self)
    }
}
