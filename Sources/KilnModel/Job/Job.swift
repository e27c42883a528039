import Foundation

/// A fully validated job: everything needed to render, with no errors left to find.
public struct Job: Sendable {
    /// The job file as the user named it.
    public let file: String
    public let output: OutputSettings
    public let layers: [LayerNode]
    /// The camera the layers are seen through; nil: the layout as it is.
    public let camera: Camera?
    /// The soundtrack (one or more tracks mixed); nil: the MP4 has no audio stream.
    public let audio: Soundtrack?
    /// The limits it was validated under; rendering holds to them too (offscreen memory).
    public let limits: ResourceLimits
    /// Every file the job reads (images, audio, transcripts), as resolved while loading: its
    /// output must be none of them.
    public internal(set) var inputFiles: [URL] = []
    /// The job files played as compositions, with the bytes that were played: part of the
    /// job's fingerprint, as its own bytes are.
    public internal(set) var compositionFiles: [CompositionFile] = []
    /// What the frames read outside any layer (the camera's values, the soundtrack's files).
    public internal(set) var frameInputs = FrameInputs()

    public init(
        file: String, output: OutputSettings, layers: [LayerNode], camera: Camera? = nil,
        audio: Soundtrack? = nil, limits: ResourceLimits = ResourceLimits()
    ) {
        self.file = file
        self.output = output
        self.layers = layers
        self.camera = camera
        self.audio = audio
        self.limits = limits
    }

    /// The job format version this Kiln reads.
    public static let formatVersion = 1
}
