import Foundation
import KilnModel
import KilnRaster

/// An effect that maps each pixel's colour through a matrix (SwiftUI's colour modifiers).
/// Consecutive colour effects compose into one matrix, applied in one pass.
public protocol ColorEffect: EffectContent {
    func matrix(at time: Double) -> ColorMatrix
}

/// Rec. 709 luma weights, as SVG's and CSS's colour-matrix filters use.
let lumaWeights = (r: 0.2126, g: 0.7152, b: 0.0722)

/// s·I + (1 − s)·(luma in every channel): s = 1 is the identity, s = 0 grey.
func saturationMatrix(_ s: Double) -> ColorMatrix {
    let w = [lumaWeights.r, lumaWeights.g, lumaWeights.b]
    var rows: [[Double]] = []
    for i in 0..<3 { rows.append((0..<3).map { j in (1 - s) * w[j] + (i == j ? s : 0) } + [0]) }
    return ColorMatrix(rows: rows + [[0, 0, 0, 1]])
}
