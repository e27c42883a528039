import Foundation

// Built two ways. `scripts/fuzz.sh` builds with `-sanitize=fuzzer,address -D KILN_LIBFUZZER`:
// libFuzzer then runs the entry point below with each input, for the target named by
// KILN_FUZZ_TARGET. The normal build has a `main` that replays files instead
// (`kiln-fuzz TARGET FILE-OR-FOLDER...`), so a corpus or a crash can be rerun without the fuzzer.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    selectedTarget.run(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}

private let selectedTarget: FuzzTarget = {
    let name = ProcessInfo.processInfo.environment["KILN_FUZZ_TARGET"] ?? ""
    guard let target = FuzzTarget(rawValue: name) else {
        FileHandle.standardError.write(
            Data("kiln-fuzz: set KILN_FUZZ_TARGET to one of \(targetNames)\n".utf8))
        exit(64)
    }
    return target
}()

private let targetNames = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")

#if KILN_LIBFUZZER
    // SwiftPM links an executable with `main` renamed to `<module>_main` (so tests can link the
    // module), which leaves libFuzzer's own `main` unused: this one hands the arguments to it.
    @_silgen_name("LLVMFuzzerRunDriver")
    private func runFuzzerDriver(
        _ argc: UnsafeMutablePointer<Int32>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
        _ testOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
    ) -> Int32

    @_cdecl("kiln_fuzz_main")
    func fuzzerMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
        var count = argc, arguments = argv
        return runFuzzerDriver(&count, &arguments) { fuzzOneInput($0, $1) }
    }
#else
    @main
    struct FuzzReplay {
        static func main() {
            let arguments = CommandLine.arguments.dropFirst()
            guard let name = arguments.first, let target = FuzzTarget(rawValue: name), arguments.count > 1
            else {
                FileHandle.standardError.write(
                    Data("usage: kiln-fuzz TARGET FILE-OR-FOLDER... (targets: \(targetNames))\n".utf8))
                exit(64)
            }
            var count = 0
            for path in arguments.dropFirst() {
                for file in inputs(at: path) {
                    guard let bytes = FileManager.default.contents(atPath: file) else {
                        FileHandle.standardError.write(Data("kiln-fuzz: cannot read \(file)\n".utf8))
                        exit(66)
                    }
                    target.run(Array(bytes))
                    count += 1
                }
            }
            print("kiln-fuzz: \(target.rawValue): \(count) inputs ran without a crash")
        }

        /// The file itself, or the regular files under a folder in name order.
        private static func inputs(at path: String) -> [String] {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory),
                isDirectory.boolValue
            else { return [path] }
            let names = FileManager.default.subpaths(atPath: path) ?? []
            return names.sorted().map { "\(path)/\($0)" }.filter { file in
                var isFolder: ObjCBool = false
                return FileManager.default.fileExists(atPath: file, isDirectory: &isFolder)
                    && !isFolder.boolValue
            }
        }
    }
#endif
