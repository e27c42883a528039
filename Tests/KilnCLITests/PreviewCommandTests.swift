import Foundation
import KilnMedia
import KilnTestSupport
import XCTest

/// `kiln preview` as a user runs it: the still's format follows -o's extension (PNG, JPEG, WebP),
/// anything else is refused, and --at must fall inside the job.
final class PreviewCommandTests: TemporaryDirectoryTestCase {
    /// A colour away from the range ends and the grey axis, so a range crush (limited vs full) or
    /// a wrong matrix (BT.709 vs BT.601, swapped chroma) moves at least one channel well past the
    /// JPEG tolerance.
    let color: [UInt8] = [0x33, 0x99, 0xCC]

    /// A 3 s job at 30 fps (90 frames, the last starting at 2.966667 s) of one solid colour.
    func solidJob(width: Int = 96, height: Int = 64) throws -> String {
        let hex = color.map { String(format: "%02x", $0) }.joined()
        return try write(
            "solid.json",
            """
            {"kiln": 1, "output": {"width": \(width), "height": \(height), "fps": 30, "duration": {"seconds": 3}},
             "layers": [{"type": "solid", "color": "#\(hex)"}]}
            """)
    }

    func preview(_ job: String, _ arguments: [String]) throws -> KilnProcess.Result {
        try KilnProcess.run(["preview", job] + arguments)
    }

    func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: directory.appendingPathComponent(name)))
    }

    /// Every pixel of `image` within `tolerance` of the job's colour, opaque.
    func assertSolid(
        _ image: DecodedImage, tolerance: Int, file: StaticString = #filePath, line: UInt = #line
    ) {
        var worst = 0
        for base in stride(from: 0, to: image.rgba.count, by: 4) {
            for channel in 0..<3 {
                worst = max(worst, abs(Int(image.rgba[base + channel]) - Int(color[channel])))
            }
            XCTAssertEqual(image.rgba[base + 3], 255, "alpha", file: file, line: line)
        }
        XCTAssertLessThanOrEqual(worst, tolerance, "largest channel error", file: file, line: line)
    }

    /// A 320x180 frame of a photo card over dark grey: detail, edges and many colours.
    func photoJob() throws -> String {
        let photos = KilnProcess.repositoryRoot.appendingPathComponent("jobs/photos").path
        return try write(
            "photo.json",
            """
            {"kiln": 1, "output": {"width": 320, "height": 180, "fps": 30, "duration": {"frames": 1}},
             "layers": [{"type": "solid", "color": "#202020"},
                        {"type": "image", "path": "\(photos)/ocean.png", "size": [160, 120], "fit": "fill"}]}
            """)
    }

    /// Writes frame 0 of `job` to each name, all expected to succeed, and decodes them back.
    func stills(_ job: String, _ names: [String], file: StaticString = #filePath, line: UInt = #line) throws
        -> [DecodedImage]
    {
        try names.map { name in
            let result = try preview(
                job, ["--frame", "0", "-o", directory.appendingPathComponent(name).path])
            XCTAssertEqual(result.status, 0, "\(name): \(result.stderr)", file: file, line: line)
            return try ImageFile.decode(directory.appendingPathComponent(name))
        }
    }

    /// Mean of each colour channel over the whole image.
    func means(_ image: DecodedImage) -> [Double] {
        (0..<3).map { channel in
            stride(from: channel, to: image.rgba.count, by: 4).reduce(0.0) { $0 + Double(image.rgba[$1]) }
                / Double(image.width * image.height)
        }
    }

    // MARK: Formats

    /// .jpg and .JPEG (any case) write a JFIF JPEG of the job's size whose pixels decode back to the
    /// job's colour within ±3 per channel: full-range BT.601 YCbCr, as JFIF decoders read it. On a
    /// photo the channel means match the PNG's within 1, so there is no cast.
    func testJPEGDecodesBackToTheJobsColor() throws {
        let job = try solidJob()
        for name in ["still.jpg", "still.JPEG"] {
            let result = try preview(job, ["--at", "1", "-o", directory.appendingPathComponent(name).path])
            XCTAssertEqual(result.status, 0, result.stderr)
            let jpeg = try bytes(name)
            XCTAssertEqual(Array(jpeg.prefix(3)), [0xFF, 0xD8, 0xFF], "\(name): JPEG SOI marker")
            XCTAssertEqual(Array(jpeg[6..<11]), Array("JFIF\0".utf8), "\(name): JFIF APP0 segment")
            let url = directory.appendingPathComponent(name)
            XCTAssertTrue(try ImageFile.probe(url) == (.jpeg, 96, 64), name)
            let image = try ImageFile.decode(url)
            XCTAssertEqual([image.width, image.height], [96, 64])
            assertSolid(image, tolerance: 3)
        }

        let photo = try stills(try photoJob(), ["photo.png", "photo.jpeg"])
        XCTAssertEqual([photo[1].width, photo[1].height], [320, 180])
        for (jpeg, png) in zip(means(photo[1]), means(photo[0])) { XCTAssertEqual(jpeg, png, accuracy: 1) }
    }

    /// .webp writes a lossless WebP (a VP8L chunk) holding exactly the PNG preview's pixels, for a
    /// solid job and for a photo.
    func testWebPIsLosslessAndDecodesBackExactly() throws {
        let solid = try stills(try solidJob(), ["solid.png", "solid.webp"])
        let webp = try bytes("solid.webp")
        XCTAssertEqual(Array(webp[0..<4]), Array("RIFF".utf8))
        XCTAssertEqual(Array(webp[8..<16]), Array("WEBPVP8L".utf8), "a lossless (VP8L) WebP")
        XCTAssertTrue(try ImageFile.probe(directory.appendingPathComponent("solid.webp")) == (.webp, 96, 64))
        // The dither may move a rare pixel of an exact colour by one code value (the PNG has it too).
        assertSolid(solid[1], tolerance: 1)
        XCTAssertTrue(solid[1].rgba == solid[0].rgba, "the WebP's pixels differ from the PNG's")

        let photo = try stills(try photoJob(), ["photo.png", "photo.WebP"])
        XCTAssertEqual([photo[1].width, photo[1].height], [320, 180])
        XCTAssertTrue(photo[1].rgba == photo[0].rgba, "the WebP's pixels differ from the PNG's")
    }

    /// PNG is unchanged, and .PNG in capitals is PNG too.
    func testPNGWhateverTheCase() throws {
        let job = try solidJob()
        let result = try preview(
            job, ["--frame", "5", "-o", directory.appendingPathComponent("still.PNG").path])
        XCTAssertEqual(result.status, 0, result.stderr)
        let png = try bytes("still.PNG")
        XCTAssertEqual(Array(png.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        assertSolid(try PNGCodec.decode(png), tolerance: 1)
    }

    /// An extension that is none of the three (or none at all) is a usage error naming the accepted
    /// ones, before anything is rendered or written.
    func testOtherExtensionsAreRefused() throws {
        let job = try solidJob()
        for name in ["still.gif", "still", "still.png.txt", "still.jpe"] {
            let result = try preview(job, ["--at", "1", "-o", directory.appendingPathComponent(name).path])
            XCTAssertEqual(result.status, 64, "\(name): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(".png, .jpg, .jpeg or .webp"), "\(name): \(result.stderr)")
            XCTAssertEqual(try contents(), ["solid.json"], "\(name): nothing may be written")
        }
    }

    func testHelpNamesTheFormats() throws {
        let help = try KilnProcess.run(["preview", "--help"])
        XCTAssertEqual(help.status, 0, help.stderr)
        for word in [".png", ".jpg", ".jpeg", ".webp", "lossless"] {
            XCTAssertTrue(
                help.stdout.contains(word), "preview --help should mention \(word):\n\(help.stdout)")
        }
    }

    // MARK: --at

    /// --at at or past the end (3 s here) is a usage error like --frame past the end: it names the
    /// job's duration and when its last frame starts, and writes nothing.
    func testAtOrPastTheDurationIsRefused() throws {
        let job = try solidJob()
        for at in ["3", "3.0", "10", "1e6"] {
            let result = try preview(
                job, ["--at", at, "-o", directory.appendingPathComponent("late.png").path])
            XCTAssertEqual(result.status, 64, "--at \(at): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("lasts 3 s"), "--at \(at): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("starts at 2.966667 s"), "--at \(at): \(result.stderr)")
            XCTAssertEqual(try contents(), ["solid.json"], "--at \(at): nothing may be written")
        }
        // The option parser refuses what is not a finite number ≥ 0.
        for at in ["nan", "inf", "-1"] {
            let result = try preview(
                job, ["--at", at, "-o", directory.appendingPathComponent("bad.png").path])
            XCTAssertEqual(result.status, 64, "--at \(at): \(result.stderr)")
            XCTAssertEqual(try contents(), ["solid.json"], "--at \(at): nothing may be written")
        }
    }

    /// Just below the duration is the last frame, the same bytes as --frame 89; 0 is the first.
    func testAtJustBelowTheDurationIsTheLastFrame() throws {
        let job = try write(
            "ramp.json",
            """
            {"kiln": 1, "output": {"width": 32, "height": 16, "fps": 30, "duration": {"seconds": 3}},
             "layers": [{"type": "solid", "color": {"keyframes": [{"t": 0, "v": "#000000"}, {"t": 3, "v": "#ffffff"}]}}]}
            """)
        func still(_ arguments: [String], _ name: String) throws -> [UInt8] {
            let result = try preview(job, arguments + ["-o", directory.appendingPathComponent(name).path])
            XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
            return try bytes(name)
        }
        let last = try still(["--frame", "89"], "last.png")
        XCTAssertEqual(try still(["--at", "2.999999"], "late.png"), last)
        XCTAssertEqual(try still(["--at", "2.966667"], "start.png"), last)
        XCTAssertNotEqual(try still(["--at", "2.96"], "before.png"), last, "2.96 s is frame 88")
        XCTAssertEqual(try still(["--at", "0"], "zero.png"), try still(["--frame", "0"], "first.png"))
    }
}
