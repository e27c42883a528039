enum ProgressMode: Equatable {
    case bar, json, none

    /// "auto" draws a bar only when stderr is a terminal, so pipes and logs stay quiet.
    init?(_ text: String) {
        switch text {
        case "auto": self = Output.stderrIsTerminal ? .bar : .none
        case "bar": self = .bar
        case "json": self = .json
        case "none": self = .none
        default: return nil
        }
    }
}
