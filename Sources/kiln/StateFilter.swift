import Foundation
import KilnCommandLine
import KilnQueue

/// `--state S[,S…]` of `status`, `cancel` and `retry`: state names, each one the command takes.
enum StateFilter {
    static func parse(_ text: String, allowed: [JobState], _ args: ParsedArguments) throws -> [JobState] {
        let expected = allowed.map(\.rawValue).joined(separator: ", ")
        return try text.split(separator: ",").map { name in
            let word = name.trimmingCharacters(in: .whitespaces)
            guard let state = JobState(rawValue: word) else {
                throw args.usageError(
                    "--state expects \(expected), got '\(word)'"
                        + NameSuggestion.hint(for: word, among: JobState.allCases.map(\.rawValue)))
            }
            guard allowed.contains(state) else {
                throw args.usageError(
                    "\(args.command) does not apply to \(state.rawValue) jobs; --state expects \(expected)")
            }
            return state
        }
    }
}
