import Foundation
import KilnExport
import KilnModel
import KilnRaster
import KilnScene
import KilnTestSupport

/// Paths and helpers shared by the scene tests.
enum Fixture {
    static let repositoryRoot = ShippedJobs.repositoryRoot(testFile: #filePath)
    static let goldens = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Goldens")

    static func job(_ json: String, file: String = "test.json") throws -> Job {
        try JobFiles.decode(
            bytes: Array(json.utf8), file: file, baseDirectory: URL(fileURLWithPath: NSTemporaryDirectory()))
    }

    /// The seed's 3×3 mesh (black, blue, green rows) with the centre point at `center`.
    static func seedMeshJob(
        center: (Double, Double), smooth: Bool = true, width: Int = 1920, height: Int = 1080
    )
        throws -> Job
    {
        try job(
            """
            {"kiln": 1,
             "output": {"width": \(width), "height": \(height), "fps": 30, "duration": 1},
             "layers": [{"type": "meshGradient", "width": 3, "height": 3, "smoothsColors": \(smooth),
               "points": [[0,0],[0.5,0],[1,0],[0,0.5],[\(center.0),\(center.1)],[1,0.5],[0,1],[0.5,1],[1,1]],
               "colors": ["#000000","#000000","#000000","#0000ff","#0000ff","#0000ff","#00ff00","#00ff00","#00ff00"]}]}
            """)
    }

    /// A draft (`Job.drafted`) renders at its own size, its layout mapped into it.
    static func render(_ job: Job, at time: Double = 0, threads: Int = 2) -> RGBA8Frame {
        let canvas = Canvas(output: job.output)
        let frame = RGBA8Frame(width: canvas.width, height: canvas.height)
        SceneRenderer(job: job, canvas: canvas, threads: threads).render(at: time, yuv: nil, rgba: frame)
        return frame
    }

    static func renderYUV(_ job: Job, at time: Double = 0, threads: Int) -> [UInt8] {
        let canvas = Canvas(output: job.output)
        let frame = YUV420Frame(width: canvas.width, height: canvas.height)
        SceneRenderer(job: job, canvas: canvas, threads: threads).render(at: time, yuv: frame, rgba: nil)
        let w = canvas.width, h = canvas.height
        return Array(UnsafeBufferPointer(start: frame.y, count: w * h))
            + Array(UnsafeBufferPointer(start: frame.u, count: w * h / 4))
            + Array(UnsafeBufferPointer(start: frame.v, count: w * h / 4))
    }
}
