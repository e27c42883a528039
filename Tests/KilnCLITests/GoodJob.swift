import Foundation
import KilnTestSupport
import XCTest

/// The tiny good jobs: a few layer kinds, some with sound, some split into segments.
struct GoodJob {
    enum Kind: String, CaseIterable {
        case mesh, audio, image, segmented, text
    }

    let kind: Kind
    let width: Int
    let height: Int
    let frames: Int

    init(index: Int, random: inout SplitMix) {
        kind = Kind.allCases[index % Kind.allCases.count]
        (width, height) = Bool.random(using: &random) ? (64, 36) : (160, 90)
        frames = kind == .segmented ? 30 : Int.random(in: 5...30, using: &random)
    }

    var enqueueOptions: [String] { kind == .segmented ? ["--segments", "3"] : [] }

    func text(output: String) -> String {
        let layer: String
        switch kind {
        case .mesh, .segmented:
            layer = ##"""
                {"type": "meshGradient", "width": 2, "height": 2,
                 "points": [[0, 0], [1, 0], [0, 1], {"keyframes": [{"t": 0, "v": [1, 1]}, {"t": 1, "v": [0.2, 0.3]}]}],
                 "colors": ["#ff5a36", "#3a1c71", "#00a8cc", "#ffb347"]}
                """##
        case .audio:
            layer =
                ##"{"type": "solid", "color": "#336699"}, {"type": "shape", "size": [20, 12], "fill": "#ffb347"}"##
        case .image:
            layer = ##"{"type": "image", "path": "photo.png", "size": [\##(width), \##(height)]}"##
        case .text:
            layer = ##"{"type": "solid", "color": "#202020"}, {"type": "text", "text": "Kiln", "size": 14}"##
        }
        let audio = kind == .audio ? ##", "audio": {"path": "tone.flac", "fadeIn": 0.1}"## : ""
        return ##"""
            {"kiln": 1, "output": {"path": "\##(output)", "width": \##(width), "height": \##(height), "fps": 30,
                                   "duration": {"frames": \##(frames)}, "preset": "ultrafast"},
             "layers": [\##(layer)]\##(audio)}
            """##
    }
}
