import Foundation
import KilnExport
import KilnMedia
import KilnModel
import KilnRaster
import KilnScene

#if canImport(Glibc)
    import Glibc
#endif

// Ratios of rows measured in this run (those `--only` left out are skipped).
@MainActor func row(_ name: String, threads: Int = 1) -> Row? {
    rows.first { $0.name == name && $0.threads == threads }
}
/// The table (or JSON): every row measured, the ratios between them, the assembly lines.
@MainActor func printReport() {
    var ratios: [(String, Double)] = []
    if let render1 = row("render mesh gradient → YUV"),
        let renderN = rows.last(where: { $0.name.hasPrefix("render") })
    {
        if renderN.threads > 1 {
            ratios.append(
                ("render speed-up, \(renderN.threads) threads vs 1", render1.msPerFrame / renderN.msPerFrame))
        }
        if let veryfast = row("libx264 veryfast encode") {
            ratios.append(
                (
                    "render+convert ÷ x264 veryfast (per core)",
                    render1.nsCorePerPixel / veryfast.nsCorePerPixel
                ))
        }
    }
    if let picture = row("podcast picture (cover+warp+overlay) → YUV"),
        let x264 = row("libx264 veryfast encode, podcast frames")
    {
        ratios.append(
            (
                "podcast picture ÷ x264 veryfast on its frames (target < 0.5)",
                picture.msPerFrame / x264.msPerFrame
            )
        )
    }
    if let whole = row("export 240 frames, whole", threads: cores),
        let split = row("export 240 frames in 4 segments", threads: cores)
    {
        ratios.append(
            ("segmented ÷ whole export wall time (target ≤ 1.10)", split.msPerFrame / whole.msPerFrame))
    }
    if let sws = row("convert RGBA8 → YUV (swscale)"), let fused = row("convert float → YUV (fused SIMD)") {
        ratios.append(("swscale ÷ fused conversion", sws.msPerFrame / fused.msPerFrame))
    }
    if let sigma30 = row("gaussian blur σ=30, \(frameName)"),
        let sigma3 = row("gaussian blur σ=3, \(frameName)")
    {
        ratios.append(("gaussian blur σ=30 ÷ σ=3 (1 thread)", sigma30.msPerFrame / sigma3.msPerFrame))
    }

    if options.json {
        var object: [String: Any] = [
            "width": width, "height": height, "cores": cores,
            "rows": rows.map {
                [
                    "name": $0.name, "threads": $0.threads, "msPerFrame": $0.msPerFrame,
                    "nsCorePerPixel": $0.nsCorePerPixel,
                ]
            },
        ]
        object["ratios"] = Dictionary(uniqueKeysWithValues: ratios.map { ($0.0, $0.1) })
        object["assembly"] = assemblyLines.map {
            ["name": $0.name, "seconds": $0.seconds, "realTime": $0.realTime, "megabytes": $0.megabytes]
        }
        let data = try! JSONSerialization.data(
            withJSONObject: object, options: [.sortedKeys, .prettyPrinted])
        print(String(decoding: data, as: UTF8.self))
    } else {
        print("kiln-bench \(width)×\(height), \(cores) cores, median of \(options.frames) frames\n")
        let header =
            "what".padding(toLength: 50, withPad: " ", startingAt: 0) + "threads   ms/frame   ns·core/px"
        print(header)
        print(String(repeating: "-", count: header.count))
        for r in rows {
            print(
                r.name.padding(toLength: 50, withPad: " ", startingAt: 0)
                    + String(format: "%7d %10.2f %12.2f", r.threads, r.msPerFrame, r.nsCorePerPixel))
        }
        print("")
        for (name, value) in ratios { print(String(format: "%@: %.2f", name, value)) }
        if !assemblyLines.isEmpty {
            print("")
            for line in assemblyLines {
                print(
                    line.name.padding(toLength: 56, withPad: " ", startingAt: 0)
                        + String(format: "%8.2f s %9.1f× real time", line.seconds, line.realTime)
                        + (line.megabytes > 0 ? String(format: ", %.0f MB written", line.megabytes) : ""))
            }
            if let encode = assemblyLines.last, let copy = assemblyLines.first, assemblyLines.count == 5 {
                print(
                    String(
                        format:
                            "a re-encode of the 10 min at that preset would cost ≥ %.0f s, %.0f× the stream copy",
                        encode.seconds * 10, encode.seconds * 10 / copy.seconds))
            }
        }
    }
}
