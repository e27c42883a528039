import Foundation
import KilnCommandLine

/// `-n`/`--no-clobber` for `render`, `preview` and `sheet`: a script that makes many outputs can
/// be run again and only the missing ones are made. Checked before anything renders; an output
/// that appears while rendering is still replaced, as without -n.
enum NoClobber {
    /// True when `url` exists and -n was given: the command says so and stops (exit 0).
    static func keeps(_ url: URL, _ args: ParsedArguments) -> Bool {
        guard args.flag(.noClobber) else { return false }
        var status = stat()
        guard lstat(url.path, &status) == 0 else { return false }
        Output.stderr("kiln: \(url.path) exists; left as it is (--no-clobber)")
        return true
    }
}
