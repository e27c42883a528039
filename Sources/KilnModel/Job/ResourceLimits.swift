/// The sizes a job may ask for, checked before anything of that size is allocated: a small
/// hostile job must be refused with a message naming the limit, never killed for want of memory.
///
/// Each limit has a name (`--limit NAME=VALUE`, the config file's `"limits"` object) and a
/// default that keeps every job within about 1 GB of memory.
public struct ResourceLimits: Sendable, Equatable {
    public enum Name: String, Sendable, CaseIterable {
        case jsonBytes = "json-bytes"
        case jsonValues = "json-values"
        case jsonDepth = "json-depth"
        case framePixels = "frame-pixels"
        case frames = "frames"
        case pixelFrames = "pixel-frames"
        case layers = "layers"
        case nesting = "nesting"
        case offscreens = "offscreens"
        case offscreenMegabytes = "offscreen-megabytes"
        case textCharacters = "text-characters"
        case textLines = "text-lines"
        case textClusterScalars = "text-cluster-scalars"
        case textPixels = "text-pixels"
        case transcriptBytes = "transcript-bytes"
        case transcriptEntries = "transcript-entries"
        case eventLogBytes = "event-log-bytes"
        case eventLogEvents = "event-log-events"
        case imagePixels = "image-pixels"
        case noisePixels = "noise-pixels"
        case audioSeconds = "audio-seconds"
        case memoryMegabytes = "memory-megabytes"

        public var defaultValue: Double {
            switch self {
            case .jsonBytes: 16 * 1024 * 1024
            case .jsonValues: 1_000_000
            case .jsonDepth: 256
            case .framePixels: 2560 * 1440
            case .frames: 2_592_000
            case .pixelFrames: 250_000_000_000
            case .layers: 10_000
            case .nesting: 32
            case .offscreens: 64
            case .offscreenMegabytes: 512
            case .textCharacters: 10_000
            case .textLines: 1_000
            case .textClusterScalars: 32
            case .textPixels: 16 * 1024 * 1024
            case .transcriptBytes: 4 * 1024 * 1024
            case .transcriptEntries: 2_000
            case .eventLogBytes: 4 * 1024 * 1024
            case .eventLogEvents: 20_000
            case .imagePixels: 50_000_000
            case .noisePixels: 4096 * 4096
            case .audioSeconds: 6 * 3600
            case .memoryMegabytes: 1024
            }
        }

        public var summary: String {
            switch self {
            case .jsonBytes: "bytes of a job file (and of a JSON transcript)"
            case .jsonValues: "JSON values (numbers, strings, arrays, objects…) in a job file"
            case .jsonDepth: "nesting depth of JSON arrays and objects (can be raised to 1024)"
            case .framePixels: "output width × height"
            case .frames: "frames in the output"
            case .pixelFrames: "width × height × frames: the work a render costs"
            case .layers: "layers in a job, children of groups, stacks and scrolls included"
            case .nesting:
                "depth of layers inside groups, stacks, scrolls, masks and compositions (can be raised to 128)"
            case .offscreens: "blurred or pixel-effect layers rendered offscreen in one frame"
            case .offscreenMegabytes: "memory for one frame's offscreen images, MiB"
            case .textCharacters: "Unicode scalars in one text layer's text"
            case .textLines: "lines of one text layer"
            case .textClusterScalars: "Unicode scalars in one character (a letter and its combining marks)"
            case .textPixels: "pixels of one text layer's picture (its box with margins)"
            case .transcriptBytes: "bytes of a transcript file"
            case .transcriptEntries: "lines (cues, segments) of a transcript"
            case .eventLogBytes: "bytes of a pointer event log file"
            case .eventLogEvents: "events of a pointer event log"
            case .imagePixels:
                "pixels of an image file or of a video clip's frame, read from its header before decoding"
            case .noisePixels: "pixels of a noise texture, generated or read from an image"
            case .audioSeconds: "seconds of a soundtrack file, read from its header"
            case .memoryMegabytes:
                "a job's estimated peak memory, MiB, all layers together (and the render's address-space limit)"
            }
        }

        /// The most the limit may be raised to. Depths are recursion (the parser, the schema,
        /// groups inside groups on render threads with small stacks): past these the stack, not
        /// the limit, would stop a deep job, with SIGSEGV instead of a message.
        public var ceiling: Double? {
            switch self {
            case .jsonDepth: 1024
            case .nesting: 128
            default: nil
            }
        }

        /// Whether the value must be a whole number (everything but seconds).
        var isCount: Bool { self != .audioSeconds }
    }

    private var values: [Name: Double]

    /// Every limit at its default.
    public init() {
        values = Dictionary(uniqueKeysWithValues: Name.allCases.map { ($0, $0.defaultValue) })
    }

    /// The defaults with `overrides` (limit name → maximum) applied: what `--limit` flags and the
    /// config file's `"limits"` object give.
    public init(overrides: [String: Double]) throws(ResourceLimitError) {
        self.init()
        for (key, value) in overrides.sorted(by: { $0.key < $1.key }) {
            guard let name = Name(rawValue: key) else {
                throw .unknownName(
                    key, suggestion: Suggestion.closest(to: key, among: Name.allCases.map(\.rawValue)))
            }
            guard value.isFinite, value > 0, !name.isCount || value == value.rounded() else {
                throw .badValue(name: key, value: "\(value)", count: name.isCount)
            }
            if let ceiling = name.ceiling, value > ceiling {
                throw .aboveCeiling(name: key, value: "\(Int(value))", ceiling: Int(ceiling))
            }
            values[name] = value
        }
    }

    /// Parses one `NAME=VALUE` flag value into an override.
    public static func parseOverride(_ text: String) throws(ResourceLimitError) -> (String, Double) {
        guard let equals = text.firstIndex(of: "=") else { throw .malformed(text) }
        let name = String(text[..<equals]), valueText = String(text[text.index(after: equals)...])
        guard Name(rawValue: name) != nil else {
            throw .unknownName(
                name, suggestion: Suggestion.closest(to: name, among: Name.allCases.map(\.rawValue)))
        }
        guard let value = Double(valueText) else {
            throw .badValue(name: name, value: valueText, count: Name(rawValue: name)?.isCount ?? true)
        }
        return (name, value)
    }

    /// The limits that differ from their defaults, as `init(overrides:)` takes them: how a
    /// worker hands its limits to the process that renders an attempt.
    public var overrides: [String: Double] {
        Dictionary(
            uniqueKeysWithValues: Name.allCases.compactMap { name in
                self[name] == name.defaultValue ? nil : (name.rawValue, self[name])
            })
    }

    public subscript(name: Name) -> Double {
        get { values[name] ?? name.defaultValue }
        set { values[name] = newValue }
    }

    /// The maximum as a count, saturated so that comparing with any Int is safe.
    public func count(_ name: Name) -> Int {
        let value = self[name]
        return value >= 9e18 ? Int.max : Int(value)
    }

    /// nil when `value` is within the limit; otherwise the message that refuses it: what was
    /// measured, the limit's name and maximum, and how to raise it.
    public func violation(_ name: Name, _ value: Double, _ what: String) -> String? {
        guard value > self[name] else { return nil }
        return Self.message(name, value: value, maximum: self[name], what: what)
    }

    public func violation(_ name: Name, _ value: Int, _ what: String) -> String? {
        guard value > count(name) else { return nil }
        return Self.message(name, value: Double(value), maximum: self[name], what: what)
    }

    /// A limit's value as messages and `kiln limits` print it.
    public static func text(_ value: Double) -> String { NumberText.format(value) }

    static func message(_ name: Name, value: Double, maximum: Double, what: String) -> String {
        "\(what) is \(NumberText.format(value)), over the limit \(name.rawValue) = \(NumberText.format(maximum)) "
            + "(raise it with --limit \(name.rawValue)=N)"
    }
}
