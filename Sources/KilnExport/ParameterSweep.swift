import Foundation
import KilnMedia
import KilnModel
import KilnRaster

/// `kiln sweep --vary PATH=v1,v2,…`: one job document per combination of values, each a copy of
/// the job with the values written at their JSON paths (the paths validation errors print).
public struct ParameterSweep: Sendable {
    public struct Variation: Sendable, Equatable {
        public let path: JSONPath
        /// Each value as JSON text: `12`, `"#ff0000"`, `[0.5, 0.5]`.
        public let values: [String]
    }

    public struct Problem: Error, CustomStringConvertible, Equatable {
        public let description: String
    }

    /// As many cells as a contact sheet.
    public static let maximumCombinations = ContactSheet.maximumCells

    public let variations: [Variation]

    public init(variations: [Variation]) {
        self.variations = variations
    }

    /// `PATH=v1,v2,v3`. A value is JSON when it reads as JSON (`12`, `true`, `"a,b"`, `[1, 2]`),
    /// otherwise a string (`#ff0000`, `Noto Serif`); commas inside brackets and quotes do not split.
    public static func variation(_ text: String) throws(Problem) -> Variation {
        guard let equals = text.firstIndex(of: "=") else {
            throw Problem(
                description:
                    "--vary expects PATH=v1,v2,… (for example layers[0].effects[0].blur=0,4,8), got '\(text)'"
            )
        }
        let pathText = String(text[..<equals])
        guard let path = JSONPath(parsing: pathText) else {
            throw Problem(
                description: "--vary: '\(pathText)' is not a JSON path; write it as errors print it: "
                    + "layers[2].effects[0].ripple.amplitude")
        }
        let values = try split(String(text[text.index(after: equals)...])).map { item throws(Problem) in
            try jsonText(item, path: path)
        }
        guard !values.isEmpty else { throw Problem(description: "--vary \(path): no values after '='") }
        return Variation(path: path, values: values)
    }

    /// Every combination, the first variation slowest: value indices, one per variation.
    public var combinations: [[Int]] {
        variations.reduce([[]]) { partial, variation in
            partial.flatMap { prefix in variation.values.indices.map { prefix + [$0] } }
        }
    }

    /// The number of combinations, without building them (a bomb is refused before that).
    public var combinationCount: Double {
        variations.reduce(1) { $0 * Double($1.values.count) }
    }

    /// `amplitude=12 decay=3`: each path by its last key (or index), unless two would read the same.
    public func caption(_ combination: [Int]) -> String {
        let short = variations.map { Self.shortName($0.path) }
        let names = Set(short).count == short.count ? short : variations.map { $0.path.description }
        return zip(names, zip(variations, combination)).map { name, pair in
            "\(name)=\(Self.shown(pair.0.values[pair.1]))"
        }.joined(separator: " ")
    }

    /// The job document with `combination`'s values written in. A path whose parent does not
    /// exist is an error naming it; a missing last key of an object is added (so a parameter left
    /// at its default can be swept), and validation then judges it like any key in the file.
    public func document(_ bytes: [UInt8], combination: [Int]) throws(Problem) -> [UInt8] {
        var root: Any
        do {
            root = try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
        } catch {
            throw Problem(description: "the job is not valid JSON; `kiln validate` names the line")
        }
        for (variation, index) in zip(variations, combination) {
            let value: Any
            do {
                value = try JSONSerialization.jsonObject(
                    with: Data(variation.values[index].utf8), options: [.fragmentsAllowed])
            } catch {
                throw Problem(description: "--vary \(variation.path): cannot read \(variation.values[index])")
            }
            root = try Self.setting(
                value, at: variation.path.components[...], in: root, parent: JSONPath.root)
        }
        do {
            return Array(try JSONSerialization.data(withJSONObject: root, options: [.fragmentsAllowed]))
        } catch {
            throw Problem(description: "cannot write the varied job: \(error)")
        }
    }

    /// Renders `frames` of each combination's document (one combination per task, its job decoded
    /// once for all its times) and lays them out, a combination's times in a row.
    public func render(
        documents: [[UInt8]], file: String, options: JobLoadOptions, frames: [Int], timeLabels: [String],
        grid: FrameGrid, threads: Int
    ) throws(ExportError) -> RGBA8Frame {
        let directory = URL(fileURLWithPath: file).deletingLastPathComponent()
        let rendered = try FrameBatch(threads: threads).render(count: documents.count) {
            index, threads throws(ExportError) in
            let job: Job
            do throws(JobLoadError) {
                job = try JobFiles.decode(
                    bytes: documents[index], file: file, baseDirectory: directory, options: options)
            } catch {
                throw .job(error)
            }
            let preview = FramePreview(job: job, threads: threads)
            return try frames.map { frame throws(ExportError) in try grid.cell(preview.render(frame: frame)) }
        }
        var cells: [FrameGrid.Cell] = []
        for (combination, images) in zip(combinations, rendered) {
            for (image, label) in zip(images, timeLabels) {
                cells.append(
                    FrameGrid.Cell(
                        frame: image,
                        caption: caption(combination) + (frames.count > 1 ? "  ·  \(label)" : "")))
            }
        }
        do throws(MediaError) {
            return try grid.compose(cells)
        } catch {
            throw .media(error)
        }
    }

    private static func setting(
        _ value: Any, at components: ArraySlice<JSONPath.Component>, in node: Any, parent: JSONPath
    ) throws(Problem) -> Any {
        guard let first = components.first else { return value }
        let rest = components.dropFirst()
        switch first {
        case .key(let key):
            guard var object = node as? [String: Any] else {
                throw Problem(
                    description:
                        "\(parent.key(key)) does not exist: \(parent) is \(kind(of: node)), not an object")
            }
            guard let child = object[key] ?? (rest.isEmpty ? value : nil) else {
                let keys = object.keys.sorted()
                throw Problem(
                    description: "\(parent.key(key)) does not exist: \(parent) has "
                        + (keys.isEmpty ? "no keys" : "keys \(keys.joined(separator: ", "))")
                        + (Suggestion.closest(to: key, among: keys).map { "; did you mean '\($0)'?" } ?? ""))
            }
            object[key] = try setting(value, at: rest, in: child, parent: parent.key(key))
            return object
        case .index(let index):
            guard var array = node as? [Any] else {
                throw Problem(
                    description:
                        "\(parent.index(index)) does not exist: \(parent) is \(kind(of: node)), not an array")
            }
            guard array.indices.contains(index) else {
                throw Problem(
                    description: "\(parent.index(index)) does not exist: \(parent) has \(array.count) item"
                        + (array.count == 1 ? "" : "s") + (array.isEmpty ? "" : " (0…\(array.count - 1))"))
            }
            array[index] = try setting(value, at: rest, in: array[index], parent: parent.index(index))
            return array
        }
    }

    private static func kind(of node: Any) -> String {
        switch node {
        case is [String: Any]: "an object"
        case is [Any]: "an array"
        case is String: "a string"
        case is NSNumber: "a number or boolean"
        default: "null"
        }
    }

    /// Splits on commas outside brackets, braces and double quotes.
    static func split(_ text: String) throws(Problem) -> [String] {
        var items: [String] = [], current = "", depth = 0, quoted = false, escaped = false
        for character in text {
            if quoted {
                current.append(character)
                if escaped {
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    quoted = false
                }
                continue
            }
            switch character {
            case "\"": quoted = true
            case "[", "{": depth += 1
            case "]", "}": depth -= 1
            case "," where depth == 0:
                items.append(current.trimmingCharacters(in: .whitespaces))
                current = ""
                continue
            default: break
            }
            current.append(character)
        }
        items.append(current.trimmingCharacters(in: .whitespaces))
        guard !quoted, depth == 0 else {
            throw Problem(description: "--vary: unbalanced quotes or brackets in '\(text)'")
        }
        return items.filter { !$0.isEmpty }
    }

    /// The value as JSON text: itself when it is JSON, else a JSON string of it.
    static func jsonText(_ item: String, path: JSONPath) throws(Problem) -> String {
        if (try? JSONSerialization.jsonObject(with: Data(item.utf8), options: [.fragmentsAllowed])) != nil {
            return item
        }
        guard let data = try? JSONSerialization.data(withJSONObject: item, options: [.fragmentsAllowed])
        else {
            throw Problem(description: "--vary \(path): cannot use '\(item)' as a value")
        }
        return String(decoding: data, as: UTF8.self)
    }

    public static func shortName(_ path: JSONPath) -> String {
        switch path.components.last {
        case .key(let key)?: key
        case .index(let index)?: "[\(index)]"
        case nil: "$"
        }
    }

    /// A value for a caption: strings without their quotes.
    static func shown(_ json: String) -> String {
        guard json.hasPrefix("\""),
            let text = try? JSONSerialization.jsonObject(with: Data(json.utf8), options: [.fragmentsAllowed])
                as? String
        else { return json }
        return text
    }
}
