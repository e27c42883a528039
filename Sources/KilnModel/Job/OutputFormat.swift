import Foundation

/// The kind of file a job renders to: `output.format`, or inferred from the output path.
///
/// A path's extension names one format (`formatsByExtension`); a path ending in `/` is a PNG
/// sequence folder. A path with any other extension (or none) is written as H.264 MP4, as Kiln
/// always did, unless `output.format` says otherwise.
public enum OutputFormat: String, Sendable, Hashable, CaseIterable {
    case h264
    case hevc
    case vp9
    case prores4444
    case gif
    case webp
    case pngSequence = "png-sequence"

    public static let names = allCases.map(\.rawValue)

    /// The extension a file of this format gets when Kiln names it (the default output path).
    public var fileExtension: String {
        switch self {
        case .h264, .hevc: "mp4"
        case .vp9: "webm"
        case .prores4444: "mov"
        case .gif: "gif"
        case .webp: "webp"
        case .pngSequence: ""
        }
    }

    /// Extensions that name one format; a path with one of them must be written in that format
    /// (or, for .mp4, H.264 or HEVC).
    public static let formatsByExtension: [String: [OutputFormat]] = [
        "mp4": [.h264, .hevc], "m4v": [.h264, .hevc], "webm": [.vp9], "mov": [.prores4444],
        "gif": [.gif], "webp": [.webp], "png": [],
    ]

    /// What a path alone implies: its extension's first format, a folder for a trailing `/`, else nil.
    public static func inferred(fromPath written: String) -> OutputFormat? {
        if written.hasSuffix("/") { return .pngSequence }
        let ext = URL(fileURLWithPath: written).pathExtension.lowercased()
        return formatsByExtension[ext]?.first
    }

    /// Why `self` cannot be written to a path spelled `written`, or nil when it can; `namedBy` is
    /// where the format was chosen, for the advice.
    public func pathMismatch(_ written: String, namedBy: String = "output.format") -> String? {
        if self == .pngSequence {
            let ext = URL(fileURLWithPath: written).pathExtension.lowercased()
            guard written.hasSuffix("/") || Self.formatsByExtension[ext] == nil else {
                return "format png-sequence writes a folder of PNG files, but the path \(written) names a "
                    + ".\(ext) file; give a folder (e.g. out/frames/)"
            }
            return nil
        }
        if written.hasSuffix("/") {
            return "the path \(written) names a folder, which only format png-sequence writes; "
                + "give a file name ending in .\(fileExtension)"
        }
        let ext = URL(fileURLWithPath: written).pathExtension.lowercased()
        guard let allowed = Self.formatsByExtension[ext], !allowed.contains(self) else { return nil }
        let expected =
            allowed.isEmpty ? "a folder (png-sequence)" : allowed.map(\.rawValue).joined(separator: " or ")
        return "format \(rawValue) cannot be written to a .\(ext) file (.\(ext) is \(expected)); "
            + "name the file .\(fileExtension) or change \(namedBy)"
    }

    /// libx264 and libx265 code 4:2:0 colour in whole 2×2 blocks, so their frames need even
    /// sides. The others take any size: libvpx rounds its colour planes up, and ProRes 4444, GIF,
    /// WebP and PNG are written from full-resolution RGBA.
    public var needsEvenSides: Bool { self == .h264 || self == .hevc }

    /// The formats that take a frame with an odd side, for advice.
    public static let oddSideFormats = allCases.filter { !$0.needsEvenSides }.map(\.rawValue)

    /// Why a `width` × `height` frame cannot be written in this format, or nil when it can.
    public func sizeProblem(width: Int, height: Int) -> String? {
        guard needsEvenSides, width % 2 != 0 || height % 2 != 0 else { return nil }
        return "\(rawValue) needs even sides (its 4:2:0 colour comes in 2×2 blocks), got \(width)x\(height); "
            + "make them even or use a format that takes odd sizes: "
            + Self.oddSideFormats.joined(separator: ", ")
    }

    /// Only the formats with an audio stream: GIF, WebP and PNG files have none.
    public var carriesAudio: Bool {
        switch self {
        case .h264, .hevc, .vp9, .prores4444: true
        case .gif, .webp, .pngSequence: false
        }
    }

    /// Segments are joined by MP4 stream copy (`SegmentAssembler`), so only H.264 is split.
    public var supportsSegments: Bool { self == .h264 }

    /// Whether the output keeps the frame's transparency (straight alpha): the others are
    /// composited over black.
    public var keepsAlpha: Bool {
        switch self {
        case .h264, .hevc, .vp9: false
        case .prores4444, .gif, .webp, .pngSequence: true
        }
    }

    /// `crf`'s range for the encoders that have one (x264 and x265: 0…51, libvpx: 0…63).
    public var crfRange: ClosedRange<Double>? {
        switch self {
        case .h264, .hevc: 0...51
        case .vp9: 0...63
        case .prores4444, .gif, .webp, .pngSequence: nil
        }
    }

    /// `preset`'s names for the encoders that have one: x264's and x265's speed presets, libvpx's
    /// deadlines.
    public var presets: [String]? {
        switch self {
        case .h264, .hevc:
            [
                "ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower",
                "veryslow", "placebo",
            ]
        case .vp9: ["realtime", "good", "best"]
        case .prores4444, .gif, .webp, .pngSequence: nil
        }
    }

    public var defaultPreset: String { self == .vp9 ? "good" : "medium" }
    /// libvpx's CRF scale is not x264's: 31 looks about like x264's 18 at these sizes.
    public var defaultCRF: Double { self == .vp9 ? 31 : 18 }
}
