import Foundation
import KilnExport
import KilnMedia

#if canImport(Glibc)
    import Glibc
#endif

// libx264 and libavformat chat on stderr, and decoders print their own view of a bad image next
// to Kiln's message (which names the file and the JSON path). Kiln reports progress and every
// failure itself; KILN_FFMPEG_LOG=1 shows the libraries' own lines for debugging.
MediaLibraries.setLogLevel(ProcessInfo.processInfo.environment["KILN_FFMPEG_LOG"] == "1" ? .info : .quiet)
let cli = CommandLine.arguments.dropFirst()
exit(KilnCommand.run(Array(cli)))
