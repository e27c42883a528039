import Foundation
import KilnExport

#if canImport(Glibc)
    import Glibc
#endif

let cli = CommandLine.arguments.dropFirst()
exit(KilnCommand.run(Array(cli)))
