import Foundation
import KilnExport
import KilnModel
import KilnTestSupport
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// The last line of defence for an output: whatever the job loader let through, the file is
/// created exclusively, never through a link, and never renamed over a device, FIFO or the queue.
final class AtomicOutputTests: ScratchDirectoryTestCase {
    override func tearDownWithError() throws {
        AtomicOutputFile.protectedFiles.withLock { $0 = [] }
        try super.tearDownWithError()
    }

    func testTheTempFileIsANewRegularFileCreatedBeforeAnyWriter() throws {
        let file = try AtomicOutputFile(finalURL: directory.appendingPathComponent("a.mp4"))
        var info = stat()
        XCTAssertEqual(lstat(file.temporaryURL.path, &info), 0, "created by init, before FFmpeg opens it")
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFREG)
        file.discard()
        XCTAssertFalse(FileManager.default.fileExists(atPath: file.temporaryURL.path))
    }

    func testACommitNeverReplacesAFIFOThatAppearedAtTheFinalPath() throws {
        let final = directory.appendingPathComponent("b.mp4")
        let file = try AtomicOutputFile(finalURL: final)
        try file.write(Array("content".utf8))
        XCTAssertEqual(mkfifo(final.path, 0o600), 0)
        XCTAssertThrowsError(try file.commit()) { error in
            XCTAssertEqual((error as? ExportError)?.exitCode, 73)
            XCTAssertTrue("\(error)".contains("FIFO"), "\(error)")
        }
        var info = stat()
        XCTAssertEqual(lstat(final.path, &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFIFO, "the FIFO is still there")
        XCTAssertFalse(FileManager.default.fileExists(atPath: file.temporaryURL.path), "temp file removed")
    }

    func testProtectedFilesAndDevicesAreRefusedBeforeOpening() throws {
        let queue = directory.appendingPathComponent("queue.sqlite3")
        try Data("SQLite format 3\0".utf8).write(to: queue)
        AtomicOutputFile.protectedFiles.withLock { $0 = ProtectedFile.queueDatabase(queue.path) }
        for target in [queue, URL(fileURLWithPath: queue.path + "-wal"), URL(fileURLWithPath: "/dev/null")] {
            XCTAssertThrowsError(try AtomicOutputFile(finalURL: target), target.path) { error in
                XCTAssertEqual((error as? ExportError)?.exitCode, 73)
            }
        }
        XCTAssertEqual(try Data(contentsOf: queue), Data("SQLite format 3\0".utf8))
        XCTAssertEqual(try contents(), ["queue.sqlite3"], "no temp file was left")
    }
}
