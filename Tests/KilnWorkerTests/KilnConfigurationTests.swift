import Foundation
import KilnWorker
import XCTest

/// The configuration file: roots relative to the file, `limits` checked by name, any other key
/// refused by name.
final class KilnConfigurationTests: XCTestCase {
    func testRootsAreResolvedAgainstTheFileAndLimitsArePassedThrough() throws {
        let configuration = try KilnConfiguration.parse(
            Array(
                #"{"assetRoots": ["media", "/srv/shared"], "outputRoots": ["../out"], "limits": {"frames": 9000, "text-characters": 2e4}}"#
                    .utf8),
            file: "/etc/kiln/config.json")
        XCTAssertEqual(configuration.assetRoots, ["/etc/kiln/media", "/srv/shared"])
        XCTAssertEqual(configuration.outputRoots, ["/etc/out"])
        XCTAssertEqual(configuration.limitOverrides, ["frames": 9000, "text-characters": 20000])
    }

    func testCompletionHooksAreRead() throws {
        let configuration = try KilnConfiguration.parse(
            Array(
                #"{"onDone": "notify-send \"$KILN_JOB_NAME\"", "onDoneURL": "http://localhost:9000/kiln"}"#
                    .utf8),
            file: "/etc/kiln/config.json")
        XCTAssertEqual(configuration.onDone, #"notify-send "$KILN_JOB_NAME""#)
        XCTAssertEqual(configuration.onDoneURL?.text, "http://localhost:9000/kiln")
    }

    /// Only this machine, in plain HTTP: localhost, 127.0.0.0/8 and [::1], any port but 0.
    func testCompletionWebhooksGoOnlyToThisMachine() {
        for good in [
            "http://localhost/", "http://127.0.0.1:8080/hooks/kiln?token=x", "http://127.1.2.3",
            "http://[::1]:9/",
            "http://LOCALHOST:65535/a",
        ] {
            XCTAssertNoThrow(try LoopbackURL(good), good)
        }
        for bad in [
            "https://127.0.0.1/", "http://128.0.0.1/", "http://127.0.0/", "http://127.0.0.256/",
            "http://[::2]/",
            "http://localhost:0/", "http://localhost:70000/", "http://localhost:x/", "http://127.0.0.1/a b",
            "http://127.0.0.1/\r\nX: y", "ftp://localhost/", "http://[::1/",
        ] {
            XCTAssertThrowsError(try LoopbackURL(bad), bad)
        }
    }

    func testUnknownKeysAndWrongShapesAreRefusedByName() {
        let cases = [
            #"{"assetRoot": ["a"]}"#: "unknown key 'assetRoot'",
            #"{"assetRoots": "a"}"#: "'assetRoots' must be an array of directory paths",
            #"{"limits": {"frames": "many"}}"#: "limits.frames must be a finite number",
            #"{"limits": {"maxFrames": 9000}}"#: "limits: unknown limit 'maxFrames'",
            #"{"onDone": ""}"#: "'onDone' must be a shell command",
            #"{"onDoneURL": "http://192.168.1.2/x"}"#:
                "onDoneURL: 'http://192.168.1.2/x': '192.168.1.2' is not this machine",
            #"[1]"#: "expected a JSON object",
            #"{"#: "not valid JSON",
        ]
        for (text, message) in cases {
            XCTAssertThrowsError(try KilnConfiguration.parse(Array(text.utf8), file: "c.json"), text) {
                error in
                XCTAssertTrue("\(error)".contains(message), "\(text): \(error)")
                XCTAssertTrue("\(error)".hasPrefix("c.json: "), "\(error)")
            }
        }
    }

    func testAMissingDefaultFileIsAnEmptyConfigurationButAMissingExplicitOneIsAnError() throws {
        let empty = try KilnConfiguration.load(
            explicit: nil, environment: ["XDG_CONFIG_HOME": "/nonexistent"])
        XCTAssertEqual(empty, KilnConfiguration())
        XCTAssertThrowsError(try KilnConfiguration.load(explicit: "/nonexistent/kiln.json"))
    }

    func testAConfigurationThatIsAFIFOIsRefusedWithoutBlocking() throws {
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("kiln-config-\(UUID()).json")
            .path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        defer { unlink(fifo) }
        XCTAssertThrowsError(try KilnConfiguration.load(explicit: fifo)) { error in
            XCTAssertTrue("\(error)".contains("FIFO") || "\(error)".contains("fifo"), "\(error)")
        }
    }
}
