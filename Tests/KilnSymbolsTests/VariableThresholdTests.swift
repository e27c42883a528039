import KilnModel
import XCTest

@testable import KilnSymbols

/// Variable value lights a symbol's variable layers in even steps (Apple's rule): with n steps
/// the k-th lights at exactly k/n, so a value of k/n lights it and anything below leaves it dim.
/// The shipped wifi and speaker once had 0.34 and 0.67, and `variableValue` 1/3 left the first
/// arc dim.
final class VariableThresholdTests: XCTestCase {
    /// The shipped symbols with variable layers, and their steps: the distinct thresholds above
    /// 0 (a layer at 0, such as wifi's dot, is always lit; layers sharing a threshold, such as
    /// the antenna's left and right waves, are one step).
    private func variableSymbols() throws -> [(name: String, artwork: SymbolArtwork, steps: [Double])] {
        try SymbolCatalog.shippedNames.compactMap { name in
            let artwork = try XCTUnwrap(SymbolCatalog.shipped(name), name)
            let steps = Set(artwork.layers.compactMap(\.variableThreshold).filter { $0 > 0 }).sorted()
            return steps.isEmpty ? nil : (name, artwork, steps)
        }
    }

    func testEveryShippedThresholdIsExactlyKOverN() throws {
        let symbols = try variableSymbols()
        XCTAssertEqual(
            Set(symbols.map(\.name)),
            [
                "wifi", "wifi.router", "speaker.wave.3", "battery.100", "antenna.radiowaves.left.and.right",
                "iphone.radiowaves.left.and.right",
            ])
        for (name, _, steps) in symbols {
            let n = steps.count
            XCTAssertEqual(steps, (1...n).map { Double($0) / Double(n) }, "\(name): thresholds k/\(n)")
        }
    }

    /// At k/n exactly the layers of steps 1…k are lit (full opacity) and the rest dim; at the
    /// largest double below k/n (and at k/n − 0.001) step k is still dim.
    func testValueKOverNLightsStepKAndJustBelowLeavesItDim() throws {
        for (name, artwork, steps) in try variableSymbols() {
            let n = steps.count
            let infos = artwork.layerInfo
            func opacities(at value: Double) -> [Double] {
                let animation = SymbolAnimation(
                    effects: [], replacements: [], variableValue: .constant(value), presence: nil)
                return animation.drawings(at: 1) { _ in infos }[0].layers.map(\.opacity)
            }
            for k in 1...n {
                let exact = Double(k) / Double(n)
                for (value, lit) in [(exact, k), (exact.nextDown, k - 1), (exact - 0.001, k - 1)] {
                    let shown = opacities(at: value)
                    for (layer, opacity) in zip(artwork.layers, shown) {
                        guard let threshold = layer.variableThreshold else { continue }
                        let step = threshold == 0 ? 0 : (steps.firstIndex(of: threshold) ?? -1) + 1
                        let expected = step <= lit ? 1 : SymbolEffectTiming.unlitOpacity
                        XCTAssertEqual(
                            opacity, expected, accuracy: 1e-12,
                            "\(name) at \(value) (k = \(k), n = \(n)): \(layer.name)")
                    }
                }
            }
        }
    }
}
