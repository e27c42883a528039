import KilnModel

/// The answer to a frame request whose values name a file the studio will not read. A path outside
/// the asset roots and a file that is not there get the same words, so a request cannot learn
/// which files exist elsewhere on the machine (or what a link there points to).
enum StudioPathProblem {
    static let message = "no file the studio may read at this path (files must be under the asset roots)"

    /// `error`'s text, with every missing or refused file reduced to `message` when the request
    /// set variables (which is how a request names a file).
    static func masked(_ error: JobLoadError, variables: [String: String]) -> String {
        guard !variables.isEmpty, case .invalid(let diagnostics) = error else { return error.description }
        return diagnostics.map { diagnostic in
            guard diagnostic.isMissingInput || diagnostic.isRefusedInput else {
                return diagnostic.description
            }
            return Diagnostic(
                file: diagnostic.file, path: diagnostic.path, location: diagnostic.location, message: message
            ).description
        }.joined(separator: "\n")
    }
}
