// The horizontal pass. A running sum along a row is a serial chain, so it runs on SIMD vectors
// whose lanes are 16 (or 8) *different rows*: each block of rows is transposed, 4×4 at a time,
// into a line of vectors padded with the border pixels, the three boxes run over the line as one
// pipeline (each lagging the previous by its reach, so the intermediate lines stay in L1/L2),
// and the result is transposed back.

/// Whether a kernel's first two boxes have tails (`BoxKernel.tails`), as a type, so each kernel is
/// compiled once for each case instead of testing per sample.
protocol BoxShape { static var tails: Bool { get } }
enum PlainPair: BoxShape { static var tails: Bool { false } }
enum AllTails: BoxShape { static var tails: Bool { true } }

/// The lane types the kernels run on. Comparisons and `replacing` on a *generic* SIMD type are
/// scalarised through the stack even after specialisation, so the clamps are written per type.
protocol BlurLanes: SIMD where Scalar == Float {
    /// Clamped to 0…1.
    var clampedToUnit: Self { get }
    /// Clamped to 0…alpha.
    func clamped(toAlpha alpha: Self) -> Self
}

extension SIMD8: BlurLanes where Scalar == Float {
    @inline(__always)
    var clampedToUnit: Self { replacing(with: 0, where: self .< 0).replacing(with: 1, where: self .> 1) }

    @inline(__always)
    func clamped(toAlpha alpha: Self) -> Self {
        let v = replacing(with: 0, where: self .< 0)
        return v.replacing(with: alpha, where: v .> alpha)
    }
}

extension SIMD16: BlurLanes where Scalar == Float {
    @inline(__always)
    var clampedToUnit: Self { SIMD16(lowHalf: lowHalf.clampedToUnit, highHalf: highHalf.clampedToUnit) }

    @inline(__always)
    func clamped(toAlpha alpha: Self) -> Self {
        SIMD16(
            lowHalf: lowHalf.clamped(toAlpha: alpha.lowHalf),
            highHalf: highHalf.clamped(toAlpha: alpha.highHalf))
    }
}

extension BoxKernel {
    /// The horizontal pass over `rows` within `columns`, in place, all four planes. Reads only
    /// `rows` within `image.chunkSpan(columns)`, writes only `rows` × `columns`. Leaves values
    /// unclamped for the vertical pass.
    func blurRows(_ image: PlanarBand, rows: Range<Int>, columns: Range<Int>, scratch: BlurScratch) {
        guard !rows.isEmpty, !columns.isEmpty else { return }
        scratch.reserve(lineCapacity(columns.count))
        let span = image.chunkSpan(columns)
        var y = rows.lowerBound
        while y < rows.upperBound {
            let wide = rows.upperBound - y >= 16
            for channel in 0..<4 {
                let plane = image.plane(channel)
                if wide {
                    rowBlock(
                        SIMD16<Float>.self, plane, stride: image.stride, y, rows.upperBound, columns,
                        span: span,
                        scratch)
                } else {
                    rowBlock(
                        SIMD8<Float>.self, plane, stride: image.stride, y, rows.upperBound, columns,
                        span: span,
                        scratch)
                }
            }
            y += wide ? 16 : 8
        }
    }

    /// The three boxes over one line of `count` samples at `line[0..<count]`, as a pipeline: box
    /// 1 produces sample m, box 2 sample m − (r2 + 1), box 3 sample m − (r2 + 1) − (r3 + 1), and
    /// box 3's scaled result overwrites `line[m]` in place (the input it still needs lies ahead
    /// of that). `line` must hold the border pixels repeated over [−reach, 0) and
    /// [count, count + reach); `line1` and `line2` take boxes 1 and 2's results at
    /// [−(r2 + r3 + 2), count + r2 + r3 + 2).
    @inline(__always)
    func runBoxes<V: BlurLanes, Shape: BoxShape>(
        _: Shape.Type, count n: Int, _ line: UnsafeMutablePointer<V>, _ line1: UnsafeMutablePointer<V>,
        _ line2: UnsafeMutablePointer<V>
    ) {
        let r1 = boxes.0.radius, r2 = boxes.1.radius, r3 = boxes.2.radius
        let lag2 = r2 &+ 1, lag3 = r3 &+ 1
        let tail1 = V(repeating: boxes.0.tail), tail2 = V(repeating: boxes.1.tail)
        let tail3 = V(repeating: boxes.2.tail)
        let s = V(repeating: scale)

        // Box 1 keeps the window sum of the sample it is about to emit, updated after emitting.
        var m = -(lag2 &+ lag3)
        var sum1 = V()
        var j = m &- r1
        while j <= m &+ r1 {
            sum1 += line[j]
            j &+= 1
        }
        @inline(__always) func box1() -> V {
            let entering = line[m &+ r1 &+ 1]
            var y = sum1
            if Shape.tails { y += tail1 * (line[m &- r1 &- 1] + entering) }
            line1[m] = y
            sum1 += entering - line[m &- r1]
            return y
        }
        while m < lag2 &- lag3 {
            _ = box1()
            m &+= 1
        }

        // Box 2 at m − lag2: box 1's newest sample is its right outer tap, the one before it
        // joins the window.
        var sum2 = V()
        j = m &- lag2 &- 1 &- r2
        while j <= m &- lag2 &- 1 &+ r2 {
            sum2 += line1[j]
            j &+= 1
        }
        var previous1 = line1[m &- 1]
        @inline(__always) func box2(_ newest: V) -> V {
            let leaving = line1[m &- lag2 &- r2 &- 1]
            sum2 += previous1 - leaving
            previous1 = newest
            var y = sum2
            if Shape.tails { y += tail2 * (leaving + newest) }
            line2[m &- lag2] = y
            return y
        }
        while m < lag2 &+ lag3 {
            _ = box2(box1())
            m &+= 1
        }

        // Box 3 at m − lag2 − lag3, the same way.
        var sum3 = V()
        j = -lag3
        while j < r3 {
            sum3 += line2[j]
            j &+= 1
        }
        var previous2 = line2[r3]
        let end = n &+ lag2 &+ lag3
        while m < end {
            let newest = box2(box1())
            let at = m &- lag2 &- lag3
            let leaving = line2[at &- lag3]
            sum3 += previous2 - leaving
            line[at] = (sum3 + tail3 * (leaving + newest)) * s
            previous2 = newest
            m &+= 1
        }
    }

    /// One block of up to `V.scalarCount` rows of one plane, within `columns`.
    @inline(__always)
    func rowBlock<V: BlurLanes>(
        _: V.Type, _ plane: UnsafeMutablePointer<Float>, stride: Int, _ firstRow: Int, _ rowsEnd: Int,
        _ columns: Range<Int>, span: Range<Int>, _ scratch: BlurScratch
    ) {
        let lineBytes = MemoryLayout<V>.stride
        let (c0, c1) = (columns.lowerBound, columns.upperBound)
        let line = scratch.a.bindMemory(to: V.self, capacity: scratch.capacity) + origin
        let line1 = scratch.b.bindMemory(to: V.self, capacity: scratch.capacity) + origin
        let line2 = scratch.c.bindMemory(to: V.self, capacity: scratch.capacity) + origin
        // Byte address of column x's vector; lanes 4q…4q+3 are at +16q.
        let column = UnsafeMutableRawPointer(line) - c0 &* lineBytes
        let last = rowsEnd &- 1

        // Transpose in, whole 4-column blocks of the chunk span even where they stick out of the
        // window: the extra columns land in the slack before and after the line and are never read.
        // Lanes past the last row repeat it; they are computed and dropped.
        for quad in 0..<(V.scalarCount / 4) {
            let row0 = plane + min(firstRow &+ 4 &* quad, last) &* stride
            let row1 = plane + min(firstRow &+ 4 &* quad &+ 1, last) &* stride
            let row2 = plane + min(firstRow &+ 4 &* quad &+ 2, last) &* stride
            let row3 = plane + min(firstRow &+ 4 &* quad &+ 3, last) &* stride
            var x = span.lowerBound
            while x < span.upperBound {
                let t = transpose4(load4(row0 + x), load4(row1 + x), load4(row2 + x), load4(row3 + x))
                let p = column + (x &* lineBytes &+ 16 &* quad)
                p.storeBytes(of: t.0, as: SIMD4<Float>.self)
                (p + lineBytes).storeBytes(of: t.1, as: SIMD4<Float>.self)
                (p + 2 &* lineBytes).storeBytes(of: t.2, as: SIMD4<Float>.self)
                (p + 3 &* lineBytes).storeBytes(of: t.3, as: SIMD4<Float>.self)
                x &+= 4
            }
        }

        // The border pixels repeated over the reach: the clamp to edge.
        let n = columns.count
        let (first, final) = (line[0], line[n &- 1])
        for i in 1...reach {
            line[-i] = first
            line[n &- 1 &+ i] = final
        }
        if tails {
            runBoxes(AllTails.self, count: n, line, line1, line2)
        } else {
            runBoxes(PlainPair.self, count: n, line, line1, line2)
        }

        // Transpose out; columns outside the window and rows outside the block are not written.
        // Whole 4×4 blocks inside the window go through a loop of their own, which keeps its
        // pointers in registers; the rest (at most one block at each end, or a short block) lane
        // by lane.
        let inner = ((c0 &+ 3) & ~3)..<max((c0 &+ 3) & ~3, c1 & ~3)
        for quad in 0..<(V.scalarCount / 4) {
            let first = firstRow &+ 4 &* quad
            let rows = min(4, rowsEnd &- first)
            if rows <= 0 { break }
            let row0 = plane + first &* stride
            @inline(__always) func block(_ x: Int) -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>)
            {
                let p = UnsafeRawPointer(column) + (x &* lineBytes &+ 16 &* quad)
                return transpose4(
                    p.load(as: SIMD4<Float>.self), (p + lineBytes).load(as: SIMD4<Float>.self),
                    (p + 2 &* lineBytes).load(as: SIMD4<Float>.self),
                    (p + 3 &* lineBytes).load(as: SIMD4<Float>.self))
            }
            if rows == 4 {
                let (row1, row2, row3) = (row0 + stride, row0 + 2 &* stride, row0 + 3 &* stride)
                var x = inner.lowerBound
                while x < inner.upperBound {
                    let t = block(x)
                    store4(t.0, row0 + x)
                    store4(t.1, row1 + x)
                    store4(t.2, row2 + x)
                    store4(t.3, row3 + x)
                    x &+= 4
                }
            }
            var x = span.lowerBound
            while x < span.upperBound {
                if rows == 4 && inner.contains(x) {
                    x = inner.upperBound
                    continue
                }
                let t = block(x)
                for k in 0..<rows {
                    let v = k == 0 ? t.0 : k == 1 ? t.1 : k == 2 ? t.2 : t.3
                    for lane in 0..<4 where columns.contains(x &+ lane) {
                        row0[k &* stride &+ x &+ lane] = v[lane]
                    }
                }
                x &+= 4
            }
        }
    }
}

@inline(__always)
func load4(_ p: UnsafeMutablePointer<Float>) -> SIMD4<Float> {
    UnsafeRawPointer(p).loadUnaligned(as: SIMD4<Float>.self)
}

@inline(__always)
func store4(_ v: SIMD4<Float>, _ p: UnsafeMutablePointer<Float>) {
    UnsafeMutableRawPointer(p).storeBytes(of: v, as: SIMD4<Float>.self)
}

/// 4×4 transpose: result.k holds element k of each argument, in argument order. Written on
/// 128-bit vectors, which LLVM turns into unpack/shuffle/blend instructions one by one; an 8×8
/// version written the same way came out as a tangle of inserts and cross-lane permutes.
@inline(__always)
func transpose4(
    _ a: SIMD4<Float>, _ b: SIMD4<Float>, _ c: SIMD4<Float>, _ d: SIMD4<Float>
) -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) {
    let ab0 = SIMD4(a[0], b[0], a[1], b[1]), ab1 = SIMD4(a[2], b[2], a[3], b[3])
    let cd0 = SIMD4(c[0], d[0], c[1], d[1]), cd1 = SIMD4(c[2], d[2], c[3], d[3])
    return (
        SIMD4(lowHalf: ab0.lowHalf, highHalf: cd0.lowHalf),
        SIMD4(lowHalf: ab0.highHalf, highHalf: cd0.highHalf),
        SIMD4(lowHalf: ab1.lowHalf, highHalf: cd1.lowHalf),
        SIMD4(lowHalf: ab1.highHalf, highHalf: cd1.highHalf)
    )
}
