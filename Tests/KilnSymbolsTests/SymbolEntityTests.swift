import Foundation
import KilnSymbols
import KilnTestSupport
import XCTest

/// Entities are refused outright, so no file an entity or a DTD names is ever opened. The named
/// files are FIFOs: opening one for reading blocks until a writer comes, so a parser that tried
/// would hang, which the tests catch with a timeout (and then unblock by opening the writer).
final class SymbolEntityTests: ScratchDirectoryTestCase {
    private func parseWithin(_ seconds: Double, _ text: String, unblocking fifo: String) -> Result<
        SymbolArtwork, SymbolFileError
    >? {
        let done = DispatchSemaphore(value: 0)
        let outcome = OutcomeBox()
        Thread {
            outcome.value = Result { () throws(SymbolFileError) in try SymbolTestSupport.parse(text) }
            done.signal()
        }.start()
        if done.wait(timeout: .now() + seconds) == .timedOut {
            let writer = open(fifo, O_WRONLY | O_NONBLOCK)
            if writer >= 0 { close(writer) }
            _ = done.wait(timeout: .now() + 10)
            return nil
        }
        return outcome.value
    }

    private func fifo(_ name: String) -> String {
        let path = directory.appendingPathComponent(name).path
        XCTAssertEqual(mkfifo(path, 0o600), 0)
        return path
    }

    func testExternalEntityIsNeverOpened() throws {
        let target = fifo("secret")
        let text = """
            <?xml version="1.0"?>
            <!DOCTYPE svg [
              <!ENTITY xxe SYSTEM "file://\(target)">
            ]>
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><g id="&xxe;"><rect width="1" height="1"/></g></svg>
            """
        let result = try XCTUnwrap(
            parseWithin(10, text, unblocking: target), "the parser opened the entity's file")
        guard case .failure(let error) = result else {
            return XCTFail("an entity declaration must be refused")
        }
        XCTAssertEqual(error.line, 3)
        XCTAssertEqual(error.message, "the entity 'xxe' is declared: symbol files may not declare entities")
    }

    func testExternalEntityContentNeverReachesTheArtwork() throws {
        let secret = try write("secret.txt", "kiln-secret-marker")
        let text = """
            <!DOCTYPE svg [<!ENTITY xxe SYSTEM "file://\(secret)">]>
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><g id="&xxe;"><rect width="1" height="1"/></g></svg>
            """
        let error = try XCTUnwrap(SymbolTestSupport.error(text))
        XCTAssertFalse(error.description.contains("kiln-secret-marker"))
    }

    func testParameterEntityIsNeverOpened() throws {
        let target = fifo("dtd")
        let text = """
            <!DOCTYPE svg [<!ENTITY % remote SYSTEM "file://\(target)"> %remote;]>
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><g id="a"><rect width="1" height="1"/></g></svg>
            """
        let result = try XCTUnwrap(
            parseWithin(10, text, unblocking: target), "the parser opened the entity's file")
        guard case .failure(let error) = result else { return XCTFail("a parameter entity must be refused") }
        XCTAssertEqual(
            error.message, "the entity 'remote' is declared: symbol files may not declare entities")
    }

    func testExternalDTDIsNotLoaded() throws {
        let target = fifo("svg11.dtd")
        let text = """
            <!DOCTYPE svg SYSTEM "file://\(target)">
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><g id="a"><rect width="1" height="1"/></g></svg>
            """
        let result = try XCTUnwrap(parseWithin(10, text, unblocking: target), "the parser opened the DTD")
        XCTAssertEqual(try result.get().layers.map(\.name), ["a"])
    }

    func testBillionLaughsIsRefusedAtTheFirstDeclaration() throws {
        var declarations = #"<!ENTITY lol0 "lol">"#
        for i in 1...9 {
            declarations += "<!ENTITY lol\(i) \"" + String(repeating: "&lol\(i - 1);", count: 10) + "\">"
        }
        let text = """
            <!DOCTYPE svg [\(declarations)]>
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><g id="&lol9;"><rect width="1" height="1"/></g></svg>
            """
        let error = try XCTUnwrap(SymbolTestSupport.error(text))
        XCTAssertEqual(error.message, "the entity 'lol0' is declared: symbol files may not declare entities")
    }

    func testCharacterReferencesStillWork() throws {
        let text = SymbolTestSupport.document(#"<g id="caf&#xE9;&amp;"><rect width="1" height="1"/></g>"#)
        XCTAssertEqual(try SymbolTestSupport.parse(text).layers.map(\.name), ["café&"])
    }
}

private final class OutcomeBox: @unchecked Sendable {
    var value: Result<SymbolArtwork, SymbolFileError>?
}
