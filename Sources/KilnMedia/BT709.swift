/// BT.709 limited-range Y'CbCr → R'G'B' in 0…255 (clamped).
package enum BT709 {
    static let kr = 0.2126, kb = 0.0722
    static let kg = 1 - kr - kb

    package static func rgb(y: Double, cb: Double, cr: Double) -> (r: Double, g: Double, b: Double) {
        let luma = (y - 16) / 219
        let blue = (cb - 128) / 224
        let red = (cr - 128) / 224
        let r = luma + 2 * (1 - kr) * red
        let b = luma + 2 * (1 - kb) * blue
        let g = luma - (2 * kb * (1 - kb) / kg) * blue - (2 * kr * (1 - kr) / kg) * red
        func byte(_ value: Double) -> Double { min(max(value * 255, 0), 255) }
        return (byte(r), byte(g), byte(b))
    }
}
