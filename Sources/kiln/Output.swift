import Foundation
import KilnModel

#if canImport(Glibc)
    import Glibc
#endif

/// Everything Kiln prints goes through here, escaped (`TerminalText`): messages quote job
/// content, and job content must not reach a terminal raw.
enum Output {
    static func stderr(_ text: String) {
        FileHandle.standardError.write(Data((message(text) + "\n").utf8))
    }

    /// A message that may be several lines by design: escaped, and every line after the first
    /// indented, so a newline in a job's text (a layer type, a font, a path, the job file's own
    /// name) cannot start a line that passes for Kiln's own ("kiln: job 99 completed").
    static func message(_ text: String) -> String {
        let escaped = TerminalText.escaped(text, keepingNewlines: true)
        guard escaped.contains("\n") else { return escaped }
        return escaped.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map {
            index, line in
            index == 0 || line.isEmpty || line.first == " " || line.first == "\t" ? String(line) : "  " + line
        }.joined(separator: "\n")
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
