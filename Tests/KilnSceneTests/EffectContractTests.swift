import Foundation
import KilnExport
import KilnModel
import KilnRaster
import KilnScene
import XCTest

/// Checks every effect in `LayerRegistry.effects` gets without a line of its own: each starts from
/// its use in a shipped job in jobs/ (`RegistryTests` requires one), on a card over an opaque solid.
/// Each numeric parameter at its minimum, default and maximum renders valid premultiplied pixels
/// (finite, opaque over the solid) and the same bytes on 1 and 3 threads; a parameter whose help
/// names an identity ("0 = unchanged") leaves the card as it is without the effect.
final class EffectContractTests: XCTestCase {
    let jobsDirectory = Fixture.repositoryRoot.appendingPathComponent("jobs")
    let times = [0.7, 1.7]

    /// The parameters of each effect's first use in the shipped jobs, as a JSON object (a
    /// shorthand value becomes its parameter).
    func exampleParameters() throws -> [String: [String: Any]] {
        var found: [String: [String: Any]] = [:]
        func walk(_ value: Any) {
            if let list = value as? [Any] { list.forEach(walk) }
            guard let object = value as? [String: Any] else { return }
            for effect in object["effects"] as? [[String: Any]] ?? [] {
                guard let (name, parameters) = effect.first, found[name] == nil,
                    let kind = LayerRegistry.effects.first(where: { $0.name == name })
                else { continue }
                // Values that follow a soundtrack need the job's `audio`, which the card job lacks.
                func followsSound(_ value: Any) -> Bool {
                    guard let object = value as? [String: Any] else { return false }
                    return object["audio"] != nil || object.values.contains(where: followsSound)
                }
                if followsSound(parameters) { continue }
                // An object of parameter names, or a shorthand value (a number or its keyframes).
                if let object = parameters as? [String: Any],
                    object.keys.allSatisfy({ kind.parameters[$0] != nil })
                {
                    found[name] = object
                } else if let shorthand = kind.shorthand {
                    found[name] = [shorthand: parameters]
                }
            }
            object.values.forEach(walk)
        }
        for file in try FileManager.default.contentsOfDirectory(atPath: jobsDirectory.path).sorted()
        where file.hasSuffix(".json") {
            walk(
                try JSONSerialization.jsonObject(
                    with: Data(contentsOf: jobsDirectory.appendingPathComponent(file))))
        }
        return found
    }

    /// The card with `effects` (a JSON array), decoded against jobs/ so example assets resolve.
    func cardJob(_ effects: [[String: Any]]) throws -> Job {
        let text = String(decoding: try JSONSerialization.data(withJSONObject: effects), as: UTF8.self)
        let json = """
            {"kiln": 1, "output": {"width": 200, "height": 160, "fps": 30, "duration": 2},
             "layers": [{"type": "solid", "color": "#101018"},
               {"type": "shape", "size": [120, 80], "cornerRadius": 14, "fill": "#3a7bd5", "rotation": 11,
                "stroke": "#ffffff", "strokeWidth": 2, "effects": \(text)}]}
            """
        return try JobFiles.decode(
            bytes: Array(json.utf8), file: "contract.json", baseDirectory: jobsDirectory)
    }

    /// The numeric parameters of `kind`, with their ranges.
    func numericParameters(_ kind: EffectKind) -> [(parameter: Parameter, range: ClosedRange<Double>)] {
        kind.parameters.parameters.compactMap { parameter in
            switch parameter.kind {
            case .number(let range), .constantNumber(let range): (parameter, range)
            case .integer(let range): (parameter, Double(range.lowerBound)...Double(range.upperBound))
            default: nil
            }
        }
    }

    /// The value the help text names as the identity ("…; 0 = unchanged"), if any.
    func identity(_ parameter: Parameter) -> Double? {
        for part in parameter.help.split(whereSeparator: { $0 == ";" || $0 == "," }) {
            let words = part.split(separator: " ")
            if words.count == 3, words[1] == "=", words[2] == "unchanged", let value = Double(words[0]) {
                return value
            }
        }
        return nil
    }

    /// Pixels of the card layer alone at `time` that are not finite premultiplied colour, painted
    /// band by band as the renderer does.
    func invalidPixels(_ job: Job, at time: Double) -> Int {
        let canvas = Canvas(width: job.output.width, height: job.output.height)
        guard let item = job.layers[1].prepare(at: time, canvas: canvas) else { return 0 }
        let stack = LayerStack(items: [item])
        stack.renderOffscreens(canvas: canvas)
        let band = PlanarBand(width: canvas.width, rows: canvas.bandHeight)
        let pool = BandPool(width: canvas.width, rows: canvas.bandHeight)
        var invalid = 0
        for first in stride(from: 0, to: canvas.height, by: canvas.bandHeight) {
            let rows = min(canvas.bandHeight, canvas.height - first)
            stack.paint(into: band, firstRow: first, rows: rows, columns: 0..<canvas.width, pool: pool)
            for (row, x) in (0..<rows).flatMap({ row in (0..<canvas.width).map { (row, $0) } }) {
                let p = band.pixel(x: x, row: row)
                let bounded = [p.r, p.g, p.b].allSatisfy { $0.isFinite && $0 >= -1e-4 && $0 <= p.a + 1e-4 }
                if !(p.a.isFinite && p.a >= 0 && p.a <= 1.0001 && bounded) { invalid += 1 }
            }
        }
        return invalid
    }

    func testEveryEffectHasAnExampleToStartFrom() throws {
        let examples = try exampleParameters()
        for kind in LayerRegistry.effects {
            XCTAssertNotNil(examples[kind.name], "no shipped job uses effect '\(kind.name)'")
        }
    }

    func testNumericParametersAtTheirEndsAndDefaultRenderValidAndThreadIndependent() throws {
        let examples = try exampleParameters()
        var swept = 0
        for kind in LayerRegistry.effects {
            guard let example = examples[kind.name] else { continue }
            for (parameter, range) in numericParameters(kind) {
                var values = [range.lowerBound, range.upperBound]
                if case .number(let standard)? = parameter.defaultValue { values.append(standard) }
                for value in values {
                    var parameters = example
                    parameters[parameter.name] = value
                    let label = "\(kind.name).\(parameter.name) = \(value)"
                    let job = try cardJob([[kind.name: parameters]])
                    for time in times {
                        XCTAssertEqual(invalidPixels(job, at: time), 0, "\(label) t=\(time)")
                        XCTAssertEqual(
                            Fixture.renderYUV(job, at: time, threads: 1),
                            Fixture.renderYUV(job, at: time, threads: 3), "\(label) t=\(time)")
                        let frame = Fixture.render(job, at: time, threads: 1).byteArray
                        let translucent = stride(from: 3, to: frame.count, by: 4).filter { frame[$0] != 255 }
                        XCTAssertEqual(
                            translucent.count, 0, "\(label) t=\(time): alpha below 255 over the solid")
                    }
                    swept += 1
                }
            }
        }
        // Every effect but the parameterless ones has numbers: far more than one sweep each.
        XCTAssertGreaterThanOrEqual(swept, 3 * LayerRegistry.effects.count)
    }

    func testIdentityParametersLeaveTheLayerUnchanged() throws {
        let examples = try exampleParameters()
        let plain = try times.map { Fixture.render(try cardJob([]), at: $0).byteArray }
        var checked: [String] = []
        for kind in LayerRegistry.effects {
            guard let example = examples[kind.name] else { continue }
            for (parameter, _) in numericParameters(kind) {
                guard let value = identity(parameter) else { continue }
                var parameters = example
                parameters[parameter.name] = value
                let job = try cardJob([[kind.name: parameters]])
                for (time, expected) in zip(times, plain) {
                    XCTAssertEqual(
                        Fixture.render(job, at: time).byteArray, expected,
                        "\(kind.name).\(parameter.name) = \(value) t=\(time)")
                }
                checked.append(kind.name)
            }
        }
        // The help texts name identities for most effects; a wording change must not empty this.
        XCTAssertGreaterThanOrEqual(Set(checked).count, 10, "\(checked)")
    }
}
