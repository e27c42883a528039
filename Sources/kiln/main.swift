import Foundation
import KilnExport
import KilnMedia

#if canImport(Glibc)
    import Glibc
#endif

// libx264 and libavformat chat on stderr at info level; Kiln reports progress itself.
MediaLibraries.setLogLevel(ProcessInfo.processInfo.environment["KILN_FFMPEG_LOG"] == "1" ? .info : .error)
let cli = CommandLine.arguments.dropFirst()
exit(KilnCommand.run(Array(cli)))
