import CFreeType
import KilnRaster

/// FreeType's anti-aliasing ("smooth") rasterizer filling a vector path into an 8-bit coverage
/// grid (FT_Outline_Get_Bitmap, FreeType's FT_Outline_Render onto a gray bitmap target): the reference Kiln's own path rasterizer (`PathPainter`) is tested and benchmarked
/// against. Not used for rendering: the raster core paints paths itself, straight into bands.
public final class FreeTypeOutlineRasterizer {
    private let library: FT_Library

    public init?() {
        var library: FT_Library?
        guard FT_Init_FreeType(&library) == 0, let library else { return nil }
        self.library = library
    }

    deinit { FT_Done_FreeType(library) }

    /// FreeType's outlines count points in a C `short`.
    public static let maximumPoints = Int(Int16.max)

    /// Coverage 0…255 of every pixel of a `width` × `height` grid (row 0 at the top, y down as
    /// in Kiln), the path in pixels flattened to lines within `tolerance` first so both
    /// rasterizers see the same polygon. nil when the path has too many points or FreeType fails.
    public func coverage(
        of path: VectorPath, fillRule: FillRule, width: Int, height: Int, tolerance: Double = 0.1
    ) -> [UInt8]? {
        guard width > 0, height > 0, width <= 16_384, height <= 16_384 else { return nil }
        var points: [FT_Vector] = []
        var ends: [Int16] = []
        for element in path.flattened(tolerance: tolerance).elements {
            switch element {
            case .move(let p):
                // A move ends the contour before it (if it has points).
                if !points.isEmpty, Int(ends.last ?? -1) != points.count - 1 {
                    ends.append(Int16(points.count - 1))
                }
                points.append(Self.vector(p, height: height))
            case .line(let p): points.append(Self.vector(p, height: height))
            case .close, .quad, .cubic: continue
            }
            guard points.count < Self.maximumPoints else { return nil }
        }
        guard !points.isEmpty else { return [UInt8](repeating: 0, count: width * height) }
        if ends.last.map({ Int($0) }) != points.count - 1 { ends.append(Int16(points.count - 1)) }
        var tags = [CChar](repeating: CChar(FT_CURVE_TAG_ON), count: points.count)
        var grid = [UInt8](repeating: 0, count: width * height)
        let status = points.withUnsafeMutableBufferPointer { pointBuffer in
            tags.withUnsafeMutableBufferPointer { tagBuffer in
                ends.withUnsafeMutableBufferPointer { endBuffer in
                    grid.withUnsafeMutableBufferPointer { gridBuffer in
                        var outline = FT_Outline()
                        outline.n_points = Int16(pointBuffer.count)
                        outline.n_contours = Int16(endBuffer.count)
                        outline.points = pointBuffer.baseAddress
                        outline.tags = tagBuffer.baseAddress
                        outline.contours = endBuffer.baseAddress
                        outline.flags = fillRule == .evenOdd ? FT_OUTLINE_EVEN_ODD_FILL : 0
                        var bitmap = FT_Bitmap()
                        bitmap.rows = UInt32(height)
                        bitmap.width = UInt32(width)
                        bitmap.pitch = Int32(width)
                        bitmap.buffer = gridBuffer.baseAddress
                        bitmap.num_grays = 256
                        bitmap.pixel_mode = UInt8(FT_PIXEL_MODE_GRAY.rawValue)
                        return FT_Outline_Get_Bitmap(library, &outline, &bitmap)
                    }
                }
            }
        }
        return status == 0 ? grid : nil
    }

    /// 26.6 fixed point, y flipped: FreeType's bitmap row 0 is its highest y.
    static func vector(_ p: SIMD2<Double>, height: Int) -> FT_Vector {
        func fixed(_ v: Double) -> FT_Pos {
            let scaled = (v * 64).rounded()
            // Far outside any grid; clamped so the conversion cannot trap.
            return FT_Pos(min(max(scaled, -1e9), 1e9))
        }
        return FT_Vector(x: fixed(p.x), y: fixed(Double(height) - p.y))
    }
}
