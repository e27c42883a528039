import Foundation
import KilnExport
import KilnMedia
import KilnModel
import KilnRaster
import KilnScene

#if canImport(Glibc)
    import Glibc
#endif

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("kiln-bench: error: \(message)\n".utf8))
    exit(64)
}

struct Row {
    let name: String
    let threads: Int
    let msPerFrame: Double
    let pixels: Int
    var nsCorePerPixel: Double { msPerFrame * 1e6 * Double(threads) / Double(pixels) }
}

func median(_ values: [Double]) -> Double {
    let s = values.sorted()
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

func measure(_ count: Int, _ body: (Int) -> Void) -> Double {
    body(0)  // warm-up: caches, lazy allocations
    var times: [Double] = []
    for i in 0..<count {
        let start = DispatchTime.now().uptimeNanoseconds
        body(i + 1)
        times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }
    return median(times)
}
