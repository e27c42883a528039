import Foundation
import XCTest

/// A test case that gets a fresh `TemporaryDirectory` before each test and drops it after.
open class ScratchDirectoryTestCase: XCTestCase {
    private var scratch: TemporaryDirectory?

    /// This test's directory; nil outside a test.
    public var directory: URL! { scratch?.url }

    open override func setUpWithError() throws {
        try super.setUpWithError()
        scratch = try TemporaryDirectory(label: "kiln-\(type(of: self))")
    }

    open override func tearDownWithError() throws {
        scratch = nil
        try super.tearDownWithError()
    }

    /// Writes `text` to `name` in this test's directory and returns its path.
    public func write(_ name: String, _ text: String) throws -> String {
        let url = directory.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    /// The names in this test's directory, sorted.
    public func contents() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }
}
