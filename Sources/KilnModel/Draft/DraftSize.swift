/// How big a draft is: a fraction of the job's size (`--scale`) or a size in pixels of the
/// job's shape (`--size`). Drafts are never larger than the job: text and images are drawn at
/// the job's own size, and enlarged they would only blur.
public enum DraftSize: Sendable, Hashable {
    /// The job's width and height times this.
    case scale(Double)
    /// Pixels; a side left out follows from the other and the job's shape.
    case pixels(width: Int?, height: Int?)

    public static let scaleRange = 0.05...1.0
    /// How much a `--size` may differ from the job's shape (width / height), as a fraction: a
    /// little, so sizes rounded to whole or even pixels are accepted, but never a visible stretch.
    public static let shapeTolerance = 0.01
    /// H.264 in yuv420p needs even sides, and libx264 a few pixels.
    public static let smallestSide = OutputSettings.dimensionRange.lowerBound

    /// Parses `--size`: `WxH`, `Wx` or `xH` (an `X` or `×` works as well as `x`).
    public init(sizeText text: String) throws(DraftError) {
        let parts = text.lowercased().replacingOccurrences(of: "×", with: "x")
            .split(separator: "x", omittingEmptySubsequences: false)
        func side(_ part: Substring) throws(DraftError) -> Int? {
            if part.isEmpty { return nil }
            guard let value = Int(part), value > 0 else { throw Self.sizeSyntax(text) }
            return value
        }
        guard parts.count == 2 else { throw Self.sizeSyntax(text) }
        let width = try side(parts[0]), height = try side(parts[1])
        guard width != nil || height != nil else { throw Self.sizeSyntax(text) }
        self = .pixels(width: width, height: height)
    }

    static func sizeSyntax(_ text: String) -> DraftError {
        DraftError(
            "--size expects WIDTHxHEIGHT in pixels (e.g. 960x540), or one side (960x or x540) with the "
                + "other following the job's shape; got '\(text)'")
    }

    /// The draft's frame size for a job laid out in `layoutWidth` × `layoutHeight`: both sides
    /// rounded to the nearest even number of pixels.
    public func pixels(layoutWidth: Int, layoutHeight: Int) throws(DraftError) -> (width: Int, height: Int) {
        let jobWidth = Double(layoutWidth), jobHeight = Double(layoutHeight)
        let jobSize = "\(layoutWidth)x\(layoutHeight)"
        let width: Double, height: Double, asked: String
        switch self {
        case .scale(let factor):
            guard factor.isFinite, Self.scaleRange.contains(factor) else {
                throw DraftError(
                    "--scale expects a number in \(NumberText.format(Self.scaleRange)) (0.5 is half the "
                        + "width and height; a draft is never larger than the job), got \(NumberText.format(factor))"
                )
            }
            (width, height) = (jobWidth * factor, jobHeight * factor)
            asked = "--scale \(NumberText.format(factor)) of the job's \(jobSize)"
        case .pixels(let w, let h):
            width = w.map(Double.init) ?? Double(h!) * jobWidth / jobHeight
            height = h.map(Double.init) ?? Double(w!) * jobHeight / jobWidth
            asked = "--size \(w.map(String.init) ?? "")x\(h.map(String.init) ?? "")"
            if let w, let h {
                let shape = (Double(w) / Double(h)) / (jobWidth / jobHeight)
                guard abs(shape - 1) <= Self.shapeTolerance else {
                    let fitted = Self.evenSide(Double(w) * jobHeight / jobWidth)
                    throw DraftError(
                        "\(asked) is not the job's shape (\(jobSize)): a draft keeps the job's layout, only "
                            + "smaller, so give a size of that shape (e.g. --size \(w)x\(fitted), or one side: "
                            + "--size \(w)x) or use --scale")
                }
            }
            guard width <= jobWidth + 1, height <= jobHeight + 1 else {
                throw DraftError(
                    "\(asked) is larger than the job (\(jobSize)): a draft is at most the job's size")
            }
        }
        let drafted = (width: Self.evenSide(width), height: Self.evenSide(height))
        guard min(drafted.width, drafted.height) >= Self.smallestSide else {
            throw DraftError(
                "\(asked) makes \(drafted.width)x\(drafted.height) pixels; each side must be at least "
                    + "\(Self.smallestSide)")
        }
        return (min(drafted.width, layoutWidth), min(drafted.height, layoutHeight))
    }

    /// The nearest even number of pixels (yuv420p halves both sides for colour).
    static func evenSide(_ pixels: Double) -> Int {
        // Bounded first: a --size side can be any Int, and its other side follows by a ratio.
        2 * Int(min(max(pixels / 2, 0), 1e9).rounded(.toNearestOrAwayFromZero))
    }
}
