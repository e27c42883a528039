import Foundation
import KilnExport
import KilnModel
import KilnRaster
import KilnTestSupport
import XCTest

@testable import KilnScene

/// Frame digests (`FrameDigester`): equal digests mean equal pixels, and no parameter can change
/// pixels without changing a digest.
final class FrameDigestTests: XCTestCase {
    static let jobsFolder = Fixture.repositoryRoot.appendingPathComponent("jobs")

    static var shippedJobNames: [String] {
        get throws {
            try FileManager.default.contentsOfDirectory(atPath: jobsFolder.path)
                .filter { $0.hasSuffix(".json") }.sorted()
        }
    }

    /// The job `text` (in the jobs folder) loaded and drafted to about 96 pixels wide.
    static func smallJob(_ text: [UInt8], name: String) throws -> Job {
        let job = try JobFiles.decode(bytes: text, file: name, baseDirectory: jobsFolder)
        return try job.drafted(Draft(size: .pixels(width: 96, height: nil)))
    }

    static func pixels(_ job: Job, frame n: Int) -> [UInt8] {
        Fixture.renderYUV(job, at: job.output.timelineTime(ofFrame: n), threads: 1)
    }

    /// Every shipped job at a small size: of each run of frames sharing a digest, the first,
    /// a middle and the last frame have the same pixels. Still frames exist (the test is not
    /// vacuous), and most jobs have some.
    func testEqualDigestsMeanEqualPixelsInEveryShippedJob() throws {
        var sharedTotal = 0
        var random = SplitMix(state: 37)
        for name in try Self.shippedJobNames {
            let text = try [UInt8](Data(contentsOf: Self.jobsFolder.appendingPathComponent(name)))
            let job = try Self.smallJob(text, name: name)
            let digester = FrameDigester(job: job)
            var frames: [FrameDigest: [Int]] = [:]
            for n in 0..<job.output.frameCount { frames[digester.digest(ofFrame: n), default: []].append(n) }
            var groups = frames.values.filter { $0.count > 1 }.sorted { $0[0] < $1[0] }
            sharedTotal += groups.reduce(0) { $0 + $1.count - 1 }
            // At most 12 groups a job, chosen at random, keep the renders bounded.
            while groups.count > 12 { groups.remove(at: Int(random.next() % UInt64(groups.count))) }
            for group in groups {
                let first = Self.pixels(job, frame: group[0])
                for n in Set([group[group.count / 2], group[group.count - 1]]) {
                    XCTAssertEqual(
                        first, Self.pixels(job, frame: n),
                        "\(name): frames \(group[0]) and \(n) share a digest but not their pixels")
                }
            }
        }
        XCTAssertGreaterThan(sharedTotal, 100, "no still frames found: the test would prove nothing")
    }

    /// Frames a layer is not shown on keep their digests when it changes; frames it is shown on
    /// do not.
    func testAHiddenLayerDoesNotChangeTheFramesItIsNotOn() throws {
        func job(_ text: String) throws -> Job {
            try Fixture.job(
                """
                {"kiln": 1, "output": {"width": 64, "height": 36, "fps": 10, "duration": 4},
                 "layers": [{"type": "solid", "color": "#203040"},
                            {"type": "text", "text": "\(text)", "size": 12, "appear": 1}]}
                """)
        }
        let a = FrameDigester(job: try job("one")), b = FrameDigester(job: try job("two"))
        for n in 0..<10 { XCTAssertEqual(a.digest(ofFrame: n), b.digest(ofFrame: n), "frame \(n)") }
        for n in 10..<40 { XCTAssertNotEqual(a.digest(ofFrame: n), b.digest(ofFrame: n), "frame \(n)") }
        // Still before the caption enters and once its entrance has come to rest.
        XCTAssertEqual(a.digest(ofFrame: 0), a.digest(ofFrame: 9))
        XCTAssertEqual(a.digest(ofFrame: 35), a.digest(ofFrame: 39))
        XCTAssertNotEqual(a.digest(ofFrame: 9), a.digest(ofFrame: 11))
    }

    /// An image replaced at the same path changes the digests of exactly the frames that show it;
    /// an unchanged file is read once.
    func testAReplacedAssetChangesExactlyTheFramesThatShowIt() throws {
        let folder = try TemporaryDirectory()
        let picture = folder.url.appendingPathComponent("picture.png")
        let photos = Self.jobsFolder.appendingPathComponent("photos")
        try FileManager.default.copyItem(at: photos.appendingPathComponent("ocean.png"), to: picture)
        let text = """
            {"kiln": 1, "output": {"width": 64, "height": 36, "fps": 10, "duration": 2},
             "layers": [{"type": "solid", "color": "#203040"},
                        {"type": "image", "path": "picture.png", "size": [32, 18], "disappear": 1}]}
            """
        func load() throws -> Job {
            try JobFiles.decode(bytes: Array(text.utf8), file: "job.json", baseDirectory: folder.url)
        }
        let assets = AssetDigests()
        let before = FrameDigester(job: try load(), files: .content(assets))
        let digestsBefore = (0..<20).map { before.digest(ofFrame: $0) }
        let again = FrameDigester(job: try load(), files: .content(assets))
        XCTAssertEqual(digestsBefore[3], again.digest(ofFrame: 3))
        XCTAssertEqual(assets.filesRead, 1, "an unchanged file is digested once")
        try FileManager.default.removeItem(at: picture)
        try FileManager.default.copyItem(at: photos.appendingPathComponent("desert.png"), to: picture)
        let after = FrameDigester(job: try load(), files: .content(assets))
        for n in 0..<20 {
            // The image leaves at 1 s, fading out over its removal.
            let shown = try load().layers[1].lifetime?.phase(at: Double(n) / 10) != nil
            XCTAssertEqual(digestsBefore[n] != after.digest(ofFrame: n), shown, "frame \(n)")
        }
        XCTAssertEqual(assets.filesRead, 2)
    }

    /// The registry mutation test: values written in every shipped job's layers (their kinds'
    /// parameters, their effects', their transitions', their mappings') changed one at a time,
    /// one of each layer's own, of its effects' and of its transition's: either some frame's
    /// digest changes, or no sampled frame's pixels do. Every registered kind, effect and
    /// transition is met in the shipped jobs.
    func testChangingAnyParameterChangesADigestOrNoPixels() throws {
        var namesMet: Set<String> = [], mutations = 0, unchanged = 0
        for name in try Self.shippedJobNames {
            let url = Self.jobsFolder.appendingPathComponent(name)
            guard let root = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any]
            else { continue }
            Self.collectNames(root["layers"] ?? [], into: &namesMet)
            let original = try Self.smallJob(Self.text(root), name: name)
            let frames = Self.sampledFrames(original)
            let originalDigests = Self.digests(original, frames)
            var leaves: [[PathPart]] = []
            Self.collectLeaves(root["layers"] ?? [], at: [.key("layers")], into: &leaves)
            var random = SplitMix(state: UInt64(name.utf8.count) &* 31)
            for path in Self.sample(leaves.filter(Self.isMutable), random: &random) {
                guard let mutated = Self.mutated(root, at: path[...]) as? [String: Any],
                    let job = try? Self.smallJob(Self.text(mutated), name: name)
                else { continue }
                mutations += 1
                if Self.digests(job, frames) != originalDigests { continue }
                unchanged += 1
                for n in frames {
                    XCTAssertEqual(
                        Self.pixels(original, frame: n), Self.pixels(job, frame: n),
                        "\(name) \(path.map { $0.description }.joined()): same digests, different pixels at frame \(n)"
                    )
                }
            }
        }
        XCTAssertGreaterThan(mutations, 400)
        let registered = Set(
            LayerRegistry.kinds.map(\.name) + LayerRegistry.effects.map(\.name)
                + LayerRegistry.transitions.map(\.name))
        XCTAssertEqual(registered.subtracting(namesMet), [], "registered parts no shipped job uses")
        print("frame digest mutations: \(mutations), \(unchanged) left every digest alone")
    }

    /// One leaf of each layer's own values, one of its effects' and one of its transition's (and
    /// mappings'), at random: every layer of every shipped job, in a bounded time.
    static func sample(_ leaves: [[PathPart]], random: inout SplitMix) -> [[PathPart]] {
        var groups: [String: [[PathPart]]] = [:]
        for path in leaves {
            guard
                let layerEnd = path.lastIndex(where: { if case .key("layers") = $0 { true } else { false } })
            else { continue }
            let owner = path[...(layerEnd + 1)].map(\.description).joined()
            let part = path.dropFirst(layerEnd + 2).first.map(\.description) ?? ""
            let category =
                part == ".effects"
                ? "effects"
                : [".transition", ".scrollTransition", ".visualEffect"].contains(part)
                    ? "transition" : "own"
            groups[owner + " " + category, default: []].append(path)
        }
        var chosen: [[PathPart]] = []
        for key in groups.keys.sorted() {
            var group = groups[key]!
            for _ in 0..<min(1, group.count) {
                chosen.append(group.remove(at: Int(random.next() % UInt64(group.count))))
            }
        }
        return chosen
    }

    /// The layer types, effect names and transition names written under `value`.
    static func collectNames(_ value: Any, into names: inout Set<String>) {
        switch value {
        case let array as [Any]:
            for element in array { collectNames(element, into: &names) }
        case let object as [String: Any]:
            if let type = object["type"] as? String { names.insert(type) }
            if let stages = object["effects"] as? [[String: Any]] {
                for stage in stages { names.formUnion(stage.keys) }
            }
            if let transition = object["transition"] { collectTransitionNames(transition, into: &names) }
            for (_, child) in object { collectNames(child, into: &names) }
        default: break
        }
    }

    static func collectTransitionNames(_ value: Any, into names: inout Set<String>) {
        switch value {
        case let name as String: names.insert(name)
        case let array as [Any]:
            names.insert("combined")
            for element in array { collectTransitionNames(element, into: &names) }
        case let object as [String: Any]:
            if object["insertion"] != nil || object["removal"] != nil { names.insert("asymmetric") }
            for (key, child) in object {
                if key != "insertion" && key != "removal" { names.insert(key) }
                collectTransitionNames(child, into: &names)
            }
        default: break
        }
    }

    enum PathPart: CustomStringConvertible {
        case key(String)
        case index(Int)

        var description: String {
            switch self {
            case .key(let key): ".\(key)"
            case .index(let index): "[\(index)]"
            }
        }
    }

    static func text(_ root: [String: Any]) throws -> [UInt8] {
        try [UInt8](JSONSerialization.data(withJSONObject: root, options: [.sortedKeys]))
    }

    static func sampledFrames(_ job: Job) -> [Int] {
        let count = job.output.frameCount
        return Array(Set((0..<16).map { $0 * (count - 1) / 15 })).sorted()
    }

    static func digests(_ job: Job, _ frames: [Int]) -> [FrameDigest] {
        let digester = FrameDigester(job: job)
        return frames.map { digester.digest(ofFrame: $0) }
    }

    /// The paths of every number, boolean and string under `value`.
    static func collectLeaves(_ value: Any, at path: [PathPart], into leaves: inout [[PathPart]]) {
        switch value {
        case let array as [Any]:
            for (index, element) in array.enumerated() {
                collectLeaves(element, at: path + [.index(index)], into: &leaves)
            }
        case let object as [String: Any]:
            for key in object.keys.sorted() {
                collectLeaves(object[key]!, at: path + [.key(key)], into: &leaves)
            }
        default:
            leaves.append(path)
        }
    }

    /// Type names and file paths stay: changing them makes another job, not another value.
    static func isMutable(_ path: [PathPart]) -> Bool {
        guard case .key(let last)? = path.last else { return true }
        return !["type", "path", "file", "symbol", "font", "composition"].contains(last)
    }

    static func mutated(_ value: Any, at path: ArraySlice<PathPart>) -> Any? {
        guard let part = path.first else {
            switch value {
            case let number as NSNumber where String(cString: number.objCType) == "c":
                return !number.boolValue
            case let number as NSNumber:
                let x = number.doubleValue
                return x == 0 ? 0.5 : x * 0.75
            case let text as String:
                return text.hasPrefix("#") ? "#123456" : text + "x"
            default: return nil
            }
        }
        switch part {
        case .key(let key):
            guard var object = value as? [String: Any], let next = object[key],
                let changed = mutated(next, at: path.dropFirst())
            else { return nil }
            object[key] = changed
            return object
        case .index(let index):
            guard var array = value as? [Any], index < array.count,
                let changed = mutated(array[index], at: path.dropFirst())
            else { return nil }
            array[index] = changed
            return array
        }
    }
}
