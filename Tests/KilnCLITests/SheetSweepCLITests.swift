import Foundation
import KilnMedia
import KilnTestSupport
import XCTest

/// `kiln sheet` and `kiln sweep` as a user runs them.
final class SheetSweepCLITests: TemporaryDirectoryTestCase {
    /// A 2 s job: a square whose colour and size come from the document (and may be swept).
    func squareJob() throws -> String {
        try write(
            "square.json",
            """
            {"kiln": 1, "output": {"width": 160, "height": 90, "fps": 10, "duration": 2},
             "layers": [{"type": "solid", "color": "#202020"},
                        {"type": "shape", "size": [40, 40], "fill": "#ff0000", "position": [80, 45],
                         "rotation": {"keyframes": [{"t": 0, "v": 0}, {"t": 2, "v": 90}]}}]}
            """)
    }

    func png(_ name: String) throws -> DecodedImage {
        try PNGCodec.decode(Array(try Data(contentsOf: directory.appendingPathComponent(name))))
    }

    /// The cells are the frames preview writes: at the job's own width, byte for byte.
    func testSheetCellsAreTheFramesPreviewWrites() throws {
        let job = try squareJob()
        let sheet = try KilnProcess.run(
            ["sheet", job, "--count", "3", "--width", "160", "-o", "sheets/s.png"], cwd: directory)
        XCTAssertEqual(sheet.status, 0, sheet.stderr)
        XCTAssertTrue(sheet.stderr.contains("created directory"), sheet.stderr)
        let picture = try png("sheets/s.png")
        XCTAssertGreaterThan(picture.width, 3 * 160)
        let last = try KilnProcess.run(["preview", job, "--frame", "19", "-o", "last.png"], cwd: directory)
        XCTAssertEqual(last.status, 0, last.stderr)
        let frame = try png("last.png")
        // Find the last cell: the third 160-wide cell of the first row, wherever the layout puts it.
        let found = (0..<(picture.height - 90)).contains { y in
            (0..<(picture.width - 160)).contains { x in
                (0..<90).allSatisfy { row in
                    let sheetRow = ((y + row) * picture.width + x) * 4
                    return Array(picture.rgba[sheetRow..<(sheetRow + 160 * 4)])
                        == Array(frame.rgba[(row * 160 * 4)..<((row + 1) * 160 * 4)])
                }
            }
        }
        XCTAssertTrue(found, "the last frame appears unchanged on the sheet")
    }

    func testSheetOptionsAreChecked() throws {
        let job = try squareJob()
        for (args, message) in [
            (["--every", "1", "--count", "2"], "give --every or --count, not both"),
            (["--width", "400"], "--width 400 is wider than the job's frames (160)"),
            (["--every", "0.001"], "more than 400 frames"),
        ] {
            let result = try KilnProcess.run(["sheet", job] + args + ["-o", "s.png"], cwd: directory)
            XCTAssertEqual(result.status, 64, "\(args)")
            XCTAssertTrue(result.stderr.contains(message), "\(args): \(result.stderr)")
        }
        XCTAssertEqual(try KilnProcess.run(["sheet", job, "-o", "s.gif"], cwd: directory).status, 64)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.appendingPathComponent("s.png").path))
    }

    /// One cell per combination; a wrong path (64) or value (65) is named and writes nothing.
    func testSweepRendersEveryCombinationAndNamesWhatIsWrong() throws {
        let job = try squareJob()
        let sweep = try KilnProcess.run(
            [
                "sweep", job, "--vary", "layers[1].fill=#ff0000,#00ff00,#0000ff", "--vary",
                "layers[1].size=[20,20],[60,60]",
                "--times", "0,1", "--width", "80", "-o", "sweep.jpg",
            ], cwd: directory)
        XCTAssertEqual(sweep.status, 0, sweep.stderr)
        XCTAssertTrue(
            FileManager.default.fileExists(atPath: directory.appendingPathComponent("sweep.jpg").path))

        let missing = try KilnProcess.run(
            ["sweep", job, "--vary", "layers[1].effects[0].blur=1,2", "--at", "0", "-o", "bad.png"],
            cwd: directory)
        XCTAssertEqual(missing.status, 64)
        XCTAssertTrue(
            missing.stderr.contains(
                "layers[1].effects does not exist: layers[1] has keys fill, position, rotation, size, type"),
            missing.stderr)
        let invalid = try KilnProcess.run(
            ["sweep", job, "--vary", "layers[1].size=[20,20],[-5,20]", "--at", "0", "-o", "bad.png"],
            cwd: directory)
        XCTAssertEqual(invalid.status, 65)
        XCTAssertTrue(invalid.stderr.contains("with size=[-5,20]:"), invalid.stderr)
        XCTAssertTrue(invalid.stderr.contains("layers[1].size"), invalid.stderr)
        XCTAssertNil(
            invalid.stderr.firstMatch(of: #/square\.json:\d/#),
            "no line numbers of a document the user never wrote")
        let late = try KilnProcess.run(
            ["sweep", job, "--vary", "layers[1].fill=red", "--at", "2", "-o", "bad.png"], cwd: directory)
        XCTAssertEqual(late.status, 64)
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: directory.appendingPathComponent("bad.png").path))
    }
}
