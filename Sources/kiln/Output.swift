import Foundation
import KilnModel

#if canImport(Glibc)
    import Glibc
#endif

/// Everything Kiln prints goes through here, escaped (`TerminalText`): messages quote job
/// content, and job content must not reach a terminal raw.
enum Output {
    static func stderr(_ text: String) {
        FileHandle.standardError.write(Data((TerminalText.escaped(text, keepingNewlines: true) + "\n").utf8))
    }

    /// One line of a listing on stdout (a status row, a log event): a newline inside is escaped
    /// too, so a job's text cannot pass for another row.
    static func line(_ text: String) {
        print(TerminalText.escaped(text))
    }

    static func error(_ text: String) {
        stderr("kiln: error: \(text)")
    }

    static var stderrIsTerminal: Bool { isatty(2) == 1 }
}
