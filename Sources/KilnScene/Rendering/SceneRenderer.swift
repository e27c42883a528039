import KilnModel
import KilnRaster

/// Renders a job's layer tree into 8-bit frames, band by band on `threads` workers.
///
/// Per worker it owns an accumulator band, a pool of scratch bands and quantizer scratch,
/// allocated once, so steady-state rendering allocates nothing per band. The bytes of a frame depend only on the job
/// and the time, never on the thread count.
public final class SceneRenderer: @unchecked Sendable {
    public let canvas: Canvas
    public let threads: Int
    private let layers: [LayerNode]
    private let camera: Camera?
    private let workers: [WorkerScratch]

    final class WorkerScratch: @unchecked Sendable {
        let accumulator: PlanarBand
        let pool: BandPool
        let quantizer: Quantizer.Scratch

        init(canvas: Canvas, poison: PremultipliedColor?) {
            accumulator = PlanarBand(width: canvas.width, rows: canvas.bandHeight)
            pool = BandPool(width: canvas.width, rows: canvas.bandHeight, poison: poison)
            quantizer = Quantizer.Scratch(width: canvas.width)
        }
    }

    /// The offscreens and offscreen memory a frame may use (`ResourceLimits`).
    public let limits: ResourceLimits

    /// Layers without a job (benchmarks, tests): the camera is named, so that one built from a
    /// job's layers cannot leave the job's camera out unnoticed (`init(job:canvas:threads:)`).
    public convenience init(
        layers: [LayerNode], camera: Camera?, canvas: Canvas, threads: Int,
        limits: ResourceLimits = ResourceLimits()
    ) {
        self.init(
            layers: layers, camera: camera, canvas: canvas, threads: threads, limits: limits,
            scratchPoison: nil)
    }

    /// A job's scene: its layers seen through its camera.
    public convenience init(job: Job, canvas: Canvas, threads: Int) {
        self.init(
            layers: job.layers, camera: job.camera, canvas: canvas, threads: threads, limits: job.limits)
    }

    /// With `scratchPoison`, every band is filled with that colour before it is painted and every
    /// scratch band before it is lent: a render must give the same bytes as without (tests).
    init(
        layers: [LayerNode], camera: Camera?, canvas: Canvas, threads: Int, limits: ResourceLimits,
        scratchPoison: PremultipliedColor?
    ) {
        self.limits = limits
        self.canvas = canvas
        self.threads = max(1, threads)
        self.layers = layers
        self.camera = camera
        self.scratchPoison = scratchPoison
        videos = Self.videoSources(in: layers)
        workers = (0..<max(1, threads)).map { _ in WorkerScratch(canvas: canvas, poison: scratchPoison) }
    }

    private let scratchPoison: PremultipliedColor?
    /// The clips of the job's video layers, whose decoding failures refuse the frame.
    private let videos: [any VideoFrameSource]

    private static func videoSources(in layers: [LayerNode]) -> [any VideoFrameSource] {
        layers.flatMap { layer in
            ((layer.content as? VideoLayer).map { [$0.source] } ?? []) + videoSources(in: layer.children)
        }
    }

    /// Renders the frame at `time` into `yuv` and/or `rgba` (both hold identical pixels: the YUV
    /// is converted from exactly the dithered RGB). With neither, only composites (benchmarks).
    ///
    /// With `next`, the layers for that time are prepared as one more work item alongside this
    /// frame's bands, and the following call for `next` starts painting at once. Preparing is pure,
    /// so prefetching changes when the work happens, never the bytes.
    ///
    /// With `straightAlpha`, `rgba` keeps the frame's transparency (straight alpha) instead of
    /// holding it over black; `yuv` is always over black.
    public func render(
        at time: Double, prefetching next: Double? = nil, yuv: YUV420Frame?, rgba: RGBA8Frame?,
        straightAlpha: Bool = false
    ) {
        let prepared: LayerStack
        if let ready = prefetched.take(for: time) {
            prepared = ready
        } else {
            prepared = prepare(at: time)
        }
        let offscreens = prepared.offscreens
        if let problem = overBudget(offscreens) {
            refusal = "at \(ResourceLimits.text(time)) s: \(problem)"
            return
        }
        offscreensKept = prepared.renderOffscreens(
            canvas: canvas, threads: threads, images: offscreenImages, scratch: offscreenScratch,
            offscreens: offscreens)
        let scheduler = BandScheduler(height: canvas.height, bandHeight: canvas.bandHeight, threads: threads)
        let workers = self.workers
        var leading: (@Sendable () -> Void)?
        if let next {
            leading = { [self] in prefetched.store(prepare(at: next), for: next) }
        }
        scheduler.run(leading: leading) { worker, firstRow, rows in
            let scratch = workers[worker]
            if let poison = scratchPoison { scratch.accumulator.fill(poison, rows: rows) }
            prepared.paint(
                into: scratch.accumulator, firstRow: firstRow, rows: rows, columns: 0..<canvas.width,
                pool: scratch.pool)
            guard yuv != nil || rgba != nil else { return }
            Quantizer.write(
                band: scratch.accumulator, firstRow: firstRow, rows: rows, yuv: yuv, rgba: rgba,
                scratch: scratch.quantizer, straightAlpha: straightAlpha)
        }
        if let failure = videos.lazy.compactMap(\.failure).first {
            refusal = "at \(ResourceLimits.text(time)) s: \(failure)"
        }
    }

    /// Why the last `render` drew nothing or must not be used, if so: its offscreens would have
    /// passed a limit (checked before allocating any of them), or a video layer's clip stopped
    /// decoding (for this frame or the one prefetched). Every later render is refused too.
    public private(set) var refusal: String?

    private func overBudget(_ offscreens: [Offscreen]) -> String? {
        if let refusal { return refusal }
        if let problem = limits.violation(
            .offscreens, offscreens.count, "the number of offscreen layers in this frame")
        {
            return problem
        }
        let megabytes = offscreenImages.bytesHeld(after: offscreens, canvas: canvas) / (1024 * 1024)
        return limits.violation(
            .offscreenMegabytes, megabytes.rounded(.up),
            "the memory this frame's offscreen images need, in MiB")
    }

    private func prepare(at time: Double) -> LayerStack {
        let context = PlacementContext.scene(
            at: time, canvas: canvas, box: canvas.layoutSize, parent: canvas.frameFromLayout, camera: camera,
            scrollPhase: nil, symbolEffects: [])
        return LayerStack(items: LayerNode.items(of: layers, in: context))
    }

    /// How many offscreens the last `render` took from the frame before it instead of rendering
    /// them (`OffscreenImages`): a still picture under a constant blur, say. Never changes bytes.
    public private(set) var offscreensKept = 0

    private let prefetched = PrefetchSlot()
    private lazy var offscreenImages = OffscreenImages(threads: threads)
    private lazy var offscreenScratch = (0..<threads).map { _ in
        OffscreenScratch(canvas: canvas, poison: scratchPoison)
    }

    /// Holds layers prepared ahead for one time. Written by one work item inside a band run and
    /// read after the run has completed, so the run's completion orders the accesses.
    final class PrefetchSlot: @unchecked Sendable {
        private var time: Double?
        private var layers = LayerStack(items: [])

        func store(_ layers: LayerStack, for time: Double) {
            self.layers = layers
            self.time = time
        }

        func take(for time: Double) -> LayerStack? {
            defer {
                self.time = nil
                layers = LayerStack(items: [])
            }
            return self.time == time ? layers : nil
        }
    }
}
