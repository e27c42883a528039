import Foundation
import KilnExport
import KilnModel
import XCTest

enum HostileFixture {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/Hostile")

    static func job(_ name: String, limits: ResourceLimits = ResourceLimits()) throws(JobLoadError) -> Job {
        let url = directory.appendingPathComponent(name)
        let bytes = (try? Data(contentsOf: url)).map(Array.init) ?? []
        return try JobFiles.decode(
            bytes: bytes, file: name, baseDirectory: directory, options: JobLoadOptions(limits: limits))
    }
}
