/// Shell completion scripts for bash, zsh and fish: command names, each command's subcommands,
/// options and choices, and file names where an option or argument takes a path.
public enum CompletionShell: String, CaseIterable, Sendable {
    case bash, zsh, fish

    public func script(for program: CommandLineProgram) -> String {
        switch self {
        case .bash: return BashCompletion(program: program).script
        case .zsh: return ZshCompletion(program: program).script
        case .fish: return FishCompletion(program: program).script
        }
    }
}
