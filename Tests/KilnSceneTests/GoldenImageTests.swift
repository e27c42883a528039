import Foundation
import KilnExport
import KilnMedia
import KilnModel
import KilnRaster
import XCTest

/// Golden images, written by Kiln's own PNG path. Regenerate deliberately with
/// KILN_UPDATE_GOLDENS=1 after a reviewed change in rendering.
final class GoldenImageTests: XCTestCase {
    /// Per-channel tolerance: dither and float rounding may move a pixel by a code value or two
    /// across compilers or CPU levels; any real change in rendering moves far more.
    let maxDifference = 3
    let maxMeanDifference = 0.25

    func check(_ name: String, _ frame: RGBA8Frame) throws {
        let url = Fixture.goldens.appendingPathComponent(name + ".png")
        if ProcessInfo.processInfo.environment["KILN_UPDATE_GOLDENS"] == "1" {
            let png = try PNGCodec.encode(
                rgba: frame.bytes, width: frame.width, height: frame.height, stride: frame.stride)
            try Data(png).write(to: url)
        }
        let golden = try PNGCodec.decode(Array(try Data(contentsOf: url)))
        XCTAssertEqual(golden.width, frame.width)
        XCTAssertEqual(golden.height, frame.height)
        let ours = frame.byteArray
        var worst = 0
        var total = 0
        for i in ours.indices {
            let d = abs(Int(ours[i]) - Int(golden.rgba[i]))
            worst = max(worst, d)
            total += d
        }
        XCTAssertLessThanOrEqual(worst, maxDifference, "\(name): largest difference")
        XCTAssertLessThanOrEqual(
            Double(total) / Double(ours.count), maxMeanDifference, "\(name): mean difference")
    }

    func testSeedMeshGradient() throws {
        try check(
            "mesh-seed-smooth",
            Fixture.render(try Fixture.seedMeshJob(center: (0.9, 0.3), width: 480, height: 270)))
        try check(
            "mesh-seed-bilinear",
            Fixture.render(
                try Fixture.seedMeshJob(center: (0.9, 0.3), smooth: false, width: 480, height: 270)))
    }

    /// A shipped job rendered at full size, kept as a golden `factor` times smaller (a quarter by default).
    func checkJob(_ name: String, at times: [Double], downsampledBy factor: Int = 4) throws {
        let job = try JobFiles.load(
            file: Fixture.repositoryRoot.appendingPathComponent("jobs/\(name).json").path)
        for time in times {
            let label = String(format: "%@-t%.1f", name, time)
            try check(label, Fixture.render(job, at: time, threads: 2).downsampled(by: factor))
        }
    }

    /// Every device frame (dark and light finishes, the gloss, a notch) holding a mesh-gradient
    /// screen, and the shipped example.
    func testDeviceFrames() throws {
        let finishes = [
            "phone": #", "reflection": true"#, "tablet": #", "style": "light""#, "laptop": "",
            "browser": #", "style": "light""#,
            "window":
                ##", "title": {"type": "text", "text": "Release notes", "size": 11, "color": "#c9cad0"}"##,
        ]
        for kind in DeviceLayerTests.kinds {
            let job = try Fixture.job(DeviceLayerTests.kindJob(kind, extra: finishes[kind] ?? ""))
            try check("device-\(kind)", Fixture.render(job))
        }
        try check(
            "device-phone-notch",
            Fixture.render(
                try Fixture.job(
                    DeviceLayerTests.kindJob("phone", extra: #", "cutout": "notch", "style": "light""#))))
        try checkJob("device", at: [1.0], downsampledBy: 2)
    }

    /// The title card leaving, the carousel, and the end card (9.9 s); 5.0 s and 9.3 s are where
    /// an overshooting mesh once showed a hard lobe and a crease.
    func testShowcaseFrames() throws { try checkJob("showcase", at: [0.9, 3.3, 5.0, 9.3, 9.9]) }

    /// The podcast demo over its warped cover, where the wrap once left one-word lines
    /// ("offline.", "audio.") and the timestamp touched the next line.
    func testPodcastFrames() throws { try checkJob("podcast", at: [4.0, 24.0]) }

    /// Cards on layered soft shadows, a glowing button, an inset field and an outlined caption on
    /// its pills: at the start and with the lifted card's shadow spread and the glow at its peak.
    func testShadowsFrames() throws { try checkJob("shadows", at: [0.2, 2.6]) }

    /// Text with a stroke (FreeType's stroker, beneath the glyphs) on a pill per line, at full size.
    func testTextStrokeAndBackground() throws {
        let job = try Fixture.job(
            #"""
            {"kiln": 1, "output": {"width": 480, "height": 200, "fps": 30, "duration": 1},
             "layers": [{"type": "solid", "color": "#8fb8de"},
               {"type": "text", "text": "Outlined caption\non two pills", "size": 40, "weight": "bold",
                "alignment": "center", "color": "#ffd23f", "stroke": {"color": "#1a1a2e", "width": 4},
                "background": {"color": "#1a1a2e99", "padding": [20, 6], "cornerRadius": 14}}]}
            """#)
        try check("text-stroke-background", Fixture.render(job))
    }

    /// `kiln sheet`: six showcase frames with their times, under a title.
    func testContactSheet() throws {
        let job = try JobFiles.load(
            file: Fixture.repositoryRoot.appendingPathComponent("jobs/showcase.json").path)
        let sheet = ContactSheet(job: job, threads: 2)
        let frames = try XCTUnwrap(sheet.frames(.count(6)))
        XCTAssertEqual(frames, [0, 66, 132, 197, 263, 329])
        try check(
            "sheet-showcase",
            try sheet.render(
                frames: frames,
                grid: FrameGrid(title: "showcase.json", columns: 3, cellWidth: 240, cellHeight: 135)))
    }

    /// `kiln sweep`: the ripple's amplitude against its decay, labelled.
    func testParameterSweep() throws {
        let file = Fixture.repositoryRoot.appendingPathComponent("jobs/ripple.json").path
        let sweep = ParameterSweep(variations: [
            try ParameterSweep.variation("layers[1].effects[0].ripple.amplitude=4,24"),
            try ParameterSweep.variation("layers[1].effects[0].ripple.decay=1,8"),
        ])
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: file)))
        let documents = try sweep.combinations.map { try sweep.document(bytes, combination: $0) }
        let job = try JobFiles.load(file: file)
        let frame = try XCTUnwrap(FramePreview(job: job).frameIndex(atSeconds: 1.2))
        try check(
            "sweep-ripple",
            try sweep.render(
                documents: documents, file: file, options: JobLoadOptions(), frames: [frame],
                timeLabels: ["1.2 s"],
                grid: FrameGrid(title: "ripple.json at 1.2 s", columns: 2, cellWidth: 240, cellHeight: 135),
                threads: 2))
    }

    /// Each symbol behaviour at a key moment (half size, so a symbol's layers stay legible):
    /// mid-bounce and at rest; pulse dimmed; variable colour part-way; scaled up and down; the
    /// moon hidden in place and leaving the stack; a replace under way; variable value 0.34 and
    /// part-way through a fade; an inherited pulse; the 1080p showcase.
    func testSymbolFrames() throws {
        try checkJob("symbol-bounce", at: [1.2, 3.0], downsampledBy: 2)
        try checkJob("symbol-pulse", at: [2.0], downsampledBy: 2)
        try checkJob("symbol-variable-color", at: [1.1], downsampledBy: 2)
        try checkJob("symbol-scale", at: [1.3, 5.8], downsampledBy: 2)
        try checkJob("symbol-appear", at: [2.0, 3.0], downsampledBy: 2)
        try checkJob("symbol-replace", at: [1.1], downsampledBy: 2)
        try checkJob("symbol-variable-value", at: [1.5, 4.6], downsampledBy: 2)
        try checkJob("symbol-propagation", at: [0.5], downsampledBy: 2)
        try checkJob("symbols", at: [3.3, 8.5])
    }

    /// Vector paths: fills by both rules, strokes with every join and cap, turning and scaling.
    func testPathFrames() throws { try checkJob("paths", at: [0.0, 2.0]) }

    /// Pixel effects: two overlapping ripples, the flowing domain warp, shear and wave, and the
    /// colour effects.
    func testPixelEffectFrames() throws {
        try checkJob("ripple", at: [0.7, 1.9])
        try checkJob("warp", at: [0.0, 3.0])
        try checkJob("shear", at: [0.5, 3.0])
        try checkJob("grayscale", at: [1.0, 3.0])
    }

    /// The pixelate example: a keyframed block size mid-way and at its largest, and a fixed one.
    func testPixelateFrames() throws { try checkJob("pixelate", at: [1.0, 2.0]) }

    /// Shaped text: ligatures, kerning, CJK and colour emoji from fallback fonts, wrapping.
    func testTextFrames() throws { try checkJob("text", at: [0.6, 1.8, 2.8]) }

    /// The transcript overlay over the warped cover: settled, and springing to the next line.
    func testTranscriptFrames() throws { try checkJob("transcript", at: [4.3, 4.6]) }

    /// Captions: a word-timed cue mid-way (its fourth word on the pill), and the balanced
    /// two-line cue with CJK and an emoji.
    func testCaptionsFrames() throws { try checkJob("captions", at: [1.9, 7.5]) }

    /// Cards rotating at the edges, at rest and halfway through an advance.
    func testCarouselFrames() throws { try checkJob("carousel", at: [1.4, 1.8]) }

    func testParallaxFrames() throws { try checkJob("parallax", at: [1.1, 3.4]) }

    func testHueListFrames() throws { try checkJob("hue-list", at: [1.0, 5.0]) }

    /// Cards mid-twirl (appearing, blurred and brightened) and mid-removal.
    func testTwirlFrames() throws { try checkJob("twirl", at: [1.0, 5.0]) }

    /// Every blend mode's card over the mesh gradient (jobs/blend-modes.json).
    func testBlendModeFrames() throws { try checkJob("blend-modes", at: [1.0]) }

    /// Masks (jobs/masks.json): the screenshot half revealed by its growing circle, the luma
    /// matte and the hole on their way; then all three settled or further on.
    func testMaskFrames() throws { try checkJob("masks", at: [1.2, 3.0]) }

    /// The camera mid push-in (the board's camera on its eased way to the revenue badge) and
    /// turned on the users ring, the job's camera still at rest.
    func testCameraFrames() throws { try checkJob("camera", at: [1.1, 3.9]) }

    /// The pointer demo: a click's ring over the sidebar with the camera pushed in, the ⌘K
    /// badge, a card mid-drag with the cursor pressed, and the last click's ring.
    func testPointerFrames() throws { try checkJob("pointer", at: [1.7, 3.8, 8.0, 10.0]) }

    /// The composed product demo (jobs/composition.json): each of the three lower thirds (one
    /// composition file with other variables) on its way in or holding, over the stage pushing in.
    func testCompositionFrames() throws { try checkJob("composition", at: [1.6, 4.2, 6.9]) }

    /// The lower third on its own, holding (jobs/lower-third.json, transparent around its pill).
    func testLowerThirdFrames() throws { try checkJob("lower-third", at: [1.2]) }

    /// Rotated, scaled, skewed and stroked shapes over a gradient, small enough to keep as a file.
    func testShapes() throws {
        let job = try Fixture.job(
            """
            {"kiln": 1, "output": {"width": 480, "height": 270, "fps": 30, "duration": 1},
             "layers": [
               {"type": "meshGradient", "width": 2, "height": 2, "points": [[0,0],[1,0],[0,1],[1,1]],
                "colors": ["#1d1b5e", "#3a1c71", "#0f3057", "#120c2e"]},
               {"type": "shape", "size": [105, 140], "cornerRadius": 9, "fill": "#f4f1ea",
                "position": [140, 135], "rotation": -12},
               {"type": "shape", "size": [105, 140], "cornerRadius": 9, "fill": "#ff5a36", "stroke": "#ffffff",
                "strokeWidth": 2, "position": [340, 135], "rotation": 17, "scale": 0.8},
               {"type": "shape", "shape": "circle", "size": [45, 45], "fill": "#00a8cc", "opacity": 0.8},
               {"type": "shape", "shape": "capsule", "size": [130, 24], "fill": "#120c2e", "stroke": "#ffb347",
                "strokeWidth": 1.5, "anchor": [0, 0.5], "position": [30, 240], "skewX": -12}
             ]}
            """)
        try check("shapes", Fixture.render(job))
    }

    /// jobs/group.json at half size by a top-level group scale: clipped, rotated, faded groups.
    func testGroups() throws {
        let text = String(
            decoding: try Data(contentsOf: Fixture.repositoryRoot.appendingPathComponent("jobs/group.json")),
            as: UTF8.self)
        let job = try Fixture.job(text)
        try check("group-t2", Fixture.render(job, at: 2, threads: 2).downsampled(by: 4))
    }
}

extension RGBA8Frame {
    /// Box-filtered 1/n-size copy, to keep golden files small while covering a full-size render.
    func downsampled(by n: Int) -> RGBA8Frame {
        let out = RGBA8Frame(width: width / n, height: height / n)
        for y in 0..<out.height {
            for x in 0..<out.width {
                var sum = SIMD4<Int>()
                for dy in 0..<n {
                    for dx in 0..<n {
                        let p = pixel(x: x * n + dx, y: y * n + dy)
                        sum &+= SIMD4(Int(p[0]), Int(p[1]), Int(p[2]), Int(p[3]))
                    }
                }
                let q = out.bytes + y * out.stride + x * 4
                for c in 0..<4 { q[c] = UInt8((sum[c] + n * n / 2) / (n * n)) }
            }
        }
        return out
    }
}
