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

    /// The spellings, straight to the writer: the folder is resolved, the final name is
    /// not, so a link there is refused (73) and its target is not written.
    func testALinkAtTheFinalNameIsRefusedWhateverTheSpelling() throws {
        let victim = directory.appendingPathComponent("victim.txt")
        try Data("precious".utf8).write(to: victim)
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("jobs/sub"), withIntermediateDirectories: true)
        XCTAssertEqual(symlink(victim.path, directory.appendingPathComponent("jobs/e.mp4").path), 0)
        for spelling in ["jobs/sub/../e.mp4", "jobs/../jobs/e.mp4", "jobs/e.mp4"] {
            let url = URL(fileURLWithPath: directory.path + "/" + spelling)
            XCTAssertThrowsError(try AtomicOutputFile(finalURL: url), spelling) { error in
                XCTAssertEqual((error as? ExportError)?.exitCode, 73)
                XCTAssertTrue("\(error)".contains("symbolic link"), "\(error)")
            }
            XCTAssertThrowsError(try AtomicOutputFolder(finalURL: url), spelling)
        }
        XCTAssertEqual(try String(contentsOf: victim, encoding: .utf8), "precious")
        let location = OutputLocation("sub/../e.mp4", relativeTo: directory.path + "/jobs")
        XCTAssertEqual(location.name, "e.mp4")
        XCTAssertEqual(location.directory, realDirectory + "/jobs", "the link itself, not its target")
        XCTAssertEqual(
            OutputLocation("new/deeper/../x.mp4", relativeTo: directory.path).path,
            realDirectory + "/new/x.mp4")
    }

    var realDirectory: String { URL(fileURLWithPath: directory.path).resolvingSymlinksInPath().path }

    /// A folder of the resolved path that is a link (swapped in after the path was resolved) is
    /// not walked through when the directory is opened.
    func testTheOutputFolderIsOpenedWithoutFollowingLinks() throws {
        let real = directory.appendingPathComponent("real")
        try FileManager.default.createDirectory(at: real, withIntermediateDirectories: true)
        XCTAssertEqual(symlink(real.path, directory.appendingPathComponent("alias").path), 0)
        XCTAssertThrowsError(try OutputDirectory(realDirectory + "/alias")) { error in
            XCTAssertTrue("\(error)".contains("alias is a symbolic link"), "\(error)")
        }
        let opened = try OutputDirectory(realDirectory + "/real")
        let fd = opened.createFile("made")
        XCTAssertGreaterThanOrEqual(fd, 0)
        close(fd)
        XCTAssertTrue(opened.holdsRegularFile("made"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: real.appendingPathComponent("made").path))
    }

    /// What FFmpeg writes by path goes into the temp file the descriptor holds, even when the
    /// temp file's name is replaced by a link in the meantime.
    func testWritersWriteThroughTheOpenTempFile() throws {
        let file = try AtomicOutputFile(finalURL: directory.appendingPathComponent("c.mp4"))
        XCTAssertTrue(file.writablePath.hasPrefix("/proc/self/fd/"), file.writablePath)
        let fd = open(file.writablePath, O_WRONLY | O_TRUNC)
        XCTAssertGreaterThanOrEqual(fd, 0)
        XCTAssertEqual(Glibc.write(fd, "abc", 3), 3)
        close(fd)
        try file.commit()
        XCTAssertEqual(
            try String(contentsOf: directory.appendingPathComponent("c.mp4"), encoding: .utf8), "abc")
    }
}
